import { describe, expect, it } from 'vitest';
import { projectDecider, type ProjectCommand } from '../../src/projects/decider.ts';
import type { ProjectEvent } from '../../src/projects/events.ts';
import { AppError } from '../../src/shared/errors.ts';

const now = '2026-03-01T10:00:00.000Z';
const created: ProjectEvent = { type: 'ProjectCreated', data: { projectId: 2, organizationId: 1, fields: { name: 'News' }, created: now } };
const deleted: ProjectEvent = { type: 'ProjectDeleted', data: { deleted: now } };
const given = (events: ProjectEvent[]) => events.reduce(projectDecider.evolve, projectDecider.initialState);

describe('settings changes of a project', () => {
  it.each<[string, ProjectEvent[], ProjectCommand, ProjectEvent[] | 'NotFound']>([
    [
      'player settings are recorded as sent',
      [created],
      { kind: 'UpdateSettings', resource: 'player', changes: { theme: 'dark', darkTheme: { text_color: '#fff' } }, now },
      [{ type: 'PlayerSettingsUpdated', data: { changes: { theme: 'dark', darkTheme: { text_color: '#fff' } }, updated: now } }],
    ],
    [
      'video settings',
      [created],
      { kind: 'UpdateSettings', resource: 'video', changes: { textFontSize: 60 }, now },
      [{ type: 'VideoSettingsUpdated', data: { changes: { textFontSize: 60 }, updated: now } }],
    ],
    [
      'embed settings',
      [created, { type: 'VideoSettingsUpdated', data: { changes: { enabled: true }, updated: now } }],
      { kind: 'UpdateSettings', resource: 'embed', changes: { enabled: false }, now },
      [{ type: 'EmbedSettingsUpdated', data: { changes: { enabled: false }, updated: now } }],
    ],
    ['no change, no event', [created], { kind: 'UpdateSettings', resource: 'player', changes: {}, now }, []],
    ['a project that does not exist', [], { kind: 'UpdateSettings', resource: 'player', changes: { theme: 'light' }, now }, 'NotFound'],
    ['a deleted project', [created, deleted], { kind: 'UpdateSettings', resource: 'video', changes: { enabled: true }, now }, 'NotFound'],
  ])('%s', (_, history, command, expected) => {
    const decision = projectDecider.decide(command, given(history));
    if (expected === 'NotFound') {
      expect(decision).toBeInstanceOf(AppError);
      expect((decision as AppError).kind).toBe('NotFound');
    } else {
      expect(decision).toEqual(expected);
    }
  });
});
