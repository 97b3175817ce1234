import { describe, expect, it } from 'vitest';
import { contentFilterDecider, type ContentFilterCommand } from '../../src/contentFilters/decider.ts';
import type { ContentFilterEvent, ContentFilterFields } from '../../src/contentFilters/events.ts';
import { AppError } from '../../src/shared/errors.ts';

/** Given these events, when this command: the events decided, or the kind of the error. */
function decide(given: ContentFilterEvent[], when: ContentFilterCommand): ContentFilterEvent[] | string {
  const decision = contentFilterDecider.decide(when, given.reduce(contentFilterDecider.evolve, contentFilterDecider.initialState));
  return decision instanceof AppError ? decision.kind : decision;
}

const now = '2026-03-01T10:00:00.000Z';
const fields: ContentFilterFields = { type: 'exclude', selector: '.ad', enabled: true };
const create: ContentFilterCommand = { kind: 'CreateContentFilter', contentFilterId: 4, projectId: 1, fields, now };
const created: ContentFilterEvent = { type: 'ContentFilterCreated', data: { contentFilterId: 4, projectId: 1, fields, created: now } };
const updated: ContentFilterEvent = { type: 'ContentFilterUpdated', data: { changes: { enabled: false }, updated: now } };
const deleted: ContentFilterEvent = { type: 'ContentFilterDeleted', data: { deleted: now } };
const update = (projectId = 1): ContentFilterCommand => ({ kind: 'UpdateContentFilter', projectId, changes: { enabled: false }, now });
const remove = (projectId = 1): ContentFilterCommand => ({ kind: 'DeleteContentFilter', projectId, now });

describe('content filter decider', () => {
  const cases: [string, ContentFilterEvent[], ContentFilterCommand, ContentFilterEvent[] | string][] = [
    ['creates a filter', [], create, [created]],
    ['never creates twice under one id', [created], create, 'Conflict'],
    ['updates a filter of the project', [created], update(), [updated]],
    ["does not update another project's filter", [created], update(2), 'NotFound'],
    ['does not update a missing filter', [], update(), 'NotFound'],
    ['does not update a deleted filter', [created, deleted], update(), 'NotFound'],
    ['deletes a filter of the project', [created, updated], remove(), [deleted]],
    ["does not delete another project's filter", [created], remove(2), 'NotFound'],
    ['does not delete twice', [created, deleted], remove(), 'NotFound'],
  ];
  it.each(cases)('%s', (_, given, when, then) => expect(decide(given, when)).toEqual(then));

  it('folds the changes into the fields', () => {
    const state = [created, updated].reduce(contentFilterDecider.evolve, contentFilterDecider.initialState);
    expect(state).toEqual({ status: 'active', projectId: 1, fields: { ...fields, enabled: false } });
  });
});
