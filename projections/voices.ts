// An organization's own voices as a read model: one document per voice of its voices stream (see
// organizationResources.ts).
import type { CustomVoiceEvent } from '../src/voices/events.ts';
import { VOICES_STREAM_PREFIX } from '../src/voices/events.ts';
import { CUSTOM_VOICES, customVoiceIndexes, type CustomVoiceView } from '../src/voices/readModel.ts';
import { organizationResourceProjection } from './organizationResources.ts';

export const customVoicesProjection = organizationResourceProjection<CustomVoiceEvent, CustomVoiceView>({
  name: 'customVoices',
  streamPrefix: VOICES_STREAM_PREFIX,
  collection: CUSTOM_VOICES,
  indexes: customVoiceIndexes,
  types: { created: 'CustomVoiceCreated', updated: 'CustomVoiceUpdated', deleted: 'CustomVoiceDeleted' },
  idKey: 'voiceId',
  streams: 'organization',
});
