// Video settings template commands through the resource kit, with the organization as the owner.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { projectResourceHandlers } from '../shared/crud/handlers.ts';
import { slugOf, videoTemplateSchemas } from './commands.ts';
import { organizationResourceWrites } from '../shared/crud/organizationDecider.ts';
import { videoTemplateLifecycle, videoTemplateStream, type VideoTemplateEvent, type VideoTemplateFields } from './events.ts';

/** The create body as the kit hands it over: the slug may still be missing. */
type BodyFields = Omit<VideoTemplateFields, 'slug'> & { slug?: string };

export function createVideoTemplateHandlers(store: EventStore) {
  return projectResourceHandlers(store, {
    sequence: 'video-template',
    stream: videoTemplateStream,
    schemas: videoTemplateSchemas,
    ...organizationResourceWrites<VideoTemplateFields, VideoTemplateEvent, BodyFields>(videoTemplateLifecycle, {
      created: (fields) => ({ ...fields, slug: fields.slug ?? slugOf(fields.name) }),
      changed: (changes) => changes as Partial<VideoTemplateFields>,
    }),
  });
}
