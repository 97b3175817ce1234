// Video settings templates as a read model, guarded by stream revision so replays are idempotent.
import type { VideoTemplateEvent } from '../src/videoTemplates/events.ts';
import { VIDEO_TEMPLATE_STREAM_PREFIX } from '../src/videoTemplates/events.ts';
import { VIDEO_TEMPLATES, videoTemplateIndexes, type VideoTemplateView } from '../src/videoTemplates/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

export const videoTemplatesProjection: Projection = {
  name: 'videoTemplates',
  streamPrefix: VIDEO_TEMPLATE_STREAM_PREFIX,
  collections: { [VIDEO_TEMPLATES]: videoTemplateIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const templates = read.collection<VideoTemplateView>(VIDEO_TEMPLATES);
    const event = recorded as unknown as VideoTemplateEvent;
    const _id = recorded.stream.slice(VIDEO_TEMPLATE_STREAM_PREFIX.length);
    if (event.type === 'VideoTemplateCreated') {
      const { templateId, organizationId, fields, created } = event.data;
      if (await templates.findOne({ _id })) return;
      await templates.put({ ...fields, _id, revision: recorded.revision, id: templateId, organizationId, created, updated: created });
      return;
    }
    const template = await templates.findOne({ _id });
    if (!template || recorded.revision <= template.revision) return;
    switch (event.type) {
      case 'VideoTemplateUpdated':
        await templates.put({ ...template, ...event.data.changes, revision: recorded.revision, updated: event.data.updated });
        return;
      case 'VideoTemplateDeleted':
        await templates.deleteOne(_id);
        return;
    }
  },
};
