// Each project's item count and newest update, changed by the contentItems projection with every item it changes.
import { CONTENT_ITEMS, CONTENT_STATS, type ContentItemView, type ContentStatsView } from '../src/content/readModel.ts';
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
