import { describe, expect, it } from 'vitest';
import { feedImportDecider, type FeedImportCommand } from '../../src/feedImports/decider.ts';
import type { FeedImportEvent, FeedImportFields, RunOutcome } from '../../src/feedImports/events.ts';
import { AppError } from '../../src/shared/errors.ts';

/** Given these events, when this command: the events decided, or the kind of the error. */
function decide(given: FeedImportEvent[], when: FeedImportCommand): FeedImportEvent[] | string {
  const decision = feedImportDecider.decide(when, given.reduce(feedImportDecider.evolve, feedImportDecider.initialState));
  return decision instanceof AppError ? decision.kind : decision;
}

const at = (minutes: number) => new Date(Date.UTC(2026, 2, 1, 10, minutes)).toISOString();
const fields: FeedImportFields = { url: 'https://news.example.com/feed/', enabled: true, fieldMap: {}, fetchFullArticle: false, publish: true, requestHeaders: {} };
const created: FeedImportEvent = { type: 'FeedImportCreated', data: { feedImportId: 4, projectId: 1, fields, created: at(0) } };
const started = (runId: string, minute: number): FeedImportEvent => ({ type: 'FeedImportRunStarted', data: { runId, started: at(minute) } });
const outcome: RunOutcome = { started: at(10), finished: at(11), imported: 1, updated: 0, skipped: 0, errors: [] };
const finished = (runId: string): FeedImportEvent => ({ type: 'FeedImportRunFinished', data: { runId, outcome, validators: { etag: '"a"', lastModified: null } } });
const start = (runId: string, minute: number, dueAfterMs?: number): FeedImportCommand => ({ kind: 'StartRun', runId, now: at(minute), staleAfterMs: 15 * 60_000, dueAfterMs });
const finish = (runId: string): FeedImportCommand => ({ kind: 'FinishRun', runId, outcome, validators: { etag: '"a"', lastModified: null } });

describe('feed import decider', () => {
  const cases: [string, FeedImportEvent[], FeedImportCommand, FeedImportEvent[] | string][] = [
    ['creates an import', [], { kind: 'CreateFeedImport', feedImportId: 4, projectId: 1, fields, now: at(0) }, [created]],
    ['never creates twice under one id', [created], { kind: 'CreateFeedImport', feedImportId: 4, projectId: 1, fields, now: at(0) }, 'Conflict'],
    ["is not another project's to change", [created], { kind: 'UpdateFeedImport', projectId: 2, changes: { enabled: false }, now: at(1) }, 'NotFound'],
    ['starts a run', [created], start('a', 10), [started('a', 10)]],
    ['starts no run of a deleted import', [created, { type: 'FeedImportDeleted', data: { deleted: at(1) } }], start('a', 10), 'NotFound'],
    ['refuses a second run while one is under way', [created, started('a', 10)], start('b', 11), 'Conflict'],
    ['overtakes a run that never finished', [created, started('a', 10)], start('b', 26), [started('b', 26)]],
    ['starts the next run once the last finished', [created, started('a', 10), finished('a')], start('b', 11), [started('b', 11)]],
    ['starts no scheduled run before it is due', [created, started('a', 10), finished('a')], start('b', 15, 10 * 60_000), []],
    ['starts a scheduled run when it is due', [created, started('a', 10), finished('a')], start('b', 20, 10 * 60_000), [started('b', 20)]],
    ['records the outcome of the run under way', [created, started('a', 10)], finish('a'), [finished('a')]],
    ['drops the outcome of an overtaken run', [created, started('a', 10), started('b', 26)], finish('a'), []],
  ];
  it.each(cases)('%s', (_name, given, when, then) => {
    expect(decide(given, when)).toEqual(then);
  });

  it('forgets the validators when the import changes: the next run reads the whole feed', () => {
    const state = [created, started('a', 10), finished('a'), { type: 'FeedImportUpdated', data: { changes: { url: 'https://other.example.com/feed' }, updated: at(12) } } as FeedImportEvent].reduce(
      feedImportDecider.evolve,
      feedImportDecider.initialState,
    );
    expect(state.validators).toBeNull();
    expect(state.fields!.url).toBe('https://other.example.com/feed');
  });
});
