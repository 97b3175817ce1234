// Playlist commands: resolve the content ids named, allocate an id, decide, append.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { camelKeys } from '../shared/caseMapping.ts';
import { allocateId, handleCommand } from '../shared/decider.ts';
import { invalid, type FieldError } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { playlistSchemas } from './commands.ts';
import { playlistDecider } from './decider.ts';
import { playlistStream, type PlaylistFields } from './events.ts';

/** The UUID of the project's item a client's id names (UUID, source id or legacy id), or null. */
export type ContentResolver = (projectId: number, ref: string) => Promise<string | null>;

export interface PlaylistHandlers {
  create(projectId: number, body: unknown, now: Date): Promise<{ playlistId: number; position: number }>;
  update(projectId: number, playlistId: number, body: unknown, now: Date): Promise<number>;
  remove(projectId: number, playlistId: number, now: Date): Promise<number>;
}

export function createPlaylistHandlers(store: EventStore, resolve: ContentResolver): PlaylistHandlers {
  /** Every unknown id is reported at once, at `content_ids.N`; an item named twice plays once. */
  const resolved = async (projectId: number, refs: string[]): Promise<string[]> => {
    const ids = await Promise.all(refs.map((ref) => resolve(projectId, ref)));
    const errors: FieldError[] = ids.flatMap((id, index) => (id ? [] : [{ location: `content_ids.${index}`, message: 'names no content item of this project' }]));
    if (errors.length > 0) throw invalid(errors);
    return [...new Set(ids as string[])];
  };

  return {
    async create(projectId, body, now) {
      const fields = camelKeys<PlaylistFields>(parseOrThrow(playlistSchemas.create, body));
      fields.contentIds = await resolved(projectId, fields.contentIds);
      const playlistId = await allocateId(store, 'playlist');
      const command = { kind: 'CreatePlaylist', playlistId, projectId, fields, now: now.toISOString() } as const;
      const { position } = await handleCommand(store, playlistStream(playlistId), playlistDecider, command);
      return { playlistId, position };
    },

    async update(projectId, playlistId, body, now) {
      const changes = camelKeys<Partial<PlaylistFields>>(parseOrThrow(playlistSchemas.update, body));
      if (changes.contentIds) changes.contentIds = await resolved(projectId, changes.contentIds);
      const command = { kind: 'UpdatePlaylist', projectId, changes, now: now.toISOString() } as const;
      return (await handleCommand(store, playlistStream(playlistId), playlistDecider, command)).position;
    },

    async remove(projectId, playlistId, now) {
      const command = { kind: 'DeletePlaylist', projectId, now: now.toISOString() } as const;
      return (await handleCommand(store, playlistStream(playlistId), playlistDecider, command)).position;
    },
  };
}
