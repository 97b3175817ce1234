// Business rules of a project's CMS integration settings: pure decide/evolve.
import type { AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { CmsIntegrationEvent } from './events.ts';
import { defaultCmsSettings, type CmsSettings, type CmsSettingsChanges } from './settings.ts';

export interface CmsIntegrationState {
  settings: CmsSettings;
  created: string | null;
  updated: string | null;
}

export type CmsIntegrationCommand = { kind: 'UpdateCmsSettings'; projectId: number; changes: CmsSettingsChanges; now: string };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const cmsIntegrationDecider: Decider<CmsIntegrationState, CmsIntegrationCommand, CmsIntegrationEvent> = {
  initialState: { settings: defaultCmsSettings, created: null, updated: null },

  evolve(state, event) {
    const { changes, updated } = event.data;
    return { settings: { ...state.settings, ...changes }, created: state.created ?? updated, updated };
  },

  decide(command, state): CmsIntegrationEvent[] | AppError {
    // Only what differs is recorded; a PUT that changes nothing records nothing (once the integration exists).
    const entries = Object.entries(command.changes).filter(([key, value]) => !same(state.settings[key as keyof CmsSettings], value));
    if (entries.length === 0 && state.created !== null) return [];
    const changes = Object.fromEntries(entries) as CmsSettingsChanges;
    return [{ type: 'CmsSettingsUpdated', data: { projectId: command.projectId, changes, updated: command.now } }];
  },
};
