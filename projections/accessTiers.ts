// Access tiers as a read model, guarded by stream revision so replays are idempotent.
import type { AccessTierEvent } from '../src/accessTiers/events.ts';
import { ACCESS_TIERS, accessTierIndexes, type AccessTierView } from '../src/accessTiers/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

// Not the name claims (`access_tier_name-...`): the trailing dash keeps them out.
const PREFIX = 'access_tier-';

export const accessTiersProjection: Projection = {
  name: 'accessTiers',
  streamPrefix: PREFIX,
  collections: { [ACCESS_TIERS]: accessTierIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const tiers = read.collection<AccessTierView>(ACCESS_TIERS);
    const event = recorded as unknown as AccessTierEvent;
    const _id = recorded.stream.slice(PREFIX.length);
    if (event.type === 'AccessTierCreated') {
      const { accessTierId, projectId, fields, created } = event.data;
      if (await tiers.findOne({ _id })) return;
      await tiers.put({ ...fields, _id, revision: recorded.revision, id: accessTierId, projectId, created, updated: created });
      return;
    }
    const tier = await tiers.findOne({ _id });
    if (!tier || recorded.revision <= tier.revision) return;
    if (event.type === 'AccessTierUpdated') {
      await tiers.put({ ...tier, ...event.data.changes, revision: recorded.revision, updated: event.data.updated });
    }
  },
};
