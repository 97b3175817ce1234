// Ads as a read model, guarded by stream revision so replays are idempotent.
import type { AdEvent } from '../src/ads/events.ts';
import { ADS, adIndexes, type AdView } from '../src/ads/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

const PREFIX = 'ad-';

export const adsProjection: Projection = {
  name: 'ads',
  streamPrefix: PREFIX,
  collections: { [ADS]: adIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const ads = read.collection<AdView>(ADS);
    const event = recorded as unknown as AdEvent;
    const _id = recorded.stream.slice(PREFIX.length);
    if (event.type === 'AdCreated') {
      const { adId, projectId, fields, created } = event.data;
      if (await ads.findOne({ _id })) return;
      await ads.put({ ...fields, _id, revision: recorded.revision, id: adId, projectId, created, updated: created });
      return;
    }
    const ad = await ads.findOne({ _id });
    if (!ad || recorded.revision <= ad.revision) return;
    switch (event.type) {
      case 'AdUpdated':
        await ads.put({ ...ad, ...event.data.changes, revision: recorded.revision, updated: event.data.updated });
        return;
      case 'AdDeleted':
        await ads.deleteOne(_id);
        return;
    }
  },
};
