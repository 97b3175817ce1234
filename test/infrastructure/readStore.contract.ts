// The read store contract: what every ReadStore adapter must do alike, written once and run per adapter.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateKeyError, type Document, type ReadStore } from '../../src/infrastructure/readStore/port.ts';
import { serviceQueryPlans } from './readStoreIndexes.contract.ts';
import { phraseSearchContract } from './readStoreSearch.contract.ts';
import { bulkContract, type BulkAbilities } from './readStoreBulk.contract.ts';
import { insertContract } from './readStoreInsert.contract.ts';

interface Item extends Document {
  projectId: number;
  title: string;
  created: string;
  published?: boolean;
  author?: string | null;
  duration?: number | null;
  sourceId?: string;
  meta?: { source: { kind: string }; words: number };
  tags?: string[];
}

const items: Item[] = [
  {
    _id: 'a1',
    projectId: 1,
    title: 'Budget vote: what (really) changed?',
    created: '2024-03-01T09:00:00.000Z',
    published: true,
    author: 'Ana',
    duration: 95.5,
    meta: { source: { kind: 'rss' }, words: 812 },
    tags: ['politics', 'economy'],
  },
  {
    _id: 'a2',
    projectId: 1,
    title: 'C++ for beginners',
    created: '2024-03-02T10:30:00.000Z',
    published: false,
    author: null,
    duration: null,
    meta: { source: { kind: 'api' }, words: 1540 },
    tags: ['tech'],
  },
  {
    _id: 'a3',
    projectId: 1,
    title: 'Élections : le guide',
    created: '2024-03-02T18:45:00.000Z',
    published: true,
    duration: 7,
    meta: { source: { kind: 'rss' }, words: 95 },
    tags: [],
  },
  {
    _id: 'a4',
    projectId: 2,
    title: 'budget airlines, ranked',
    created: '2024-02-29T23:59:59.999Z',
    published: true,
    author: 'Bo',
    duration: 120,
    meta: { source: { kind: 'api' }, words: 1540 },
    tags: ['travel', 'economy'],
  },
  {
    _id: 'a5',
    projectId: 2,
    title: 'Zoo reopens',
    created: '2024-03-05T07:15:00.000Z',
    author: 'ana',
    meta: { source: { kind: 'manual' }, words: 300 },
  },
];

const idsOf = (documents: Document[]) => documents.map((document) => document._id);
/** How callers turn user input into a literal `$regex`. */
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Case = [filter: Record<string, unknown>, ids: string[]];
const search = (text: string, options = 'i') => ({ title: { $regex: escapeRegex(text), $options: options } });

