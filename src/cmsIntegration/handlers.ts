// CMS integration commands: load the project's integration stream, decide, append.
import { camelKeys } from '../shared/caseMapping.ts';
import { handleCommand } from '../shared/decider.ts';
import { parseOrThrow } from '../shared/validation.ts';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { cmsIntegrationDecider, type CmsIntegrationState } from './decider.ts';
import { cmsIntegrationStream } from './events.ts';
import { cmsSettingsSchema, type CmsSettingsChanges } from './settings.ts';

export function createCmsIntegrationHandlers(store: EventStore) {
  return {
    /** Changes the fields sent; answers the settings as decided (read-your-writes without waiting for the read model). */
    async update(projectId: number, body: unknown, now: Date): Promise<{ state: CmsIntegrationState; position: number }> {
      const changes = camelKeys<CmsSettingsChanges>(parseOrThrow(cmsSettingsSchema, body));
      const command = { kind: 'UpdateCmsSettings', projectId, changes, now: now.toISOString() } as const;
      return handleCommand(store, cmsIntegrationStream(projectId), cmsIntegrationDecider, command);
    },
  };
}
