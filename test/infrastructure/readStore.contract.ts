// The read store contract: what every ReadStore adapter must do alike, written once and run per adapter.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateKeyError, type Document, type ReadStore } from '../../src/infrastructure/readStore/port.ts';

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

export function readStoreContract(name: string, open: () => Promise<ReadStore>) {
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
      const matching = async (filter: Record<string, unknown>) =>
        idsOf(await (await seeded()).find(filter, { sort: { _id: 1 } }));

      it('equality on several fields', async () => {
        expect(await matching({ projectId: 1, published: true })).toEqual(['a1', 'a3']);
        expect(await matching({ projectId: 2, author: 'Bo' })).toEqual(['a4']);
      });

      it('$in', async () => {
        expect(await matching({ author: { $in: ['Ana', 'Bo'] } })).toEqual(['a1', 'a4']);
        expect(await matching({ _id: { $in: ['a5', 'a2', 'zz'] } })).toEqual(['a2', 'a5']);
      });

      it('$gte and $lte on ISO date strings', async () => {
        const march1to2 = { $gte: '2024-03-01T00:00:00.000Z', $lte: '2024-03-02T23:59:59.999Z' };
        expect(await matching({ created: march1to2 })).toEqual(['a1', 'a2', 'a3']);
        expect(await matching({ created: { $lte: '2024-02-29T23:59:59.999Z' } })).toEqual(['a4']);
      });

      it('$regex with $options i finds substrings, regex characters escaped by the caller', async () => {
        const search = (text: string) => matching({ title: { $regex: escapeRegex(text), $options: 'i' } });
        expect(await search('BUDGET')).toEqual(['a1', 'a4']);
        expect(await search('(really) changed?')).toEqual(['a1']);
        expect(await search('c++')).toEqual(['a2']);
        expect(await search('s, r')).toEqual(['a4']);
        expect(await search('.*')).toEqual([]);
      });

      it('nested field paths', async () => {
        expect(await matching({ 'meta.source.kind': 'rss' })).toEqual(['a1', 'a3']);
        expect(await matching({ 'meta.words': { $gte: 1000 } })).toEqual(['a2', 'a4']);
        expect(await matching({ meta: { source: { kind: 'manual' }, words: 300 } })).toEqual(['a5']);
      });

      it('booleans: false is not missing, $ne includes missing', async () => {
        expect(await matching({ published: true })).toEqual(['a1', 'a3', 'a4']);
        expect(await matching({ published: false })).toEqual(['a2']);
        expect(await matching({ published: { $ne: true } })).toEqual(['a2', 'a5']);
      });

      it('null matches both null and missing fields', async () => {
        expect(await matching({ author: null })).toEqual(['a2', 'a3']);
        expect(await matching({ author: { $ne: null } })).toEqual(['a1', 'a4', 'a5']);
        expect(await matching({ author: { $exists: false } })).toEqual(['a3']);
        expect(await matching({ duration: { $in: [null, 7] } })).toEqual(['a2', 'a3', 'a5']);
      });

      it('a value matches an array that contains it', async () => {
        expect(await matching({ tags: 'economy' })).toEqual(['a1', 'a4']);
        expect(await matching({ tags: { $in: ['tech', 'travel'] } })).toEqual(['a2', 'a4']);
        expect(await matching({ tags: ['tech'] })).toEqual(['a2']);
      });

      it('range operators compare only values of the same type', async () => {
        expect(await matching({ duration: { $gte: 7 } })).toEqual(['a1', 'a3', 'a4']);
        expect(await matching({ author: { $gt: 'B' } })).toEqual(['a4', 'a5']);
      });
    });

    describe('sort, skip and limit', () => {
      const sorted = async (sort: Record<string, 1 | -1>) => idsOf(await (await seeded()).find({}, { sort }));

      it('sorts strings by code point, ascending and descending', async () => {
        expect(await sorted({ title: 1 })).toEqual(['a1', 'a2', 'a5', 'a4', 'a3']);
        expect(await sorted({ title: -1 })).toEqual(['a3', 'a4', 'a5', 'a2', 'a1']);
        expect(await sorted({ created: -1 })).toEqual(['a5', 'a3', 'a2', 'a1', 'a4']);
      });

      it('sorts numbers numerically, on nested paths too', async () => {
        expect(await sorted({ 'meta.words': 1, _id: 1 })).toEqual(['a3', 'a5', 'a1', 'a2', 'a4']);
        expect(await sorted({ 'meta.words': -1, _id: -1 })).toEqual(['a4', 'a2', 'a1', 'a5', 'a3']);
      });

      it('sorts null and missing first ascending and last descending', async () => {
        expect(await sorted({ duration: 1, _id: 1 })).toEqual(['a2', 'a5', 'a3', 'a1', 'a4']);
        expect(await sorted({ duration: -1, _id: 1 })).toEqual(['a4', 'a1', 'a3', 'a2', 'a5']);
        expect(await sorted({ author: 1, _id: -1 })).toEqual(['a3', 'a2', 'a1', 'a4', 'a5']);
      });

      it('sorts by several fields, later ones breaking ties', async () => {
        expect(await sorted({ projectId: 1, created: -1 })).toEqual(['a3', 'a2', 'a1', 'a5', 'a4']);
        expect(await sorted({ projectId: -1, title: 1 })).toEqual(['a5', 'a4', 'a1', 'a2', 'a3']);
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
    });
  });
}