/** Filters and the ids (sorted) they select among `items`, by what they show. */
const filterCases: Record<string, Case[]> = {
  'equality on several fields': [
    [{ projectId: 1, published: true }, ['a1', 'a3']],
    [{ projectId: 2, author: 'Bo' }, ['a4']],
  ],
  $in: [
    [{ author: { $in: ['Ana', 'Bo'] } }, ['a1', 'a4']],
    [{ _id: { $in: ['a5', 'a2', 'zz'] } }, ['a2', 'a5']],
  ],
  '$gte and $lte on ISO date strings': [
    [{ created: { $gte: '2024-03-01T00:00:00.000Z', $lte: '2024-03-02T23:59:59.999Z' } }, ['a1', 'a2', 'a3']],
    [{ created: { $lte: '2024-02-29T23:59:59.999Z' } }, ['a4']],
  ],
  '$regex with $options i finds substrings, regex characters escaped by the caller': [
    [search('BUDGET'), ['a1', 'a4']],
    [search('(really) changed?'), ['a1']],
    [search('c++'), ['a2']],
    [search('s, r'), ['a4']],
    [search('.*'), []],
    [search('élections'), ['a3']],
    [search('ud'), ['a1', 'a4']],
  ],
  '$regex without options is case-sensitive; ^ anchors it at the start': [
    [search('budget', ''), ['a4']],
    [{ title: { $regex: '^Budget' } }, ['a1']],
    [{ title: { $regex: '^budget', $options: 'i' } }, ['a1', 'a4']],
    [{ title: { $regex: 'ranked$' } }, ['a4']],
    [{ title: { $regex: 'vote|reopens' } }, ['a1', 'a5']],
  ],
  'nested field paths': [
    [{ 'meta.source.kind': 'rss' }, ['a1', 'a3']],
    [{ 'meta.words': { $gte: 1000 } }, ['a2', 'a4']],
    [{ meta: { source: { kind: 'manual' }, words: 300 } }, ['a5']],
  ],
  'booleans: false is not missing, $ne includes missing': [
    [{ published: true }, ['a1', 'a3', 'a4']],
    [{ published: false }, ['a2']],
    [{ published: { $ne: true } }, ['a2', 'a5']],
  ],
  'null matches both null and missing fields': [
    [{ author: null }, ['a2', 'a3']],
    [{ author: { $ne: null } }, ['a1', 'a4', 'a5']],
    [{ author: { $exists: false } }, ['a3']],
    [{ duration: { $in: [null, 7] } }, ['a2', 'a3', 'a5']],
  ],
  'a value matches an array that contains it': [
    [{ tags: 'economy' }, ['a1', 'a4']],
    [{ tags: { $in: ['tech', 'travel'] } }, ['a2', 'a4']],
    [{ tags: ['tech'] }, ['a2']],
    [{ tags: { $ne: 'economy' } }, ['a2', 'a3', 'a5']],
  ],
  'range operators compare only values of the same type': [
    [{ duration: { $gte: 7 } }, ['a1', 'a3', 'a4']],
    [{ author: { $gt: 'B' } }, ['a4', 'a5']],
    [{ author: { $lte: 'Bo' } }, ['a1', 'a4']],
  ],
};

/** Orders and the ids they give over `items`. */
const sortCases: [sort: Record<string, 1 | -1>, ids: string[]][] = [
  [{ title: 1 }, ['a1', 'a2', 'a5', 'a4', 'a3']],
  [{ title: -1 }, ['a3', 'a4', 'a5', 'a2', 'a1']],
  [{ created: -1 }, ['a5', 'a3', 'a2', 'a1', 'a4']],
  [{ 'meta.words': 1, _id: 1 }, ['a3', 'a5', 'a1', 'a2', 'a4']],
  [{ 'meta.words': -1, _id: -1 }, ['a4', 'a2', 'a1', 'a5', 'a3']],
  [{ duration: 1, _id: 1 }, ['a2', 'a5', 'a3', 'a1', 'a4']],
  [{ duration: -1, _id: 1 }, ['a4', 'a1', 'a3', 'a2', 'a5']],
  [{ author: 1, _id: -1 }, ['a3', 'a2', 'a1', 'a4', 'a5']],
  [{ projectId: 1, created: -1 }, ['a3', 'a2', 'a1', 'a5', 'a4']],
  [{ projectId: -1, title: 1 }, ['a5', 'a4', 'a1', 'a2', 'a3']],
  [{ published: 1, _id: 1 }, ['a5', 'a2', 'a1', 'a3', 'a4']],
];

export interface ContractOptions {
  /** The store has `transaction`: its writes commit together or not at all. */
  transactions?: boolean;
  /** The store's collections have `explain`: the service's queries must show they use indexes. */
  plans?: boolean;
  /** The store keeps a search index over content titles and bodies (see `searchedFields` in src/composition.ts). */
  searchIndex?: boolean;
  /** Opening the store again gives an independent connection to the same data (as another process has). */
  shared?: boolean;
  /** What the store offers for rebuilds and bulk loads (readStoreBulk.contract.ts); none when left out. */
  bulk?: BulkAbilities;
}

