// Playlist use cases of the REST routes; answers are wire-shaped.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { findContent } from '../content/readModel.ts';
import { reachableProject } from '../http/auth.ts';
import { notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { createPlaylistHandlers } from './handlers.ts';
import { findPlaylist, listPlaylists, type PlaylistView } from './readModel.ts';
import { playlistToWire } from './wire.ts';

export type PlaylistActions = ReturnType<typeof playlistActions>;

/** A route's `{id}`: a positive integer, or nothing is found. */
const playlistIdOf = (ref: string) => (/^\d{1,12}$/.test(ref) ? Number(ref) : NaN);

export function playlistActions({ events, read, runner, now }: Services) {
  const playlists = createPlaylistHandlers(events, async (projectId, ref) => (await findContent(read, projectId, ref))?._id ?? null);

  const existing = async (projectId: number, ref: string): Promise<PlaylistView> => {
    const playlistId = playlistIdOf(ref);
    const playlist = Number.isSafeInteger(playlistId) ? await findPlaylist(read, projectId, playlistId) : null;
    if (!playlist) throw notFound();
    return playlist;
  };

  /** Answers from the read model once it has applied the command's events (read-your-writes). */
  const afterWrite = async (projectId: number, playlistId: number, position: number) => {
    await runner.waitFor(position);
    return playlistToWire(await existing(projectId, String(playlistId)));
  };

  return {
    async list(ctx: Context, projectRef: string | undefined, query: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectRef);
      const parsed = parseOrThrow(pageQuery, query, 'Invalid query parameters');
      return (await listPlaylists(read, project.id, parsed['pagination[offset]'], parsed['pagination[limit]'])).map(playlistToWire);
    },

    async create(ctx: Context, projectRef: string | undefined, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const { playlistId, position } = await playlists.create(project.id, body, now());
      return afterWrite(project.id, playlistId, position);
    },

    async get(ctx: Context, projectRef: string | undefined, ref: string) {
      const project = await reachableProject(ctx, read, projectRef);
      return playlistToWire(await existing(project.id, ref));
    },

    async update(ctx: Context, projectRef: string | undefined, ref: string, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const playlist = await existing(project.id, ref);
      return afterWrite(project.id, playlist.id, await playlists.update(project.id, playlist.id, body, now()));
    },

    async remove(ctx: Context, projectRef: string | undefined, ref: string) {
      const project = await reachableProject(ctx, read, projectRef);
      const playlist = await existing(project.id, ref);
      await runner.waitFor(await playlists.remove(project.id, playlist.id, now()));
    },
  };
}
