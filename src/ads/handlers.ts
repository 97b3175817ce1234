// Ad commands: allocate an id, decide, append (through the project resource kit).
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { projectResourceHandlers } from '../shared/crud/handlers.ts';
import { createAdSchema, updateAdSchema } from './commands.ts';
import { adDecider } from './decider.ts';
import { adStream, type AdFields } from './events.ts';

export function createAdHandlers(store: EventStore) {
  return projectResourceHandlers(store, {
    sequence: 'ad',
    stream: adStream,
    decider: adDecider,
    schemas: { create: createAdSchema, update: updateAdSchema },
    commands: {
      create: (adId, projectId, fields: AdFields, now) => ({ kind: 'CreateAd', adId, projectId, fields, now } as const),
      update: (projectId, changes, now) => ({ kind: 'UpdateAd', projectId, changes, now } as const),
      remove: (projectId, now) => ({ kind: 'DeleteAd', projectId, now } as const),
    },
  });
}
