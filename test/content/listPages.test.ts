// Pages past the middle of a list are read from its other end: the same items in the same order as walking from the front.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_ITEMS, CONTENT_STATS, contentIndexes, listContent, type ContentItemView } from '../../src/content/readModel.ts';
import { parseListQuery } from '../../src/content/wire.ts';
import { createMemoryReadStore } from '../../src/infrastructure/readStore/memory.ts';
import { createSqliteReadStore } from '../../src/infrastructure/readStore/sqlite.ts';
import { inTransaction, type ReadStore } from '../../src/infrastructure/readStore/port.ts';
import { searchedFields } from '../../src/composition.ts';

const ITEMS = 2_100;
const STATUSES = ['queued', 'processed', 'error'] as const;
const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1) + minutes * 60_000).toISOString();

/** Many ties in status, published and duration, and creation times that do not follow legacy ids everywhere. */
const item = (i: number) =>
  ({
    _id: `item-${i}`,
    projectId: 1,
    legacyId: i + 1,
    status: STATUSES[i % 3],
    published: i % 4 === 0,
    duration: i % 5 === 0 ? null : (i % 7) * 10,
    publishDate: i % 6 === 0 ? null : at(ITEMS - i),
    created: at(Math.floor(i / 2)),
    updated: at(i),
    title: `Item ${i}`,
  }) as unknown as ContentItemView;

async function filled(store: ReadStore) {
  for (const index of contentIndexes) await store.collection(CONTENT_ITEMS).ensureIndex(index);
  await inTransaction(store, async (tx) => {
    for (let i = 0; i < ITEMS; i++) await tx.collection(CONTENT_ITEMS).put(item(i));
    // Another project's items are never counted in project 1's pages.
    for (let i = 0; i < 50; i++) await tx.collection(CONTENT_ITEMS).put({ ...item(i), _id: `other-${i}`, projectId: 2 });
    await tx.collection(CONTENT_STATS).put({ _id: '1', projectId: 1, total: ITEMS, lastUpdated: at(ITEMS - 1), position: ITEMS });
  });
  return store;
}

const dir = mkdtempSync(path.join(tmpdir(), 'list-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['memory', async () => createMemoryReadStore()],
  ['sqlite', async () => createSqliteReadStore(path.join(dir, 'read.sqlite'), { searchedFields })],
])('far pages on %s', (_name, open) => {
  it('answer every order and direction as a walk from the front does', async () => {
    const store = await filled(await open());
    for (const by of ['created', 'publish_date', 'duration', 'published', 'status']) {
      for (const dir of ['asc', 'desc']) {
        for (const [offset, limit] of [[1_049, 7], [1_051, 10], [2_000, 100], [2_095, 10], [2_099, 1], [2_100, 10], [5_000, 10]] as const) {
          const query = parseListQuery({ 'order[by]': by, 'order[dir]': dir, 'pagination[offset]': String(offset), 'pagination[limit]': String(limit) });
          const walked = await store.collection<ContentItemView>(CONTENT_ITEMS).find({ projectId: 1 }, { sort: query.sort, skip: offset, limit });
          const page = await listContent(store, 1, query);
          expect(page.map((found) => found._id), `${by} ${dir} at ${offset}`).toEqual(walked.map((found) => found._id));
          expect(page.length).toBe(Math.max(0, Math.min(limit, ITEMS - offset)));
        }
      }
    }
    await store.close();
  }, 60_000);
});
