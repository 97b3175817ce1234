// Business rules of podcast settings: pure decide/evolve. A change that changes nothing records nothing.
import type { AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { PodcastSettingsEvent, PodcastSettingsFields } from './events.ts';

export type PodcastSettingsState = Partial<PodcastSettingsFields>;

export type PodcastSettingsCommand = { kind: 'UpdatePodcastSettings'; projectId: number; changes: Partial<PodcastSettingsFields>; now: string };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const podcastSettingsDecider: Decider<PodcastSettingsState, PodcastSettingsCommand, PodcastSettingsEvent> = {
  initialState: {},

  evolve(state, event) {
    return { ...state, ...event.data.changes };
  },

  decide(command, state): PodcastSettingsEvent[] | AppError {
    const changes = Object.fromEntries(
      Object.entries(command.changes).filter(([key, value]) => !same(state[key as keyof PodcastSettingsFields], value)),
    ) as Partial<PodcastSettingsFields>;
    if (Object.keys(changes).length === 0) return [];
    return [{ type: 'PodcastSettingsUpdated', data: { projectId: command.projectId, changes, updated: command.now } }];
  },
};
