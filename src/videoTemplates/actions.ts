// Video settings template use cases of the REST routes: any key of the organization reads (the WordPress plugin
// lists templates with its project key), organization keys write. Answers are wire-shaped and reflect the command.
import type { Services } from '../services.ts';
import { organizationResourceActions } from '../shared/crud/actions.ts';
import { videoTemplatesProjection } from '../../projections/videoTemplates.ts';
import { videoTemplateStream } from './events.ts';
import { createVideoTemplateHandlers } from './handlers.ts';
import { findVideoTemplate, listVideoTemplates } from './readModel.ts';
import { videoTemplateSummaryToWire, videoTemplateToWire } from './wire.ts';

export type VideoTemplateActions = ReturnType<typeof videoTemplateActions>;

export function videoTemplateActions(services: Services) {
  return organizationResourceActions(
    services,
    { find: findVideoTemplate, list: listVideoTemplates, stream: videoTemplateStream, projection: videoTemplatesProjection, toWire: videoTemplateToWire, summaryToWire: videoTemplateSummaryToWire },
    createVideoTemplateHandlers(services.events),
  );
}
