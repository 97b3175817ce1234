// Read-model queries shared by the resources a project owns under integer ids (webhooks, playlists, ads, tiers).
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';

export type ProjectResourceView = { _id: string; id: number; projectId: number };

export const projectResourceIndexes: IndexSpec[] = [{ name: 'project_id', keys: { projectId: 1, id: 1 } }];

export function projectResource<T extends ProjectResourceView>(collection: string) {
  return {
    /** By id, and only within its project: another project's resource is as good as missing. */
    async find(read: ReadStore, projectId: number, id: number): Promise<T | null> {
      const found = await read.collection<T>(collection).findOne({ _id: String(id) });
      return found?.projectId === projectId ? found : null;
    },
    list: (read: ReadStore, projectId: number, offset: number, limit: number) =>
      read.collection<T>(collection).find({ projectId }, { sort: { id: 1 }, skip: offset, limit }),
  };
}

/** The document of a project-owned resource: its fields plus identity, stream revision and times. */
export type ProjectResourceDocument<Fields> = Fields & {
  _id: string;
  revision: number;
  id: number;
  projectId: number;
  created: string;
  updated: string;
};
