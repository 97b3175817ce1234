// Access tier commands: claim the name, allocate an id, decide, append; and the check content makes of tier ids.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { camelKeys } from '../shared/caseMapping.ts';
import { allocateId, foldStream, handleCommand } from '../shared/decider.ts';
import { notFound, type FieldError } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { createAccessTierSchema, updateAccessTierSchema } from './commands.ts';
import { accessTierDecider, nameClaimDecider } from './decider.ts';
import { accessTierStream, nameClaimStream, type AccessTierFields } from './events.ts';

export interface AccessTierHandlers {
  create(projectId: number, body: unknown, now: Date): Promise<{ accessTierId: number; position: number }>;
  update(projectId: number, accessTierId: number, body: unknown, now: Date): Promise<number>;
}

export function createAccessTierHandlers(store: EventStore): AccessTierHandlers {
  const claim = (projectId: number, name: string, accessTierId: number) =>
    handleCommand(store, nameClaimStream(projectId, name), nameClaimDecider, { kind: 'ClaimName', projectId, name, accessTierId });

  return {
    async create(projectId, body, now) {
      const fields = camelKeys<AccessTierFields>(parseOrThrow(createAccessTierSchema, body));
      const accessTierId = await allocateId(store, 'access_tier');
      await claim(projectId, fields.name, accessTierId);
      const command = { kind: 'CreateAccessTier', accessTierId, projectId, fields, now: now.toISOString() } as const;
      const { position } = await handleCommand(store, accessTierStream(accessTierId), accessTierDecider, command);
      return { accessTierId, position };
    },

    async update(projectId, accessTierId, body, now) {
      const changes = camelKeys<Partial<AccessTierFields>>(parseOrThrow(updateAccessTierSchema, body));
      const before = foldStream(accessTierDecider, await store.readStream(accessTierStream(accessTierId)));
      if (before.status !== 'active' || before.projectId !== projectId) throw notFound();
      const renamed = changes.name !== undefined && changes.name !== before.name;
      if (renamed) await claim(projectId, changes.name!, accessTierId);
      const command = { kind: 'UpdateAccessTier', projectId, changes, now: now.toISOString() } as const;
      const { position } = await handleCommand(store, accessTierStream(accessTierId), accessTierDecider, command);
      if (renamed) await handleCommand(store, nameClaimStream(projectId, before.name), nameClaimDecider, { kind: 'ReleaseName', accessTierId });
      return position;
    },
  };
}

/** Where a body names access tiers that its project does not have (`access_tiers.N`). */
export async function unknownAccessTiers(store: EventStore, projectId: number, ids: number[] | null | undefined): Promise<FieldError[]> {
  const known = await Promise.all(
    (ids ?? []).map(async (id) => {
      const tier = foldStream(accessTierDecider, await store.readStream(accessTierStream(id)));
      return tier.status === 'active' && tier.projectId === projectId;
    }),
  );
  return known.flatMap((ok, index) => (ok ? [] : [{ location: `access_tiers.${index}`, message: 'is not an access tier of this project' }]));
}
