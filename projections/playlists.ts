// Playlists as a read model, guarded by stream revision so replays are idempotent.
import type { PlaylistEvent } from '../src/playlists/events.ts';
import { PLAYLIST_STREAM_PREFIX } from '../src/playlists/events.ts';
import { PLAYLISTS, playlistIndexes, type PlaylistView } from '../src/playlists/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

export const playlistsProjection: Projection = {
  name: 'playlists',
  streamPrefix: PLAYLIST_STREAM_PREFIX,
  collections: { [PLAYLISTS]: playlistIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const playlists = read.collection<PlaylistView>(PLAYLISTS);
    const event = recorded as unknown as PlaylistEvent;
    const _id = recorded.stream.slice(PLAYLIST_STREAM_PREFIX.length);
    if (event.type === 'PlaylistCreated') {
      const { playlistId, projectId, fields, created } = event.data;
      if (await playlists.findOne({ _id })) return;
      await playlists.put({ ...fields, _id, revision: recorded.revision, id: playlistId, projectId, created, updated: created });
      return;
    }
    const playlist = await playlists.findOne({ _id });
    if (!playlist || recorded.revision <= playlist.revision) return;
    switch (event.type) {
      case 'PlaylistUpdated':
        await playlists.put({ ...playlist, ...event.data.changes, revision: recorded.revision, updated: event.data.updated });
        return;
      case 'PlaylistDeleted':
        await playlists.deleteOne(_id);
        return;
    }
  },
};
