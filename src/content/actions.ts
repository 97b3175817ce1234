// Content use cases shared by the REST routes and the GraphQL resolvers; answers are wire-shaped.
import path from 'node:path';
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { reachableProject } from '../http/auth.ts';
import { baseUrlOf } from '../http/public.ts';
import { notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { batchDeleteSchema } from './commands.ts';
import { findContent, listContent, type ContentItemView } from './readModel.ts';
import { contentToWire, detailQuery, parseListQuery, type Detail } from './wire.ts';
import { contentStream } from './events.ts';
import { contentItemsProjection } from '../../projections/contentItems.ts';
import { readAfterWrite } from '../../projections/inMemory.ts';
import { checkVideoTemplateReference } from '../videoTemplates/reference.ts';
import { backgroundTrackOf, checkBackgroundTrackReference } from '../backgroundTracks/reference.ts';
import { dropBody } from '../http/multipart.ts';
import { discard, receiveUpload } from '../http/upload.ts';
import { admitUpload } from '../media/admitUpload.ts';
import { formBody, uploadForm } from './upload.ts';

export type ContentActions = ReturnType<typeof contentActions>;

export function contentActions({ events, read, runner, content, now, publicBaseUrl, mediaDir, audioLimits }: Services) {
  const existing = async (projectId: number, ref: string): Promise<ContentItemView> => {
    const item = await findContent(read, projectId, ref);
    if (!item) throw notFound();
    return item;
  };

  /**
   * Answers from the read model once it has applied the command's events (read-your-writes). A write never waits
   * longer than the runner's bound for it: past that (or when the read model cannot show the item), the answer is
   * the item's own stream put through the same projection in memory, which is what the read model will show.
   */
  const afterWrite = async (ctx: Context, projectId: number, contentId: string, position: number, detail: Detail) => {
    const write = { position, stream: contentStream(contentId), projection: contentItemsProjection };
    const item = await readAfterWrite({ runner, events, read }, write, (store) => findContent(store, projectId, contentId));
    if (!item) throw notFound();
    return contentToWire(item, detail, baseUrl(ctx));
  };
  const baseUrl = (ctx: Context) => baseUrlOf(ctx, publicBaseUrl);
  /** An item's `video_settings.template` names a template of the project's organization, its `background_track.track` a track the project may use. */
  const checkReferences = async (project: { id: number; organizationId: number }, body: unknown) => {
    await checkVideoTemplateReference(read, project.organizationId, (body as { video_settings?: unknown } | null)?.video_settings, 'video_settings.template.id');
    await checkBackgroundTrackReference(read, project.organizationId, project.id, backgroundTrackOf(body));
  };

  return {
    async create(ctx: Context, projectRef: string | undefined, body: unknown, detail: Detail) {
      const project = await reachableProject(ctx, read, projectRef);
      await checkReferences(project, body);
      const { contentId, position } = await content.create(project.id, body, now());
      return afterWrite(ctx, project.id, contentId, position, detail);
    },

    /**
     * An `audio_upload` item from an uploaded recording: kept under the media folder once the media intake admitted it
     * (named by us, with its sniffed format's extension), served at the item's `audio_url`. A refused upload keeps no
     * file and creates no item.
     */
    async upload(ctx: Context, projectRef: string | undefined, query: Record<string, unknown>) {
      let project: Awaited<ReturnType<typeof reachableProject>>;
      let detail: Detail;
      try {
        project = await reachableProject(ctx, read, projectRef);
        detail = parseOrThrow(detailQuery, query, 'Invalid query parameters');
      } catch (error) {
        dropBody(ctx);
        throw error;
      }
      const upload = await receiveUpload(ctx, mediaDir, uploadForm(audioLimits.maxBytes));
      let kept = upload.file;
      let created: { contentId: string; position: number };
      try {
        const body = formBody(upload.fields);
        await checkReferences(project, body);
        const { extension } = await admitUpload(path.join(mediaDir, upload.file), audioLimits);
        kept = `${upload.file}.${extension}`;
        created = await content.createUploaded(project.id, body, { audioUrl: `${baseUrl(ctx)}/media/${kept}`, audioFile: kept }, now());
      } catch (error) {
        await discard(mediaDir, { file: kept });
        throw error;
      }
      // Created: the file is the item's from here on.
      return afterWrite(ctx, project.id, created.contentId, created.position, detail);
    },

    async list(ctx: Context, projectRef: string | undefined, query: Record<string, unknown>) {
      const project = await reachableProject(ctx, read, projectRef);
      const parsed = parseListQuery(query);
      return (await listContent(read, project.id, parsed)).map((item) => contentToWire(item, parsed.detail, baseUrl(ctx)));
    },

    async get(ctx: Context, projectRef: string | undefined, ref: string, detail: Detail) {
      const project = await reachableProject(ctx, read, projectRef);
      return contentToWire(await existing(project.id, ref), detail, baseUrl(ctx));
    },

    async update(ctx: Context, projectRef: string | undefined, ref: string, body: unknown, detail: Detail) {
      const project = await reachableProject(ctx, read, projectRef);
      const item = await existing(project.id, ref);
      await checkReferences(project, body);
      const position = await content.update(project.id, item._id, item.contentType, body, now());
      return afterWrite(ctx, project.id, item._id, position, detail);
    },

    /** Asks for a new generation of the item's media from its current text. */
    async regenerate(ctx: Context, projectRef: string | undefined, ref: string, detail: Detail) {
      const project = await reachableProject(ctx, read, projectRef);
      const item = await existing(project.id, ref);
      return afterWrite(ctx, project.id, item._id, await content.regenerate(project.id, item._id, now()), detail);
    },

    async remove(ctx: Context, projectRef: string | undefined, ref: string) {
      const project = await reachableProject(ctx, read, projectRef);
      const item = await existing(project.id, ref);
      await runner.waitFor(await content.remove(project.id, item._id, now()));
    },

    /** Ids that match nothing are skipped, so a retried batch answers the same. */
    async removeMany(ctx: Context, projectRef: string | undefined, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const { ids } = parseOrThrow(batchDeleteSchema, body);
      let position = 0;
      for (const ref of new Set(ids.map(String))) {
        const item = await findContent(read, project.id, ref);
        if (item) position = Math.max(position, await content.remove(project.id, item._id, now()));
      }
      await runner.waitFor(position);
    },
  };
}
