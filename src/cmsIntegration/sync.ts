// Brings a project's items in line with its CMS posts, through the content commands the REST API uses; one item per post (source id).
import type { Services } from '../services.ts';
import { AppError } from '../shared/errors.ts';
import { foldStream } from '../shared/decider.ts';
import { CONTENT_ITEMS, type ContentItemView, type ContentStatus } from '../content/readModel.ts';
import { contentStream } from '../content/events.ts';
import { contentDecider, sourceIdDecider } from '../content/decider.ts';
import { sourceIdStream } from '../content/handlers.ts';
import { contentItemsProjection } from '../../projections/contentItems.ts';
import { readAfterWrite } from '../../projections/inMemory.ts';
import type { PostChange, PostFields } from './posts.ts';
import type { CmsSettings } from './settings.ts';

/** What the posts webhook answers: the item it touched (`deleted` once removed), or nulls when no item is concerned. */
export interface Touched {
  id: string | null;
  status: ContentStatus | 'deleted' | null;
}

type Sync = Pick<Services, 'events' | 'read' | 'runner' | 'content' | 'now'>;

/** The item holding a source id, by that field alone (a numeric post id is never a legacy id here). */
const bySourceId = (read: Sync['read'], projectId: number, sourceId: string) =>
  read.collection<ContentItemView>(CONTENT_ITEMS).findOne({ projectId, sourceId });

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The view's value of each wire field a post may set. */
const current = (item: ContentItemView): Record<keyof PostFields | 'published', unknown> => ({
  title: item.title,
  body: item.body,
  source_url: item.sourceUrl,
  author: item.author,
  image_url: item.imageUrl,
  publish_date: item.publishDate,
  tags: item.tags,
  published: item.published,
});

/** Only what differs: a retried delivery changes nothing, and an unchanged text is not narrated again. */
function changesOf(item: ContentItemView, wanted: Partial<Record<keyof PostFields | 'published', unknown>>) {
  const now = current(item);
  return Object.fromEntries(Object.entries(wanted).filter(([key, value]) => !same(now[key as keyof typeof now], value)));
}

const isSourceIdTaken = (error: unknown) =>
  error instanceof AppError && error.kind === 'Invalid' && error.errors.some((entry) => entry.location === 'source_id');

/** One delivery at a time per post in this process; across processes the source-id claim settles who creates. */
function keyedQueue() {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const before = tails.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

export function postSync({ events, read, runner, content, now }: Sync) {
  const queue = keyedQueue();
  /**
   * Per post, the position of this process's last write the read model may not show yet: the next delivery of the
   * post waits for it before reading the item, so it never decides from an item older than the last delivery left it.
   */
  const written = new Map<string, number>();
  const keyOf = (projectId: number, sourceId: string) => `${projectId}\n${sourceId}`;
  const wrote = (projectId: number, sourceId: string, position: number) => {
    if (written.size >= 1_000) for (const [key, at] of written) if (at <= runner.position) written.delete(key);
    if (position > runner.position) written.set(keyOf(projectId, sourceId), position);
  };

  /** The item's status as its own stream decides it, without waiting for the read model (read-your-writes). */
  const decided = async (contentId: string): Promise<Touched> => {
    const state = foldStream(contentDecider, await events.readStream(contentStream(contentId)));
    return { id: contentId, status: state.status === 'deleted' ? 'deleted' : state.generationStatus };
  };

  /** The item as the read model shows it once it has applied `position` (bounded; else its own stream, projected). */
  const afterWrite = async (projectId: number, contentId: string, position: number) => {
    const write = { position, stream: contentStream(contentId), projection: contentItemsProjection };
    return readAfterWrite({ runner, events, read }, write, (store) =>
      store.collection<ContentItemView>(CONTENT_ITEMS).findOne({ _id: contentId, projectId }),
    );
  };

  /**
   * The item holding the source id, also when the read model has not shown it yet: its claim names it. A create
   * leaves the claim out (`claims: false`): it takes the claim itself, and a claim already taken sends it here again.
   */
  const holder = async (projectId: number, sourceId: string, claims = true): Promise<ContentItemView | null> => {
    const pending = written.get(keyOf(projectId, sourceId));
    if (pending !== undefined) {
      await runner.waitFor(pending);
      written.delete(keyOf(projectId, sourceId));
    }
    const found = await bySourceId(read, projectId, sourceId);
    if (found || !claims) return found;
    const { ownerId } = foldStream(sourceIdDecider, await events.readStream(sourceIdStream(projectId, sourceId)));
    if (!ownerId) return null;
    const stream = await events.readStream(contentStream(ownerId));
    const last = stream.at(-1);
    return last ? afterWrite(projectId, ownerId, last.position) : null;
  };

  const touched = (item: ContentItemView | null): Touched => ({ id: item?._id ?? null, status: item?.status ?? null });

  const update = async (projectId: number, sourceId: string, item: ContentItemView, wanted: Record<string, unknown>): Promise<Touched> => {
    const changes = changesOf(item, wanted);
    if (Object.keys(changes).length === 0) return touched(item);
    wrote(projectId, sourceId, await content.update(projectId, item._id, item.contentType, changes, now()));
    return decided(item._id);
  };

  const upsert = async (projectId: number, sourceId: string, wanted: Record<string, unknown>): Promise<Touched> => {
    const existing = await holder(projectId, sourceId, false);
    if (existing) return update(projectId, sourceId, existing, wanted);
    try {
      const { contentId, position } = await content.create(projectId, { ...wanted, source_id: sourceId }, now());
      wrote(projectId, sourceId, position);
      // A new item is queued for its first narration: nothing to read back.
      return { id: contentId, status: 'queued' };
    } catch (error) {
      // Another process created it at the same moment: this delivery is an update of that item.
      const raced = isSourceIdTaken(error) ? await holder(projectId, sourceId) : null;
      if (!raced) throw error;
      return update(projectId, sourceId, raced, wanted);
    }
  };

  const apply = async (projectId: number, change: PostChange, settings: CmsSettings): Promise<Touched> => {
    switch (change.kind) {
      case 'publish':
        return upsert(projectId, change.sourceId, { ...change.fields, published: settings.publish });
      case 'schedule':
        // Made ahead of time, kept from players until the post goes live (its publish delivery).
        return upsert(projectId, change.sourceId, { ...change.fields, published: false });
      case 'unpublish': {
        const item = await holder(projectId, change.sourceId);
        return item ? update(projectId, change.sourceId, item, { published: false }) : touched(null);
      }
      case 'delete': {
        const item = await holder(projectId, change.sourceId);
        if (!item) return touched(null);
        wrote(projectId, change.sourceId, await content.remove(projectId, item._id, now()));
        return { id: item._id, status: 'deleted' };
      }
      case 'ignore':
        return touched(await holder(projectId, change.sourceId));
    }
  };

  return {
    /** Applies one delivery; deliveries of the same post are applied one after the other. */
    apply: (projectId: number, change: PostChange, settings: CmsSettings) =>
      queue(keyOf(projectId, change.sourceId), () => apply(projectId, change, settings)),

    /** Creates the item of a page a client asked to import, unless one holds the source id; answers the item. */
    importPage: (projectId: number, sourceId: string, sourceUrl: string) =>
      queue(keyOf(projectId, sourceId), async () => {
        const existing = await holder(projectId, sourceId);
        if (existing) return touched(existing);
        return upsert(projectId, sourceId, { source_url: sourceUrl });
      }),
  };
}

export type PostSync = ReturnType<typeof postSync>;
