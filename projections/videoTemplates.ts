// Video settings templates as a read model (see organizationResources.ts).
import type { VideoTemplateEvent } from '../src/videoTemplates/events.ts';
import { VIDEO_TEMPLATE_STREAM_PREFIX, videoTemplateLifecycle } from '../src/videoTemplates/events.ts';
import { VIDEO_TEMPLATES, videoTemplateIndexes, type VideoTemplateView } from '../src/videoTemplates/readModel.ts';
import { organizationResourceProjection } from './organizationResources.ts';

export const videoTemplatesProjection = organizationResourceProjection<VideoTemplateEvent, VideoTemplateView>({
  name: 'videoTemplates',
  streamPrefix: VIDEO_TEMPLATE_STREAM_PREFIX,
  collection: VIDEO_TEMPLATES,
  indexes: videoTemplateIndexes,
  ...videoTemplateLifecycle,
  streams: 'resource',
});
