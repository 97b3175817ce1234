// Business rules of a project's summarization settings: pure decide/evolve. A change that changes nothing records nothing.
import type { AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { SummarizationSettingsChanges, SummarizationSettingsEvent } from './events.ts';

export type SummarizationSettingsState = SummarizationSettingsChanges;

export type SummarizationSettingsCommand = { kind: 'UpdateSummarizationSettings'; projectId: number; changes: SummarizationSettingsChanges; now: string };

export const summarizationSettingsDecider: Decider<SummarizationSettingsState, SummarizationSettingsCommand, SummarizationSettingsEvent> = {
  initialState: {},

  evolve(state, event) {
    return { ...state, ...event.data.changes };
  },

  decide(command, state): SummarizationSettingsEvent[] | AppError {
    const changes = Object.fromEntries(
      Object.entries(command.changes).filter(([key, value]) => state[key as keyof SummarizationSettingsChanges] !== value),
    ) as SummarizationSettingsChanges;
    if (Object.keys(changes).length === 0) return [];
    return [{ type: 'SummarizationSettingsUpdated', data: { projectId: command.projectId, changes, updated: command.now } }];
  },
};
