// Organizations and API keys read models; keys are documents keyed by the hash of their value.
import type { OrganizationEvent } from '../src/organizations/events.ts';
import { API_KEYS, ORGANIZATIONS, apiKeyIndexes, type ApiKeyView, type OrganizationView } from '../src/organizations/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

export const organizationsProjection: Projection = {
  name: 'organizations',
  streamPrefix: 'organization-',
  collections: { [ORGANIZATIONS]: [], [API_KEYS]: apiKeyIndexes },

  // Each event writes or removes one whole document, so applying it twice changes nothing.
  async apply(recorded: RecordedEvent, read: ReadStore) {
    const organizationId = Number(recorded.stream.slice('organization-'.length));
    const event = recorded as unknown as OrganizationEvent;
    switch (event.type) {
      case 'OrganizationCreated':
        await read
          .collection<OrganizationView>(ORGANIZATIONS)
          .put({ _id: String(organizationId), id: organizationId, name: event.data.name, created: event.data.created });
        return;
      case 'ApiKeyIssued': {
        const { keyId, keyHash, scope, projectId, label, created } = event.data;
        await read.collection<ApiKeyView>(API_KEYS).put({ _id: keyHash, keyId, organizationId, scope, projectId, label, created });
        return;
      }
      case 'ApiKeyRevoked':
        await read.collection(API_KEYS).deleteOne(event.data.keyHash);
        return;
    }
  },
};
