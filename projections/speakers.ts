// Speakers as a read model, guarded by stream revision so replays are idempotent.
import type { SpeakerEvent } from '../src/speakers/events.ts';
import { SPEAKER_STREAM_PREFIX } from '../src/speakers/events.ts';
import { SPEAKERS, speakerIndexes, type SpeakerView } from '../src/speakers/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

export const speakersProjection: Projection = {
  name: 'speakers',
  streamPrefix: SPEAKER_STREAM_PREFIX,
  collections: { [SPEAKERS]: speakerIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const speakers = read.collection<SpeakerView>(SPEAKERS);
    const event = recorded as unknown as SpeakerEvent;
    const _id = recorded.stream.slice(SPEAKER_STREAM_PREFIX.length);
    if (event.type === 'SpeakerCreated') {
      const { speakerId, organizationId, fields, created } = event.data;
      if (await speakers.findOne({ _id })) return;
      await speakers.put({ ...fields, _id, revision: recorded.revision, id: speakerId, organizationId, created, updated: created });
      return;
    }
    const speaker = await speakers.findOne({ _id });
    if (!speaker || recorded.revision <= speaker.revision) return;
    switch (event.type) {
      case 'SpeakerUpdated':
        await speakers.put({ ...speaker, ...event.data.changes, revision: recorded.revision, updated: event.data.updated });
        return;
      case 'SpeakerDeleted':
        await speakers.deleteOne(_id);
        return;
    }
  },
};
