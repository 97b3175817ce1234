// Script templates as a read model (see organizationResources.ts).
import { SUMMARY_TEMPLATE_STREAM_PREFIX, summaryTemplateLifecycle, type SummaryTemplateEvent } from '../src/summaries/events.ts';
import { SUMMARY_TEMPLATES, summaryTemplateIndexes, type SummaryTemplateView } from '../src/summaries/readModel.ts';
import { organizationResourceProjection } from './organizationResources.ts';

export const summaryTemplatesProjection = organizationResourceProjection<SummaryTemplateEvent, SummaryTemplateView>({
  name: 'summaryTemplates',
  streamPrefix: SUMMARY_TEMPLATE_STREAM_PREFIX,
  collection: SUMMARY_TEMPLATES,
  indexes: summaryTemplateIndexes,
  ...summaryTemplateLifecycle,
  streams: 'resource',
});
