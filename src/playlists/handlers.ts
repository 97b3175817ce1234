// Playlist commands: resolve the content ids named, allocate an id, decide, append (through the project resource kit).
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { projectResourceHandlers } from '../shared/crud/handlers.ts';
import { invalid, type FieldError } from '../shared/errors.ts';
import { playlistSchemas } from './commands.ts';
import { playlistDecider } from './decider.ts';
import { playlistStream, type PlaylistFields } from './events.ts';

/** The UUID of the project's item a client's id names (UUID, source id or legacy id), or null. */
export type ContentResolver = (projectId: number, ref: string) => Promise<string | null>;

export function createPlaylistHandlers(store: EventStore, resolve: ContentResolver) {
  /** Every unknown id is reported at once, at `content_ids.N`; an item named twice plays once. */
  const resolved = async (projectId: number, refs: string[]): Promise<string[]> => {
    const ids = await Promise.all(refs.map((ref) => resolve(projectId, ref)));
    const errors: FieldError[] = ids.flatMap((id, index) => (id ? [] : [{ location: `content_ids.${index}`, message: 'names no content item of this project' }]));
    if (errors.length > 0) throw invalid(errors);
    return [...new Set(ids as string[])];
  };

  return projectResourceHandlers(store, {
    sequence: 'playlist',
    stream: playlistStream,
    decider: playlistDecider,
    schemas: playlistSchemas,
    commands: {
      create: (playlistId, projectId, fields: PlaylistFields, now) => ({ kind: 'CreatePlaylist', playlistId, projectId, fields, now } as const),
      update: (projectId, changes, now) => ({ kind: 'UpdatePlaylist', projectId, changes, now } as const),
      remove: (projectId, now) => ({ kind: 'DeletePlaylist', projectId, now } as const),
    },
    prepare: async (projectId, fields) => (fields.contentIds ? { contentIds: await resolved(projectId, fields.contentIds) } : {}),
  });
}
