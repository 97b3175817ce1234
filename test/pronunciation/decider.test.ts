import { describe, expect, it } from 'vitest';
import { pronunciationDecider, type PronunciationCommand } from '../../src/pronunciation/decider.ts';
import type { PronunciationEvent, RuleFields } from '../../src/pronunciation/events.ts';
import { AppError } from '../../src/shared/errors.ts';

/** Given these events, when this command: the events decided, or the kind of the error and where. */
function decide(given: PronunciationEvent[], when: PronunciationCommand): PronunciationEvent[] | string {
  const decision = pronunciationDecider.decide(when, given.reduce(pronunciationDecider.evolve, pronunciationDecider.initialState));
  return decision instanceof AppError ? [decision.kind, ...(decision.errors ?? []).map((error) => error.location)].join(' ') : decision;
}

const now = '2026-03-01T10:00:00.000Z';
const nasa: RuleFields = { projectId: null, contentId: null, language: 'en', type: 'say_as_letter_sequence', text: 'NASA', replacement: null, caseSensitive: false, enabled: true };
const created: PronunciationEvent = { type: 'PronunciationRuleCreated', data: { ruleId: 1, organizationId: 1, fields: nasa, created: now } };
const create = (ruleId: number, fields: Partial<RuleFields>): PronunciationCommand => ({ kind: 'CreateRule', ruleId, organizationId: 1, fields: { ...nasa, ...fields }, now });
const update = (changes: Partial<RuleFields>): PronunciationCommand => ({ kind: 'UpdateRule', ruleId: 1, changes, now });
const updated = (changes: Partial<RuleFields>, version: number): PronunciationEvent => ({ type: 'PronunciationRuleUpdated', data: { ruleId: 1, changes, version, updated: now } });
const ready = (version: number): PronunciationCommand => ({ kind: 'RecordPreview', ruleId: 1, version, outcome: { status: 'ready', audioUrl: '/media/pronunciation/1/1.mp3' }, now });
const recorded: PronunciationEvent = { type: 'PronunciationPreviewRecorded', data: { ruleId: 1, version: 1, status: 'ready', audioUrl: '/media/pronunciation/1/1.mp3', reason: null, recorded: now } };
const deleted: PronunciationEvent = { type: 'PronunciationRuleDeleted', data: { ruleId: 1, deleted: now } };

describe('pronunciation rule decider', () => {
  const cases: [string, PronunciationEvent[], PronunciationCommand, PronunciationEvent[] | string][] = [
    ['creates a rule', [], create(1, {}), [created]],
    ['never creates twice under one id', [created], create(1, {}), 'Conflict'],
    ['refuses a substitute without its replacement', [], create(1, { type: 'substitute' }), 'Invalid replacement'],
    ['refuses a replacement on a letter sequence', [], create(1, { replacement: 'nasa' }), 'Invalid replacement'],
    ['refuses an IPA transcription with symbols no voice says', [], create(1, { type: 'ipa_transcription', replacement: 'ʁɥi' }), 'Invalid replacement'],
    ['refuses an item without its project', [], create(1, { contentId: '6f0c5c1e-0000-4000-8000-000000000001' }), 'Invalid content_id'],
    ['refuses the same text twice in one scope and language', [created], create(2, { text: 'nasa' }), 'Invalid text'],
    ['allows the same text for another project', [created], create(2, { projectId: 3 }), [{ ...created, data: { ...created.data, ruleId: 2, fields: { ...nasa, projectId: 3 } } }]],
    ['allows two case-sensitive spellings', [], create(2, { text: 'Nasa', caseSensitive: true }), [{ ...created, data: { ...created.data, ruleId: 2, fields: { ...nasa, text: 'Nasa', caseSensitive: true } } }]],
    ['a change of sound makes a new version', [created], update({ text: 'ESA' }), [updated({ text: 'ESA' }, 2)]],
    ['disabling keeps the version (and its preview)', [created], update({ enabled: false }), [updated({ enabled: false }, 1)]],
    ['a say-as rule drops its replacement', [created, updated({ type: 'substitute', replacement: 'the agency' }, 2)], update({ type: 'say_as_word' }), [updated({ type: 'say_as_word', replacement: null }, 3)]],
    ['does not update a deleted rule', [created, deleted], update({ text: 'ESA' }), 'NotFound'],
    ['records the preview of the current version', [created], ready(1), [recorded]],
    ['keeps one preview per version', [created, recorded], ready(1), []],
    ['drops the preview of a version left behind', [created, updated({ text: 'ESA' }, 2)], ready(1), []],
    ['deletes a rule', [created], { kind: 'DeleteRule', ruleId: 1, now }, [deleted]],
    ['deletes once', [created, deleted], { kind: 'DeleteRule', ruleId: 1, now }, 'NotFound'],
  ];
  it.each(cases)('%s', (_, given, when, then) => {
    expect(decide(given, when)).toEqual(then);
  });
});
