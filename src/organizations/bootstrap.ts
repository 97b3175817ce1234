// First start on an empty store: a default organization, project and organization key, printed once.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { createProjectHandlers } from '../projects/handlers.ts';
import { createOrganizationHandlers } from './handlers.ts';

export interface Bootstrapped {
  organizationId: number;
  projectId: number;
  apiKey: string;
  position: number;
}

/** Returns what it created, or null when the store already holds an organization. */
export async function bootstrapIfEmpty(store: EventStore, fixedKey: string | undefined, now: Date): Promise<Bootstrapped | null> {
  if ((await store.streamRevision('sequence-organization')) >= 0) return null;
  const organizations = createOrganizationHandlers(store);
  const { organizationId } = await organizations.create('Default organization', now);
  const { projectId } = await createProjectHandlers(store).create(organizationId, { name: 'Default project' }, now);
  const issued = await organizations.issueKey(organizationId, 'organization', null, 'bootstrap', now, fixedKey);
  return { organizationId, projectId, apiKey: issued.key, position: issued.position };
}
