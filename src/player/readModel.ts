// Player-data reads: the content items an identifier names, and a cheap test that an answer's documents are unchanged.
import type { Filter, ReadStore } from '../infrastructure/readStore/port.ts';
import { CONTENT_ITEMS, type ContentItemView } from '../content/readModel.ts';
import { PROJECTS } from '../projects/readModel.ts';
import type { Identifier } from './query.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LEGACY_ID = /^\d{1,15}$/;

/**
 * The indexed query of the items an identifier may name; null when it names none. A content id is a
 * UUID or a legacy id; playlists do not exist yet, so a playlist id names nothing.
 */
function lookupFilter(projectId: number, { kind, value }: Identifier): Filter | null {
  switch (kind) {
    case 'content_id':
      if (UUID.test(value)) return { _id: value.toLowerCase(), projectId };
      return LEGACY_ID.test(value) ? { projectId, legacyId: Number(value) } : null;
    case 'source_id':
      return { projectId, sourceId: value };
    case 'source_url':
      return { projectId, sourceUrl: value };
    case 'playlist_id':
      return null;
  }
}

export interface Lookup {
  filter: Filter | null;
  /** Newest first: a source URL may name several items. */
  items: ContentItemView[];
}

export async function lookUp(read: ReadStore, projectId: number, identifier: Identifier): Promise<Lookup> {
  const filter = lookupFilter(projectId, identifier);
  if (!filter) return { filter, items: [] };
  const items = await read.collection<ContentItemView>(CONTENT_ITEMS).find(filter, { sort: { created: -1, legacyId: -1 } });
  return { filter, items };
}

/** The revisions an answer was made from: of the project (null when missing) and of every item each lookup found. */
export interface Basis {
  projectRevision: number | null;
  lookups: { filter: Filter | null; items: [id: string, revision: number][] }[];
}

/**
 * Whether the documents of a basis are unchanged, by counting rather than reading them (reading a
 * large item costs more than rendering it): the project and each item still have their revision,
 * and no lookup matches an item more or less.
 */
export async function basisUnchanged(read: ReadStore, projectId: number, basis: Basis): Promise<boolean> {
  const items = read.collection(CONTENT_ITEMS);
  const same = async (count: Promise<number>, expected: number) => (await count) === expected;
  const project = { _id: String(projectId), ...(basis.projectRevision === null ? {} : { revision: basis.projectRevision }) };
  const checks = [
    same(read.collection(PROJECTS).count(project), basis.projectRevision === null ? 0 : 1),
    ...basis.lookups.flatMap(({ filter, items: found }) => [
      ...(filter ? [same(items.count(filter), found.length)] : []),
      ...found.map(([_id, revision]) => same(items.count({ _id, revision }), 1)),
    ]),
  ];
  return (await Promise.all(checks)).every(Boolean);
}
