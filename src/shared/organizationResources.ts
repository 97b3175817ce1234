// Read-model queries shared by the resources an organization owns under integer ids (speakers, video settings
// templates, background tracks, custom voices, pronunciation rules).
import type { Filter, FindOptions, IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';

export type OrganizationResourceView = { _id: string; revision: number; id: number; organizationId: number };

export const organizationResourceIndexes: IndexSpec[] = [{ name: 'organization_id', keys: { organizationId: 1, id: 1 } }];

export function organizationResource<T extends OrganizationResourceView>(collection: string) {
  const documents = (read: ReadStore) => read.collection<T>(collection);
  return {
    /** By id, and only within its organization: another organization's resource is as good as missing. */
    async find(read: ReadStore, organizationId: number, id: number): Promise<T | null> {
      const found = await documents(read).findOne({ _id: String(id) });
      return found?.organizationId === organizationId ? found : null;
    },
    /** Oldest first; `filter` narrows the organization's documents (a track's scope, a rule's language). */
    list: (read: ReadStore, organizationId: number, page: Pick<FindOptions, 'skip' | 'limit'> = {}, filter: Filter = {}) =>
      documents(read).find({ organizationId, ...filter }, { sort: { id: 1 }, ...page }),
  };
}

/** The document of an organization-owned resource: its fields plus identity, stream revision and times. */
export type OrganizationResourceDocument<Fields> = Fields & OrganizationResourceView & { created: string; updated: string };
