// Content filter use cases of the REST routes; answers are wire-shaped.
import type { Services } from '../services.ts';
import { contentFiltersProjection } from '../../projections/contentFilters.ts';
import { contentFilterStream } from './events.ts';
import { projectResourceActions } from '../shared/crud/actions.ts';
import { createContentFilterHandlers } from './handlers.ts';
import { CONTENT_FILTERS } from './readModel.ts';
import { contentFilterToWire } from './wire.ts';

export type ContentFilterActions = ReturnType<typeof contentFilterActions>;

export const contentFilterActions = (services: Services) =>
  projectResourceActions(
    services,
    { collection: CONTENT_FILTERS, projection: contentFiltersProjection, stream: contentFilterStream, toWire: contentFilterToWire },
    createContentFilterHandlers(services.events),
  );
