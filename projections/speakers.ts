// Speakers as a read model (see organizationResources.ts).
import type { SpeakerEvent } from '../src/speakers/events.ts';
import { SPEAKER_STREAM_PREFIX, speakerLifecycle } from '../src/speakers/events.ts';
import { SPEAKERS, speakerIndexes, type SpeakerView } from '../src/speakers/readModel.ts';
import { organizationResourceProjection } from './organizationResources.ts';

export const speakersProjection = organizationResourceProjection<SpeakerEvent, SpeakerView>({
  name: 'speakers',
  streamPrefix: SPEAKER_STREAM_PREFIX,
  collection: SPEAKERS,
  indexes: speakerIndexes,
  ...speakerLifecycle,
  streams: 'resource',
});