export function readStoreContract(name: string, open: () => Promise<ReadStore>, options: ContractOptions = {}) {
  describe(`ReadStore contract: ${name}`, () => {
    let store: ReadStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });

    // A collection of its own per test, so the suite can share a server with other runs.
    const fresh = () => store.collection<Item>(`c_${randomUUID()}`);
    async function seeded() {
      const collection = fresh();
      for (const item of items) await collection.put(item);
      return collection;
    }

    describe('documents', () => {
      it('findOne returns a put document as it was put, or null', async () => {
        const collection = await seeded();
        expect(await collection.findOne({ _id: 'a1' })).toEqual(items[0]);
        expect(await collection.findOne({ _id: 'missing' })).toBeNull();
        expect(await collection.findOne({ projectId: 3 })).toBeNull();
      });

      it('put with an existing _id replaces the whole document', async () => {
        const collection = await seeded();
        const replacement: Item = { _id: 'a1', projectId: 1, title: 'Budget vote, corrected', created: '2024-03-01T09:00:00.000Z' };
        await collection.put(replacement);
        expect(await collection.findOne({ _id: 'a1' })).toEqual(replacement);
        expect(await collection.count({})).toBe(5);
      });

      it('deleteOne removes only that document, and a missing id is no error', async () => {
        const collection = await seeded();
        await collection.deleteOne('a2');
        await collection.deleteOne('missing');
        expect(await collection.findOne({ _id: 'a2' })).toBeNull();
        expect(idsOf(await collection.find({}, { sort: { _id: 1 } }))).toEqual(['a1', 'a3', 'a4', 'a5']);
      });

      it('clear removes every document and leaves the collection usable', async () => {
        const collection = await seeded();
        await collection.clear();
        expect(await collection.count({})).toBe(0);
        expect(await collection.find({})).toEqual([]);
        await collection.put(items[4]!);
        expect(await collection.find({})).toEqual([items[4]]);
      });

      it('count counts the matching documents', async () => {
        const collection = await seeded();
        expect(await collection.count({})).toBe(5);
        expect(await collection.count({ projectId: 1 })).toBe(3);
        expect(await collection.count({ projectId: 9 })).toBe(0);
      });

      it('stores and returns copies: mutating what was put or returned changes nothing', async () => {
        const collection = fresh();
        const item = structuredClone(items[0]!);
        await collection.put(item);
        item.title = 'changed after put';
        item.meta!.words = 1;
        const found = (await collection.findOne({ _id: 'a1' }))!;
        found.tags!.push('mutated');
        const [listed] = await collection.find({ _id: 'a1' });
        listed!.meta!.source.kind = 'mutated';
        expect(await collection.findOne({ _id: 'a1' })).toEqual(items[0]);
      });
    });

    describe('filters', () => {
      for (const [name, cases] of Object.entries(filterCases)) {
        it(name, async () => {
          const collection = await seeded();
          for (const [filter, expected] of cases) {
            expect(idsOf(await collection.find(filter, { sort: { _id: 1 } })), JSON.stringify(filter)).toEqual(expected);
            expect(await collection.count(filter), JSON.stringify(filter)).toBe(expected.length);
          }
        });
      }
    });

    describe('sort, skip and limit', () => {
      it('sorts strings by code point, numbers numerically (nested too), null and missing first, booleans after them, later fields breaking ties', async () => {
        const collection = await seeded();
        for (const [sort, expected] of sortCases) expect(idsOf(await collection.find({}, { sort })), JSON.stringify(sort)).toEqual(expected);
      });

      it('applies sort, then skip, then limit', async () => {
        const collection = await seeded();
        const page = async (skip: number | undefined, limit: number | undefined) =>
          idsOf(await collection.find({}, { sort: { created: 1 }, skip, limit }));
        expect(await page(undefined, 2)).toEqual(['a4', 'a1']);
        expect(await page(2, 2)).toEqual(['a2', 'a3']);
        expect(await page(4, 2)).toEqual(['a5']);
        expect(await page(3, undefined)).toEqual(['a3', 'a5']);
        expect(await page(10, 2)).toEqual([]);
        expect(idsOf(await collection.find({ projectId: 1 }, { sort: { _id: -1 }, skip: 1, limit: 1 }))).toEqual(['a2']);
      });
    });

    describe('indexes', () => {
      const bySource = { name: 'project_source', keys: { projectId: 1, sourceId: 1 } } as const;
      const post = (id: string, projectId: number, sourceId?: string): Item => ({
        _id: id,
        projectId,
        title: `Post ${id}`,
        created: '2024-03-01T00:00:00.000Z',
        ...(sourceId === undefined ? {} : { sourceId }),
      });

      it('a unique index rejects a duplicate key with DuplicateKeyError and keeps the original', async () => {
        const collection = fresh();
        await collection.ensureIndex({ ...bySource, unique: true });
        await collection.put(post('x1', 1, 'post-42'));
        await expect(collection.put(post('x2', 1, 'post-42'))).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await collection.findOne({ _id: 'x1' })).toEqual(post('x1', 1, 'post-42'));
        expect(await collection.findOne({ _id: 'x2' })).toBeNull();

        await collection.put({ ...post('x1', 1, 'post-42'), title: 'Same key, same document' });
        await collection.put(post('x2', 2, 'post-42'));
        await expect(collection.put(post('x2', 1, 'post-42'))).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await collection.findOne({ _id: 'x2' })).toEqual(post('x2', 2, 'post-42'));

        await collection.deleteOne('x1');
        await collection.put(post('x2', 1, 'post-42'));
        expect(idsOf(await collection.find({ projectId: 1, sourceId: 'post-42' }))).toEqual(['x2']);
      });

      it('ensureIndex twice is fine, and the index keeps working', async () => {
        const collection = fresh();
        await collection.ensureIndex({ ...bySource, unique: true });
        await collection.put(post('x1', 1, 'a'));
        await collection.ensureIndex({ ...bySource, unique: true });
        await expect(collection.put(post('x2', 1, 'a'))).rejects.toBeInstanceOf(DuplicateKeyError);
      });

      it('a non-unique index allows duplicate keys', async () => {
        const collection = fresh();
        await collection.ensureIndex(bySource);
        await collection.put(post('x1', 1, 'a'));
        await collection.put(post('x2', 1, 'a'));
        expect(idsOf(await collection.find({ projectId: 1, sourceId: 'a' }, { sort: { _id: 1 } }))).toEqual(['x1', 'x2']);
      });

      it('refuses to redefine an index, or to make one unique over duplicates', async () => {
        const collection = fresh();
        await collection.ensureIndex(bySource);
        await expect(collection.ensureIndex({ name: bySource.name, keys: { projectId: 1, created: -1 } })).rejects.toThrow();
        await collection.put(post('x1', 1, 'a'));
        await collection.put(post('x2', 1, 'a'));
        await expect(collection.ensureIndex({ name: 'source_unique', keys: { sourceId: 1 }, unique: true })).rejects.toBeInstanceOf(DuplicateKeyError);
        await collection.put(post('x3', 1, 'a'));
        expect(await collection.count({ sourceId: 'a' })).toBe(3);
      });

      it('answers every filter and order alike with indexes on the fields, made before or after the documents', async () => {
        const indexes = [
          { name: 'project_created', keys: { projectId: 1, created: -1 } },
          { name: 'title', keys: { title: 1 } },
          { name: 'author', keys: { author: 1 } },
          { name: 'duration', keys: { duration: -1 } },
          { name: 'published', keys: { published: 1 } },
          { name: 'words', keys: { 'meta.words': 1 } },
          { name: 'tags', keys: { tags: 1 } },
        ] as const;
        const before = fresh();
        for (const index of indexes) await before.ensureIndex(index);
        for (const item of items) await before.put(item);
        const after = await seeded();
        for (const index of indexes) await after.ensureIndex(index);
        for (const collection of [before, after]) {
          for (const [filter, expected] of Object.values(filterCases).flat()) {
            expect(idsOf(await collection.find(filter, { sort: { _id: 1 } })), JSON.stringify(filter)).toEqual(expected);
            expect(await collection.count(filter), JSON.stringify(filter)).toBe(expected.length);
          }
          for (const [sort, expected] of sortCases) expect(idsOf(await collection.find({}, { sort })), JSON.stringify(sort)).toEqual(expected);
        }
      });

      it('queries through indexes follow puts, replacements, deletes and clears', async () => {
        const collection = fresh();
        await collection.put(post('x1', 1, 'a'));
        await collection.put(post('x2', 1));
        await collection.ensureIndex(bySource);
        await collection.ensureIndex({ name: 'tags', keys: { tags: 1 } });
        await collection.put({ ...post('x3', 2, 'a'), tags: ['economy', 'tech'] });
        const find = async (filter: Record<string, unknown>) => idsOf(await collection.find(filter, { sort: { _id: 1 } }));

        expect(await find({ projectId: 1, sourceId: 'a' })).toEqual(['x1']);
        expect(await find({ projectId: 1, sourceId: null })).toEqual(['x2']);
        expect(await find({ tags: 'tech' })).toEqual(['x3']);
        expect(await find({ _id: 'x3', projectId: 2 })).toEqual(['x3']);
        expect(await find({ _id: 'x3', projectId: 1 })).toEqual([]);

        await collection.put(post('x1', 1, 'b'));
        expect(await find({ projectId: 1, sourceId: 'a' })).toEqual([]);
        expect(await find({ projectId: 1, sourceId: 'b' })).toEqual(['x1']);

        await collection.put(post('x3', 2, 'a'));
        expect(await find({ tags: 'tech' })).toEqual([]);

        await collection.deleteOne('x1');
        expect(await find({ projectId: 1, sourceId: 'b' })).toEqual([]);
        await collection.clear();
        expect(await find({ projectId: 1, sourceId: null })).toEqual([]);
        await collection.put(post('x4', 1, 'b'));
        expect(await find({ projectId: 1, sourceId: 'b' })).toEqual(['x4']);
      });

      it('an indexed array field follows its documents: elements added, changed, kept, deleted and put back', async () => {
        const collection = fresh();
        await collection.ensureIndex({ name: 'tags', keys: { tags: 1 } });
        const find = async (filter: Record<string, unknown>) => idsOf(await collection.find(filter, { sort: { _id: 1 } }));
        await collection.put({ ...post('y1', 1), tags: ['economy', 'tech'] });
        await collection.put({ ...post('y2', 1), tags: ['tech'] });
        // One document holds the value itself rather than an array of it.
        await collection.put({ ...post('y3', 1), tags: 'tech' as unknown as string[] });
        expect(await find({ tags: 'tech' })).toEqual(['y1', 'y2', 'y3']);

        await collection.put({ ...post('y1', 1), tags: ['travel', 'travel'] });
        expect(await find({ tags: 'tech' })).toEqual(['y2', 'y3']);
        expect(await find({ tags: 'travel' })).toEqual(['y1']);
        expect(await collection.count({ tags: { $in: ['travel', 'economy'] } })).toBe(1);

        // Another field changed, the array as it was: its elements answer as before.
        await collection.put({ ...post('y2', 1), title: 'Renamed', tags: ['tech'] });
        expect(await find({ tags: 'tech' })).toEqual(['y2', 'y3']);

        await collection.deleteOne('y2');
        expect(await find({ tags: 'tech' })).toEqual(['y3']);
        await collection.put({ ...post('y2', 1), tags: ['economy'] });
        expect(await find({ tags: 'tech' })).toEqual(['y3']);
        expect(await find({ tags: 'economy' })).toEqual(['y2']);
        await collection.put(post('y1', 1));
        expect(await find({ tags: 'travel' })).toEqual([]);
      });
    });

    if (options.transactions) {
      describe('transactions', () => {
        const inTransaction = <R>(work: (store: ReadStore) => Promise<R>) => store.transaction!(work);

        it('commits its writes together: reads inside see them, reads outside only once it has committed', async () => {
          const name = `c_${randomUUID()}`;
          await store.collection<Item>(name).put(items[4]!);
          let outsideDuring: string[] = [];
          await inTransaction(async (tx) => {
            const inside = tx.collection<Item>(name);
            await inside.put(items[0]!);
            await inside.put({ ...items[1]!, title: 'Changed' });
            await inside.deleteOne('a5');
            expect(idsOf(await inside.find({}, { sort: { _id: 1 } }))).toEqual(['a1', 'a2']);
            expect(await inside.count({ title: 'Changed' })).toBe(1);
            outsideDuring = idsOf(await store.collection<Item>(name).find({}, { sort: { _id: 1 } }));
          });
          expect(outsideDuring).toEqual(['a5']);
          expect(idsOf(await store.collection<Item>(name).find({}, { sort: { _id: 1 } }))).toEqual(['a1', 'a2']);
        });

        it('leaves nothing behind when its work throws, indexes made inside included', async () => {
          const name = `c_${randomUUID()}`;
          await store.collection<Item>(name).put(items[4]!);
          const failing = inTransaction(async (tx) => {
            const inside = tx.collection<Item>(name);
            await inside.ensureIndex({ name: 'tags', keys: { tags: 1 } });
            await inside.put(items[0]!);
            await inside.deleteOne('a5');
            throw new Error('work failed');
          });
          await expect(failing).rejects.toThrow('work failed');
          const collection = store.collection<Item>(name);
          expect(idsOf(await collection.find({}))).toEqual(['a5']);
          // The index was rolled back too: the name is free for another definition.
          await collection.ensureIndex({ name: 'tags', keys: { created: 1 } });
          await collection.put(items[0]!);
          expect(idsOf(await collection.find({ tags: 'economy' }))).toEqual(['a1']);
        });

        it('fails a write that breaks a unique index alone, keeping the others', async () => {
          const name = `c_${randomUUID()}`;
          await store.collection<Item>(name).ensureIndex({ name: 'title', keys: { title: 1 }, unique: true });
          await inTransaction(async (tx) => {
            const inside = tx.collection<Item>(name);
            await inside.put(items[0]!);
            await expect(inside.put({ ...items[1]!, title: items[0]!.title })).rejects.toBeInstanceOf(DuplicateKeyError);
            await inside.put(items[2]!);
          });
          expect(idsOf(await store.collection<Item>(name).find({}, { sort: { _id: 1 } }))).toEqual(['a1', 'a3']);
        });

        it('keeps writes made outside while it runs out of it: they wait, and a rollback does not undo them', async () => {
          const name = `c_${randomUUID()}`;
          let release!: () => void;
          const gate = new Promise<void>((resolve) => (release = resolve));
          const failing = inTransaction(async (tx) => {
            await tx.collection<Item>(name).put(items[0]!);
            await gate;
            throw new Error('rolled back');
          });
          const outside = store.collection<Item>(name).put(items[1]!);
          release();
          await expect(failing).rejects.toThrow('rolled back');
          await outside;
          expect(idsOf(await store.collection<Item>(name).find({}))).toEqual(['a2']);
        });
      });
    }

    insertContract(() => store, options.shared ? open : undefined);

    bulkContract(() => store, options.bulk ?? {});

    phraseSearchContract(() => store);

    if (options.plans) serviceQueryPlans(() => store, { searchIndex: options.searchIndex ?? false });
  });
}
