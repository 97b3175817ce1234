// The facts of speakers (`speaker-<id>`), owned by an organization.
import type { Lifecycle } from '../shared/crud/organizationDecider.ts';
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { SpeakerWireFields } from './commands.ts';

/** Stored fields; `voices` hold catalogue voice ids only (names come from the catalogue when answering). */
export type SpeakerFields = Omit<CamelKeys<SpeakerWireFields>, 'voices'> & { voiceIds: number[] };

export type SpeakerCreated = {
  type: 'SpeakerCreated';
  data: { speakerId: number; organizationId: number; fields: SpeakerFields; created: string };
};
export type SpeakerUpdated = { type: 'SpeakerUpdated'; data: { changes: Partial<SpeakerFields>; updated: string } };
export type SpeakerDeleted = { type: 'SpeakerDeleted'; data: { deleted: string } };

export type SpeakerEvent = SpeakerCreated | SpeakerUpdated | SpeakerDeleted;

/** What the kit's decider and projection need to know of the three events. */
export const speakerLifecycle: Lifecycle<SpeakerEvent> = {
  types: { created: 'SpeakerCreated', updated: 'SpeakerUpdated', deleted: 'SpeakerDeleted' },
  idKey: 'speakerId',
};

export const SPEAKER_STREAM_PREFIX = 'speaker-';
export const speakerStream = (speakerId: number) => `${SPEAKER_STREAM_PREFIX}${speakerId}`;
