// Podcast settings commands: decide against the settings stream, append.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { camelKeys } from '../shared/caseMapping.ts';
import { handleCommand } from '../shared/decider.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { podcastSettingsSchema } from './commands.ts';
import { podcastSettingsDecider } from './decider.ts';
import { podcastSettingsStream, type PodcastSettingsFields } from './events.ts';

export interface PodcastHandlers {
  /** The position of the recorded change; 0 when nothing changed. */
  updateSettings(projectId: number, body: unknown, now: Date): Promise<number>;
}

export function createPodcastHandlers(store: EventStore): PodcastHandlers {
  return {
    async updateSettings(projectId, body, now) {
      const changes = camelKeys<Partial<PodcastSettingsFields>>(parseOrThrow(podcastSettingsSchema, body));
      const command = { kind: 'UpdatePodcastSettings', projectId, changes, now: now.toISOString() } as const;
      return (await handleCommand(store, podcastSettingsStream(projectId), podcastSettingsDecider, command)).position;
    },
  };
}
