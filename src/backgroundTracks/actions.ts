// Background track use cases of the REST routes. Organization keys read and write every track of the organization;
// project keys read their project's tracks and the organization's, and write only their project's.
import path from 'node:path';
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import type { AudioFetchLimits } from '../media/fetchAudio.ts';
import { principalOf, type Principal } from '../http/auth.ts';
import { baseUrlOf } from '../http/public.ts';
import { organizationResourceAccess } from '../shared/crud/actions.ts';
import { forbidden, notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { backgroundTracksProjection } from '../../projections/backgroundTracks.ts';
import { backgroundTrackStream } from './events.ts';
import { createBackgroundTrackHandlers } from './handlers.ts';
import { findBackgroundTrack, listBackgroundTracks, visibleTo, type BackgroundTrackView } from './readModel.ts';
import { backgroundTrackToWire } from './wire.ts';
import { admitUpload } from '../media/admitUpload.ts';
import { discard } from '../http/upload.ts';
import { bodyOf, receiveUpload } from './upload.ts';

export type BackgroundTrackActions = ReturnType<typeof backgroundTrackActions>;

const mayWrite = (principal: Principal, track: BackgroundTrackView) => principal.scope === 'organization' || track.scope === principal.projectId;

/**
 * A project key creates in its own project: the body's project defaults to it, and naming another project (or
 * none, `null`) is refused. Bodies that are not objects are left to the schema.
 */
function scopedBody(principal: Principal, body: unknown): unknown {
  if (principal.scope === 'organization' || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const project = (body as { project?: { id?: unknown } | null }).project;
  if (project === undefined) return { ...body, project: { id: principal.projectId } };
  if (project?.id !== principal.projectId) throw forbidden();
  return body;
}

export function backgroundTrackActions({ events, read, runner, now, mediaDir, publicBaseUrl }: Services, limits: AudioFetchLimits) {
  const handlers = createBackgroundTrackHandlers(events, read, limits);

  const access = organizationResourceAccess({ events, read, runner }, findBackgroundTrack, (_, id) => ({ stream: backgroundTrackStream(id), projection: backgroundTracksProjection }));
  const afterWrite = async (organizationId: number, id: number, position: number) => backgroundTrackToWire(await access.afterWrite(organizationId, id, position));

  /** A track the caller cannot see is missing; one it sees but may not change is forbidden. */
  const visible = async (principal: Principal, ref: string) => {
    const found = await access.existing(principal.organizationId, ref);
    if (!visibleTo(principal, found)) throw notFound();
    return found;
  };
  const writable = async (principal: Principal, ref: string) => {
    const found = await visible(principal, ref);
    if (!mayWrite(principal, found)) throw forbidden();
    return found;
  };

  /**
   * The upload is kept under the media folder, which serves it at the track's `url`, once the media intake admitted it
   * (named by us, with its sniffed format's extension); a refused one is not kept.
   */
  async function createUploaded(ctx: Context, principal: Principal) {
    const upload = await receiveUpload(ctx, mediaDir, limits.maxBytes);
    let kept = upload.file;
    let created: { id: number; position: number };
    try {
      const { extension, duration } = await admitUpload(path.join(mediaDir, upload.file), limits);
      kept = `${upload.file}.${extension}`;
      const body = scopedBody(principal, bodyOf(upload, `${baseUrlOf(ctx, publicBaseUrl)}/media/${kept}`));
      created = await handlers.createUploaded(principal.organizationId, body, { file: kept, duration }, now());
    } catch (error) {
      await discard(mediaDir, { file: kept });
      throw error;
    }
    return afterWrite(principal.organizationId, created.id, created.position);
  }

  return {
    async list(ctx: Context, query: Record<string, unknown>) {
      const page = parseOrThrow(pageQuery, { 'pagination[limit]': query['pagination[limit]'], 'pagination[offset]': query['pagination[offset]'] }, 'Invalid query parameters');
      return (await listBackgroundTracks(read, principalOf(ctx), page['pagination[offset]'], page['pagination[limit]'])).map(backgroundTrackToWire);
    },
    async create(ctx: Context, body: unknown) {
      const principal = principalOf(ctx);
      if (ctx.request.is('multipart/form-data')) return createUploaded(ctx, principal);
      const { id, position } = await handlers.create(principal.organizationId, scopedBody(principal, body), now());
      return afterWrite(principal.organizationId, id, position);
    },
    async get(ctx: Context, ref: string) {
      return backgroundTrackToWire(await visible(principalOf(ctx), ref));
    },
    async update(ctx: Context, ref: string, body: unknown) {
      const principal = principalOf(ctx);
      const found = await writable(principal, ref);
      return afterWrite(principal.organizationId, found.id, await handlers.update(principal.organizationId, found.id, body, now()));
    },
    async remove(ctx: Context, ref: string) {
      const principal = principalOf(ctx);
      const found = await writable(principal, ref);
      await runner.waitFor(await handlers.remove!(principal.organizationId, found.id, now()));
      // Narrations already made carry the music in their own files: nothing else reads an upload.
      if (found.file) await discard(mediaDir, { file: found.file });
    },
  };
}
