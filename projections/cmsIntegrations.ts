// CMS integration settings as a read model, guarded by stream revision so replays are idempotent.
import type { CmsIntegrationEvent } from '../src/cmsIntegration/events.ts';
import { CMS_INTEGRATIONS, cmsIntegrationIndexes, type CmsIntegrationView } from '../src/cmsIntegration/readModel.ts';
import { defaultCmsSettings } from '../src/cmsIntegration/settings.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

const PREFIX = 'cms_integration-';

export const cmsIntegrationsProjection: Projection = {
  name: 'cmsIntegrations',
  streamPrefix: PREFIX,
  collections: { [CMS_INTEGRATIONS]: cmsIntegrationIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const integrations = read.collection<CmsIntegrationView>(CMS_INTEGRATIONS);
    const event = recorded as unknown as CmsIntegrationEvent;
    if (event.type !== 'CmsSettingsUpdated') return;
    const _id = recorded.stream.slice(PREFIX.length);
    const current = await integrations.findOne({ _id });
    if (current && recorded.revision <= current.revision) return;
    const { projectId, changes, updated } = event.data;
    const base = current ?? { ...defaultCmsSettings, _id, projectId, created: updated };
    await integrations.put({ ...base, ...changes, revision: recorded.revision, updated });
  },
};
