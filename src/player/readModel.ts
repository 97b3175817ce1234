// Player-data reads: the content items an identifier names, and a cheap test that an answer's documents are unchanged.
import type { Filter, ReadStore } from '../infrastructure/readStore/port.ts';
import { CONTENT_ITEMS, type ContentItemView } from '../content/readModel.ts';
import { PROJECTS } from '../projects/readModel.ts';
import { PLAYLISTS, findPlaylist, firstPlaylist, inPlaylistOrder, playlistContentQuery, type PlaylistView } from '../playlists/readModel.ts';
import type { Identifier } from './query.ts';
import { adsUnchanged, type AdsBasis } from '../ads/player.ts';
import { accessTierUnchanged, type AccessTierBasis } from '../accessTiers/player.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LEGACY_ID = /^\d{1,15}$/;

/**
 * The indexed query of the items an identifier may name; null when it names none. A content id is a
 * UUID or a legacy id; playlists are looked up by `lookUpPlaylist`.
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
    case 'first_playlist':
      return null;
  }
}

/** A count that stays the same while the playlist a lookup named (or did not find) is unchanged. */
export interface PlaylistCheck {
  filter: Filter;
  count: number;
}

export interface Lookup {
  filter: Filter | null;
  /** Newest first: a source URL may name several items. A playlist's items come in its order. */
  items: ContentItemView[];
  /** How many of the visible items the answer takes: one, or a playlist's content limit. */
  take: number;
  playlist: PlaylistView | null;
  playlistCheck: PlaylistCheck | null;
}

export async function lookUp(read: ReadStore, projectId: number, identifier: Identifier): Promise<Lookup> {
  if (identifier.kind === 'playlist_id' || identifier.kind === 'first_playlist') return lookUpPlaylist(read, projectId, identifier);
  const filter = lookupFilter(projectId, identifier);
  if (!filter) return { filter, items: [], take: 1, playlist: null, playlistCheck: null };
  const items = await read.collection<ContentItemView>(CONTENT_ITEMS).find(filter, { sort: { created: -1, legacyId: -1 } });
  return { filter, items, take: 1, playlist: null, playlistCheck: null };
}

async function lookUpPlaylist(read: ReadStore, projectId: number, { kind, value }: Identifier): Promise<Lookup> {
  const playlist =
    kind === 'first_playlist' ? await firstPlaylist(read, projectId) : LEGACY_ID.test(value) ? await findPlaylist(read, projectId, Number(value)) : null;
  if (!playlist) {
    const filter = kind === 'first_playlist' ? { projectId } : { _id: value, projectId };
    return { filter: null, items: [], take: 1, playlist: null, playlistCheck: { filter, count: 0 } };
  }
  const { filter, sort } = playlistContentQuery(playlist);
  const items = inPlaylistOrder(playlist, await read.collection<ContentItemView>(CONTENT_ITEMS).find(filter, { sort }));
  const playlistCheck = { filter: { _id: playlist._id, revision: playlist.revision }, count: 1 };
  return { filter, items, take: playlist.contentLimit, playlist, playlistCheck };
}

/** The revisions an answer was made from: of the project (null when missing) and of every item each lookup found. */
export interface Basis {
  projectRevision: number | null;
  lookups: { filter: Filter | null; items: [id: string, revision: number][]; playlistCheck: PlaylistCheck | null }[];
  /** The project's enabled ads (null when the project is missing) and the access tier the request named. */
  ads: AdsBasis | null;
  accessTier: AccessTierBasis | null;
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
    ...basis.lookups.flatMap(({ filter, items: found, playlistCheck }) => [
      ...(playlistCheck ? [same(read.collection(PLAYLISTS).count(playlistCheck.filter), playlistCheck.count)] : []),
      ...(filter ? [same(items.count(filter), found.length)] : []),
      ...found.map(([_id, revision]) => same(items.count({ _id, revision }), 1)),
    ]),
    ...adsUnchanged(read, projectId, basis.ads),
    ...accessTierUnchanged(read, projectId, basis.accessTier),
  ];
  return (await Promise.all(checks)).every(Boolean);
}
