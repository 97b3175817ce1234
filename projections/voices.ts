// An organization's own voices as a read model: one document per voice of its voices stream, guarded by the stream
// revision so replays are idempotent.
import type { CustomVoiceEvent } from '../src/voices/events.ts';
import { VOICES_STREAM_PREFIX } from '../src/voices/events.ts';
import { CUSTOM_VOICES, customVoiceIndexes, type CustomVoiceView } from '../src/voices/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

export const customVoicesProjection: Projection = {
  name: 'customVoices',
  streamPrefix: VOICES_STREAM_PREFIX,
  collections: { [CUSTOM_VOICES]: customVoiceIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const voices = read.collection<CustomVoiceView>(CUSTOM_VOICES);
    const event = recorded as unknown as CustomVoiceEvent;
    const _id = String(event.data.voiceId);
    const revision = recorded.revision;
    if (event.type === 'CustomVoiceCreated') {
      const { voiceId, organizationId, fields, created } = event.data;
      if (await voices.findOne({ _id })) return;
      await voices.put({ ...fields, _id, revision, id: voiceId, organizationId, created, updated: created });
      return;
    }
    const voice = await voices.findOne({ _id });
    if (!voice || revision <= voice.revision) return;
    switch (event.type) {
      case 'CustomVoiceUpdated':
        await voices.put({ ...voice, ...event.data.changes, revision, updated: event.data.updated });
        return;
      case 'CustomVoiceDeleted':
        await voices.deleteOne(_id);
        return;
    }
  },
};
