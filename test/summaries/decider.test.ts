// The rules of summaries as tables: settings record only what changed; a summary is recorded on an active item of
// the project, with a regeneration when asked for.
import { describe, expect, it } from 'vitest';
import { contentDecider, type ContentCommand } from '../../src/content/decider.ts';
import type { ContentEvent } from '../../src/content/events.ts';
import { AppError } from '../../src/shared/errors.ts';
import { summarizationSettingsDecider, type SummarizationSettingsCommand } from '../../src/summaries/decider.ts';
import type { SummarizationSettingsEvent } from '../../src/summaries/events.ts';
import { loadConfig } from '../../src/config.ts';

const now = '2026-03-01T10:00:00.000Z';

describe('summarization settings decider', () => {
  const decide = (given: SummarizationSettingsEvent[], when: SummarizationSettingsCommand) =>
    summarizationSettingsDecider.decide(when, given.reduce(summarizationSettingsDecider.evolve, summarizationSettingsDecider.initialState));
  const update = (changes: SummarizationSettingsCommand['changes']): SummarizationSettingsCommand => ({ kind: 'UpdateSummarizationSettings', projectId: 3, changes, now });
  const updated = (changes: SummarizationSettingsCommand['changes']): SummarizationSettingsEvent => ({ type: 'SummarizationSettingsUpdated', data: { projectId: 3, changes, updated: now } });
  const cases: [string, SummarizationSettingsEvent[], SummarizationSettingsCommand, SummarizationSettingsEvent[]][] = [
    ['records the fields sent', [], update({ enabled: true, limitTokenUsage: 80 }), [updated({ enabled: true, limitTokenUsage: 80 })]],
    ['records only the fields that change', [updated({ enabled: true })], update({ enabled: true, templateId: 4 }), [updated({ templateId: 4 })]],
    ['records nothing when nothing changes', [updated({ enabled: true, templateId: 4 })], update({ enabled: true, templateId: 4 }), []],
    ['records a field set back to null', [updated({ templateId: 4 })], update({ templateId: null }), [updated({ templateId: null })]],
  ];
  it.each(cases)('%s', (_name, given, when, then) => expect(decide(given, when)).toEqual(then));
});

describe('content decider: summaries', () => {
  const created: ContentEvent = {
    type: 'ContentCreated',
    data: { contentId: 'c1', projectId: 1, contentType: 'auto_segment', fields: { body: '<p>Text.</p>' }, previewToken: 't', created: now },
  };
  const deleted: ContentEvent = { type: 'ContentDeleted', data: { deleted: now } };
  const summarize = (regenerate: boolean, projectId = 1): ContentCommand => ({
    kind: 'SummarizeContent', projectId, changes: { summary: 'Text.', aiSummaryPrompt: 'Briefly.' }, model: 'extractive', sourceDigest: 'd1', regenerate, now,
  });
  const summarized: ContentEvent = { type: 'ContentSummarized', data: { changes: { summary: 'Text.', aiSummaryPrompt: 'Briefly.' }, model: 'extractive', sourceDigest: 'd1', summarized: now } };
  const decide = (given: ContentEvent[], when: ContentCommand) => {
    const decision = contentDecider.decide(when, given.reduce(contentDecider.evolve, contentDecider.initialState));
    return decision instanceof AppError ? decision.kind : decision;
  };
  const cases: [string, ContentEvent[], ContentCommand, ContentEvent[] | string][] = [
    ['records a summary asked for, and narrates it', [created], summarize(true), [summarized, { type: 'ContentRegenerationRequested', data: { generation: 2, requested: now } }]],
    ['records a summary a generation made, which that generation narrates', [created], summarize(false), [summarized]],
    ["does not summarize another project's item", [created], summarize(true, 2), 'NotFound'],
    ['does not summarize a deleted item', [created, deleted], summarize(true), 'NotFound'],
    ['does not summarize an item it does not have', [], summarize(true), 'NotFound'],
  ];
  it.each(cases)('%s', (_name, given, when, then) => expect(decide(given, when)).toEqual(then));
});

describe('summarizer configuration', () => {
  it('needs SUMMARIZER_MODEL with SUMMARIZER_URL, and a URL that is http(s)', () => {
    expect(loadConfig({ SUMMARIZER_URL: 'http://127.0.0.1:8080/v1' })).toEqual({ ok: false, message: expect.stringContaining('SUMMARIZER_MODEL') });
    expect(loadConfig({ SUMMARIZER_URL: 'ftp://models' })).toEqual({ ok: false, message: expect.stringContaining('SUMMARIZER_URL') });
    const loaded = loadConfig({ SUMMARIZER_URL: 'http://127.0.0.1:8080/v1', SUMMARIZER_MODEL: 'qwen' });
    expect(loaded.ok && loaded.config.SUMMARIZER_TIMEOUT_MS).toBe(60_000);
  });
});
