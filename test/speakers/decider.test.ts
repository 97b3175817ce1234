import { describe, expect, it } from 'vitest';
import { organizationResourceWrites, type OrganizationResourceCommand } from '../../src/shared/crud/organizationDecider.ts';
import { AppError } from '../../src/shared/errors.ts';
import { speakerLifecycle, type SpeakerEvent, type SpeakerFields } from '../../src/speakers/events.ts';

// Speakers' rules are the organization kit's (as are video settings templates' and background tracks').
const { decider, commands } = organizationResourceWrites<SpeakerFields, SpeakerEvent>(speakerLifecycle);

/** Given these events, when this command: the events decided, or the kind of the error. */
function decide(given: SpeakerEvent[], when: OrganizationResourceCommand<SpeakerFields>): SpeakerEvent[] | string {
  const decision = decider.decide(when, given.reduce(decider.evolve, decider.initialState));
  return decision instanceof AppError ? decision.kind : decision;
}

const now = '2026-03-01T10:00:00.000Z';
const ann: SpeakerFields = { firstName: 'Ann', lastName: 'Lee', avatarUrl: null, voiceIds: [123_456] };
const created: SpeakerEvent = { type: 'SpeakerCreated', data: { speakerId: 4, organizationId: 1, fields: ann, created: now } };
const updated: SpeakerEvent = { type: 'SpeakerUpdated', data: { changes: { lastName: 'Li' }, updated: now } };
const deleted: SpeakerEvent = { type: 'SpeakerDeleted', data: { deleted: now } };
const create = commands.create(4, 1, ann, now);
const update = commands.update(1, { lastName: 'Li' }, now);
const remove = commands.remove(1, now);

describe('speaker decider', () => {
  const cases: [string, SpeakerEvent[], OrganizationResourceCommand<SpeakerFields>, SpeakerEvent[] | string][] = [
    ['creates a speaker', [], create, [created]],
    ['never creates twice under one id', [created], create, 'Conflict'],
    ['never creates again once deleted', [created, deleted], create, 'Conflict'],
    ['changes a speaker', [created], update, [updated]],
    ['does not change a speaker it does not have', [], update, 'NotFound'],
    ["does not change another organization's speaker", [created], commands.update(2, { lastName: 'Li' }, now), 'NotFound'],
    ['deletes a speaker', [created, updated], remove, [deleted]],
    ["does not delete another organization's speaker", [created], commands.remove(2, now), 'NotFound'],
    ['does not change a deleted speaker', [created, deleted], update, 'NotFound'],
    ['does not delete twice', [created, deleted], remove, 'NotFound'],
  ];
  it.each(cases)('%s', (_name, given, when, then) => expect(decide(given, when)).toEqual(then));

  it('writes the events as they are stored, key order included', () => {
    expect(JSON.stringify(decide([], create))).toBe(
      '[{"type":"SpeakerCreated","data":{"speakerId":4,"organizationId":1,"fields":{"firstName":"Ann","lastName":"Lee","avatarUrl":null,"voiceIds":[123456]},"created":"2026-03-01T10:00:00.000Z"}}]',
    );
  });
});
