// Ad commands: allocate an id, decide, append.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { camelKeys } from '../shared/caseMapping.ts';
import { allocateId, handleCommand } from '../shared/decider.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { createAdSchema, updateAdSchema } from './commands.ts';
import { adDecider } from './decider.ts';
import { adStream, type AdFields } from './events.ts';

export interface AdHandlers {
  create(projectId: number, body: unknown, now: Date): Promise<{ adId: number; position: number }>;
  update(projectId: number, adId: number, body: unknown, now: Date): Promise<number>;
  remove(projectId: number, adId: number, now: Date): Promise<number>;
}

export function createAdHandlers(store: EventStore): AdHandlers {
  return {
    async create(projectId, body, now) {
      const fields = camelKeys<AdFields>(parseOrThrow(createAdSchema, body));
      const adId = await allocateId(store, 'ad');
      const command = { kind: 'CreateAd', adId, projectId, fields, now: now.toISOString() } as const;
      const { position } = await handleCommand(store, adStream(adId), adDecider, command);
      return { adId, position };
    },

    async update(projectId, adId, body, now) {
      const changes = camelKeys<Partial<AdFields>>(parseOrThrow(updateAdSchema, body));
      const command = { kind: 'UpdateAd', projectId, changes, now: now.toISOString() } as const;
      return (await handleCommand(store, adStream(adId), adDecider, command)).position;
    },

    async remove(projectId, adId, now) {
      const command = { kind: 'DeleteAd', projectId, now: now.toISOString() } as const;
      return (await handleCommand(store, adStream(adId), adDecider, command)).position;
    },
  };
}
