// Video settings template commands through the resource kit, with the organization as the owner.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { projectResourceHandlers } from '../shared/crud/handlers.ts';
import { slugOf, videoTemplateSchemas } from './commands.ts';
import { videoTemplateDecider } from './decider.ts';
import { videoTemplateStream, type VideoTemplateFields } from './events.ts';

/** The create body as the kit hands it over: the slug may still be missing. */
type BodyFields = Omit<VideoTemplateFields, 'slug'> & { slug?: string };

export function createVideoTemplateHandlers(store: EventStore) {
  return projectResourceHandlers(store, {
    sequence: 'video-template',
    stream: videoTemplateStream,
    decider: videoTemplateDecider,
    schemas: videoTemplateSchemas,
    commands: {
      create: (templateId, organizationId, fields: BodyFields, now) =>
        ({ kind: 'CreateVideoTemplate', templateId, organizationId, fields: { ...fields, slug: fields.slug ?? slugOf(fields.name) }, now }) as const,
      update: (organizationId, changes, now) => ({ kind: 'UpdateVideoTemplate', organizationId, changes: changes as Partial<VideoTemplateFields>, now }) as const,
      remove: (organizationId, now) => ({ kind: 'DeleteVideoTemplate', organizationId, now }) as const,
    },
  });
}
