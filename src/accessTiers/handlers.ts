// Access tier commands: claim the name, allocate an id, decide, append (through the project resource kit);
// and the check content makes of tier ids.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { projectResourceHandlers } from '../shared/crud/handlers.ts';
import { foldStream, handleCommand } from '../shared/decider.ts';
import { notFound, type FieldError } from '../shared/errors.ts';
import { createAccessTierSchema, updateAccessTierSchema } from './commands.ts';
import { accessTierDecider, nameClaimDecider } from './decider.ts';
import { accessTierStream, nameClaimStream, type AccessTierFields } from './events.ts';

export function createAccessTierHandlers(store: EventStore) {
  const claim = (projectId: number, name: string, accessTierId: number) =>
    handleCommand(store, nameClaimStream(projectId, name), nameClaimDecider, { kind: 'ClaimName', projectId, name, accessTierId });
  const release = (projectId: number, name: string, accessTierId: number) =>
    handleCommand(store, nameClaimStream(projectId, name), nameClaimDecider, { kind: 'ReleaseName', accessTierId });

  // Tiers are never deleted (content may name them): no remove command.
  return projectResourceHandlers(store, {
    sequence: 'access_tier',
    stream: accessTierStream,
    decider: accessTierDecider,
    schemas: { create: createAccessTierSchema, update: updateAccessTierSchema },
    commands: {
      create: (accessTierId, projectId, fields: AccessTierFields, now) => ({ kind: 'CreateAccessTier', accessTierId, projectId, fields, now } as const),
      update: (projectId, changes, now) => ({ kind: 'UpdateAccessTier', projectId, changes, now } as const),
    },
    beforeCreate: async (projectId, accessTierId, fields) => void (await claim(projectId, fields.name, accessTierId)),
    /** A new name is claimed before the rename and the old one released after it, so no other tier takes either meanwhile. */
    async beforeUpdate(projectId, accessTierId, changes) {
      const before = foldStream(accessTierDecider, await store.readStream(accessTierStream(accessTierId)));
      if (before.status !== 'active' || before.projectId !== projectId) throw notFound();
      if (changes.name === undefined || changes.name === before.name) return;
      await claim(projectId, changes.name, accessTierId);
      return () => release(projectId, before.name, accessTierId);
    },
  });
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
