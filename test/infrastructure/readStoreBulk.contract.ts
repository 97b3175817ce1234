// What rebuilds and bulk loads need of a read store: writes in one round trip, a collection renamed into another's
// place, indexes deferred while a collection is loaded. Each store says which it has; the others must leave them out.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DuplicateKeyError, type Document, type IndexSpec, type ReadStore } from '../../src/infrastructure/readStore/port.ts';
import { phraseFilter, searchTextOf } from '../../src/content/search.ts';

export interface BulkAbilities {
  bulkWrite?: boolean;
  renameCollection?: boolean;
  deferIndexes?: boolean;
  sameDocuments?: boolean;
  /** The store has `prepareRename`; `searched` names a collection it keeps a search index of `searchText.title` for. */
  prepareRename?: { searched: () => string };
}

interface Row extends Document {
  projectId: number;
  created: string;
}

const byCreated: IndexSpec = { name: 'project_created', keys: { projectId: 1, created: -1 } };
const byTags: IndexSpec = { name: 'project_tags', keys: { projectId: 1, tags: 1 } };
const row = (id: string, created: string): Row => ({ _id: id, projectId: 1, created });
const ids = (documents: Document[]) => documents.map((document) => document._id);

export function bulkContract(store: () => ReadStore, has: BulkAbilities) {
  describe('bulk writes, renames and deferred indexes', () => {
    const name = () => `b_${randomUUID()}`;

    it('offers exactly the abilities the store claims', () => {
      const collection = store().collection(name());
      expect(typeof collection.bulkWrite === 'function').toBe(Boolean(has.bulkWrite));
      expect(typeof collection.deferIndexes === 'function').toBe(Boolean(has.deferIndexes));
      expect(typeof store().renameCollection === 'function').toBe(Boolean(has.renameCollection));
      expect(typeof store().sameDocuments === 'function').toBe(Boolean(has.sameDocuments));
      expect(typeof store().prepareRename === 'function').toBe(Boolean(has.prepareRename));
    });

    if (has.sameDocuments) {
      it('sameDocuments compares documents by _id and value, whatever the order of their fields', async () => {
        const [a, b] = [name(), name()];
        expect(await store().sameDocuments!(a, b)).toBe(true);
        await store().collection(a).put({ _id: 'x', projectId: 1, created: '2026-01-01', tags: ['p', 'q'] });
        expect(await store().sameDocuments!(a, b)).toBe(false);
        await store().collection(b).put({ tags: ['p', 'q'], created: '2026-01-01', projectId: 1, _id: 'x' });
        expect(await store().sameDocuments!(a, b)).toBe(true);
        await store().collection(b).put({ _id: 'x', projectId: 1, created: '2026-01-01', tags: ['q', 'p'] });
        expect(await store().sameDocuments!(a, b)).toBe(false);
        await store().collection(b).put({ _id: 'x', projectId: 1, created: '2026-01-01', tags: ['p', 'q'] });
        await store().collection(a).put(row('y', '2026-01-02'));
        await store().collection(b).put(row('z', '2026-01-02'));
        expect(await store().sameDocuments!(a, b)).toBe(false);
        await store().collection(b).deleteOne('z');
        await store().collection(b).put(row('y', '2026-01-02'));
        expect(await store().sameDocuments!(a, b)).toBe(true);
      });
    }

    if (has.bulkWrite) {
      it('bulkWrite applies puts and deletes in order', async () => {
        const rows = store().collection<Row>(name());
        await rows.put(row('a', '2026-01-01'));
        await rows.bulkWrite!([{ put: row('b', '2026-01-02') }, { delete: 'a' }, { put: row('a', '2026-01-03') }, { put: row('c', '2026-01-04') }, { delete: 'c' }]);
        expect(await rows.find({}, { sort: { _id: 1 } })).toEqual([row('a', '2026-01-03'), row('b', '2026-01-02')]);
      });

      it('bulkWrite replaces a stored document and its keys, keeps arrays searchable, and refuses a duplicate of a unique index as put does', async () => {
        const rows = store().collection<Row & { tags?: string[] }>(name());
        await rows.ensureIndex({ name: 'created_once', keys: { created: 1 }, unique: true });
        await rows.ensureIndex(byTags);
        await rows.bulkWrite!([{ put: row('a', '2026-01-01') }, { put: { ...row('b', '2026-01-02'), tags: ['x', 'y'] } }]);
        await rows.bulkWrite!([{ put: row('a', '2026-01-05') }, { put: { ...row('c', '2026-01-06'), tags: ['y'] } }]);
        expect(await rows.find({ created: '2026-01-05' })).toEqual([row('a', '2026-01-05')]);
        expect(await rows.find({ created: '2026-01-01' })).toEqual([]);
        expect(ids(await rows.find({ projectId: 1, tags: 'y' }, { sort: { _id: 1 } }))).toEqual(['b', 'c']);
        await expect(rows.bulkWrite!([{ put: row('d', '2026-01-02') }])).rejects.toThrow(DuplicateKeyError);
        expect(await rows.findOne({ _id: 'd' })).toBeNull();
      });
    }

    if (has.renameCollection) {
      it('renameCollection puts one collection in the place of another; its indexes come back with ensureIndex', async () => {
        const [from, to] = [name(), name()];
        await store().collection<Row>(to).put(row('old', '2020-01-01'));
        const source = store().collection<Row>(from);
        await source.ensureIndex(byCreated);
        for (const [id, created] of [['x', '2026-01-01'], ['y', '2026-01-03'], ['z', '2026-01-02']] as const) await source.put(row(id, created));
        await store().renameCollection!(from, to);
        const renamed = store().collection<Row>(to);
        await renamed.ensureIndex(byCreated);
        expect(ids(await renamed.find({ projectId: 1 }, { sort: { created: -1 } }))).toEqual(['y', 'z', 'x']);
        expect(await store().collection(from).find({})).toEqual([]);
        const plan = await renamed.explain?.({ projectId: 1 }, { sort: { created: -1 } });
        if (plan && plan.planner !== 'ferretdb') expect(plan.indexes).toContain('project_created');
        // Array fields (a multikey index) come along, and the same source name serves again for the next rename.
        const tagged = (id: string, tags: string[]) => ({ ...row(id, '2026-02-01'), tags });
        for (const round of [1, 2]) {
          const again = store().collection(from);
          await again.ensureIndex(byTags);
          await again.put(tagged(`a${round}`, ['p', 'q']));
          await again.put(tagged(`b${round}`, ['q']));
          await store().renameCollection!(from, to);
          const target = store().collection(to);
          await target.ensureIndex(byTags);
          await target.put(tagged(`c${round}`, ['p']));
          expect(ids(await target.find({ projectId: 1, tags: 'p' }, { sort: { _id: 1 } }))).toEqual([`a${round}`, `c${round}`]);
          expect(ids(await target.find({ projectId: 1, tags: 'q' }, { sort: { _id: 1 } }))).toEqual([`a${round}`, `b${round}`]);
        }
        // A source never written leaves the target empty.
        await store().renameCollection!(name(), to);
        expect(await store().collection(to).find({})).toEqual([]);
      });
    }

    if (has.prepareRename) {
      it("prepareRename builds the target's indexes and search index on the source in steps, kept current by later writes and carried over by the rename", async () => {
        const { searched } = has.prepareRename!;
        const [from, to] = [name(), searched()];
        const titled = (n: number, title: string): Document => ({ _id: `t${n}`, projectId: 1, created: String(n).padStart(5, '0'), searchText: searchTextOf({ title, body: '' }) });
        const source = store().collection(from);
        // More documents than one step indexes, a rare phrase among them at both ends.
        const count = 4_500;
        for (let n = 0; n < count; n++) await source.put(titled(n, n === 7 || n === count - 3 ? `harbour bridge ${n}` : `council budget ${n % 97}`));
        const harbour = { projectId: 1, 'searchText.title': phraseFilter('harbour bri') };
        const found = async (collection: string) => ids(await store().collection(collection).find(harbour, { sort: { _id: 1 } }));
        const indexes = async (collection: string) => (await store().collection(collection).explain!(harbour))?.indexes;
        expect(await indexes(from)).not.toContain('search searchText.title');

        // Another writer's write, sent once the build has begun, is done before the build ends.
        const other = store().collection(name());
        const order: string[] = [];
        const building = store().prepareRename!(from, to, [byCreated]).then(() => order.push('built'));
        await new Promise((resume) => setImmediate(resume));
        await other.put(row('w', '2026-01-01')).then(() => order.push('other write'));
        await building;
        expect(order).toEqual(['other write', 'built']);

        expect(await indexes(from)).toContain('search searchText.title');
        expect(await found(from)).toEqual(['t4497', 't7']);
        await source.put(titled(count, 'harbour bridge repaired'));
        await source.put(titled(7, 'council budget'));
        await source.deleteOne(`t${count - 3}`);
        expect(await found(from)).toEqual(['t4500']);

        const newest = async (collection: string) => (await store().collection(collection).explain!({ projectId: 1 }, { sort: { created: -1 }, limit: 1 }))?.indexes;
        expect(await newest(from)).toContain('project_created');

        // The rename carries both over: they serve before any ensureIndex, which then has nothing to do.
        await store().renameCollection!(from, to);
        expect(await newest(to)).toContain('project_created');
        expect(await indexes(to)).toContain('search searchText.title');
        const renamed = store().collection(to);
        await renamed.ensureIndex(byCreated);
        expect(await found(to)).toEqual(['t4500']);
        await renamed.put(titled(count + 1, 'Harbour Bridge at night'));
        expect(await found(to)).toEqual(['t4500', 't4501']);
        expect(await renamed.count({ projectId: 1 })).toBe(count + 1);
      });
    }

    if (has.deferIndexes) {
      it('deferIndexes drops the indexes of an empty collection only; ensureIndex builds them from the rows', async () => {
        const rows = store().collection<Row>(name());
        await rows.ensureIndex(byCreated);
        expect(await rows.deferIndexes!()).toBe(true);
        for (let n = 0; n < 50; n++) await rows.put(row(`r${n}`, `2026-01-${String(1 + (n % 28)).padStart(2, '0')}T${String(n).padStart(2, '0')}`));
        const before = await rows.explain?.({ projectId: 1 }, { sort: { created: -1 } });
        if (before) expect(before.indexes).not.toContain('project_created');
        await rows.ensureIndex(byCreated);
        const after = await rows.explain?.({ projectId: 1 }, { sort: { created: -1 } });
        if (after) expect(after.indexes).toContain('project_created');
        expect((await rows.find({ projectId: 1 }, { sort: { created: -1 }, limit: 1 }))[0]!._id).toBe('r27');
        expect(await rows.deferIndexes!()).toBe(false);
      });
    }
  });
}
