// Fetches from outside (images, videos, audio) within bounds, and each URL fetched once per item and generation.
//
// A process runs at most `perProcess` fetches at once, shared by every item, and one item at most `perItem` of them,
// so one item with hundreds of images neither floods its hosts nor starves the other items (each fetch includes its
// admission by the media intake, where ffprobe may run). A fetched file is kept in the item's fetch folder under a
// name made from its URL, so a retried render finds it there instead of downloading it again.
import { createHash } from 'node:crypto';
import { access, mkdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { createLimit, type Limit } from './limit.ts';

/** Fetches at once for one item: enough to overlap a few slow hosts, few enough to leave room for other items. */
export const FETCHES_PER_ITEM = 4;
/** Fetches at once in a process (MEDIA_FETCH_CONCURRENCY): two items at their full bound. */
export const DEFAULT_MEDIA_FETCH_CONCURRENCY = 8;

export interface FetchLimits {
  /** A bound for one item (or one preview): at most FETCHES_PER_ITEM of its fetches at once, within the process's bound. */
  forItem(): Limit;
}

export function createFetchLimits(perProcess: number, perItem = FETCHES_PER_ITEM): FetchLimits {
  const process = createLimit(perProcess);
  return {
    forItem() {
      const item = createLimit(Math.min(perItem, perProcess));
      return (task) => item(() => process(task));
    },
  };
}

/** Files fetched for one item, one per URL: the same URL asked for twice (at once, or in a retried try) is fetched once. */
export interface FetchedFiles {
  /** The file fetched from `url`; `fetch(file)` writes it (whole or not at all) when it is not there yet. */
  once(url: string, fetch: (file: string) => Promise<void>): Promise<string>;
}

export function fetchedFiles(dir: string): FetchedFiles {
  const inFlight = new Map<string, Promise<string>>();
  const fileOf = (url: string) => path.join(dir, createHash('sha256').update(url).digest('hex').slice(0, 32));
  return {
    once(url, fetch) {
      const known = inFlight.get(url);
      if (known) return known;
      const file = fileOf(url);
      const fetching = (async () => {
        const there = await access(file).then(
          () => true,
          () => false,
        );
        if (!there) {
          await mkdir(dir, { recursive: true });
          await fetch(file);
        }
        return file;
      })();
      // A failed fetch may be tried again by a later call.
      fetching.catch(() => inFlight.delete(url));
      inFlight.set(url, fetching);
      return fetching;
    },
  };
}

/**
 * A generation's fetch folder under `root` (DATA_DIR/fetched): `<content id>/<generation>/`, or `part` inside it; and
 * its removal, with the parents left empty, once its media are made or refused for good.
 */
export function generationFetches(root: string, contentId: string, generation: number, part?: string): { dir: string; forget(): Promise<void> } {
  const dir = path.join(root, contentId, String(generation), ...(part ? [part] : []));
  return { dir, forget: () => forgetFetched(dir, root) };
}

/** Removes an item's fetch folder `dir`, and its parents below `root` once they are empty (another try may use them). */
async function forgetFetched(dir: string, root: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  for (let parent = path.dirname(dir); parent.startsWith(root + path.sep); parent = path.dirname(parent)) {
    const removed = await rmdir(parent).then(
      () => true,
      () => false,
    );
    if (!removed) return;
  }
}
