// Each project's item count and newest update, changed by the contentItems projection with every item it changes.
import { CONTENT_ITEMS, CONTENT_STATS, contentIndexes, type ContentItemView, type ContentStatsView } from '../src/content/readModel.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';

/** The newest update among the project's items other than `except`: one step down the project's `updated` index. */
async function newestUpdateExcept(read: ReadStore, projectId: number, except: string): Promise<string | null> {
  const [newest] = await read.collection<ContentItemView>(CONTENT_ITEMS).find({ projectId, _id: { $ne: except } }, { sort: { updated: -1 }, limit: 1 });
  return newest?.updated ?? null;
}

const later = (a: string | null, b: string | null) => (a === null ? b : b === null || a >= b ? a : b);

/**
 * Records that the event at `position` turns one item from `before` into `after` (null: absent). It runs before
 * the item's own write: a replay after a crash between the two finds the statistics at this position and leaves
 * them alone, then writes the item; the item written first would instead stop the replay before the statistics.
 */
export async function recordChange(read: ReadStore, position: number, before: ContentItemView | null, after: ContentItemView | null): Promise<void> {
  const item = (after ?? before)!;
  const stats = read.collection<ContentStatsView>(CONTENT_STATS);
  const current = (await stats.findOne({ _id: String(item.projectId) })) ?? { _id: String(item.projectId), projectId: item.projectId, total: 0, lastUpdated: null, position: 0 };
  if (current.position >= position) return;
  const total = current.total + (after ? 1 : 0) - (before ? 1 : 0);
  let lastUpdated = later(current.lastUpdated, after?.updated ?? null);
  // The newest item moved back in time or left: the next newest is found through the index, excluding this item.
  if (before && before.updated === current.lastUpdated && (after === null || after.updated < before.updated)) {
    lastUpdated = later(await newestUpdateExcept(read, item.projectId, item._id), after?.updated ?? null);
  }
  await stats.put({ ...current, total, lastUpdated, position });
}

/** A project's statistics as one thread of a split replay counts them (`SplitReplay`): its items only. */
interface Counted {
  /** Items added less items deleted. */
  total: number;
  /** The newest update written. */
  lastUpdated: string | null;
  /** The last event that changed an item. */
  position: number;
  /** An item left or went back in time: the newest update is looked up once every item is written. */
  fellBack: boolean;
}
export type StatsTally = Map<number, Counted>;

/** `recordChange` for a thread of a split replay: counted in `tally`, written by `mergeStats`. */
export function countChange(tally: StatsTally, position: number, before: ContentItemView | null, after: ContentItemView | null): void {
  const { projectId } = (after ?? before)!;
  let counted = tally.get(projectId);
  if (!counted) tally.set(projectId, (counted = { total: 0, lastUpdated: null, position: 0, fellBack: false }));
  counted.total += (after ? 1 : 0) - (before ? 1 : 0);
  counted.lastUpdated = later(counted.lastUpdated, after?.updated ?? null);
  counted.position = Math.max(counted.position, position);
  if (before && (after === null || after.updated < before.updated)) counted.fellBack = true;
}

/** The index that finds a project's newest update in one step (`newestUpdateExcept`). */
const NEWEST_UPDATE = contentIndexes.find(({ name }) => name === 'project_updated_created_legacy_id')!;

/**
 * Each project's statistics from every thread's tally, as `recordChange` would have left them on the same events:
 * the items added less those deleted, the newest update (written, or where one fell back, the newest item's), and
 * the last event that changed an item.
 */
export async function mergeStats(read: ReadStore, tallies: StatsTally[]): Promise<void> {
  const projects: StatsTally = new Map();
  for (const tally of tallies) {
    for (const [projectId, { total, lastUpdated, position, fellBack }] of tally) {
      const counted = projects.get(projectId);
      if (!counted) projects.set(projectId, { total, lastUpdated, position, fellBack });
      else Object.assign(counted, { total: counted.total + total, lastUpdated: later(counted.lastUpdated, lastUpdated), position: Math.max(counted.position, position), fellBack: counted.fellBack || fellBack });
    }
  }
  const items = read.collection<ContentItemView>(CONTENT_ITEMS);
  if ([...projects.values()].some(({ fellBack }) => fellBack)) await items.ensureIndex(NEWEST_UPDATE);
  const stats = read.collection<ContentStatsView>(CONTENT_STATS);
  for (const [projectId, { total, lastUpdated, position, fellBack }] of projects) {
    const newest = fellBack ? ((await items.find({ projectId }, { sort: { updated: -1 }, limit: 1 }))[0]?.updated ?? null) : lastUpdated;
    await stats.put({ _id: String(projectId), projectId, total, lastUpdated: newest, position });
  }
}
