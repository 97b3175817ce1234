// The read store's atomic `insert` (only when no document has the id): the one step leases and shared counters rest on.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DuplicateKeyError, type Document, type ReadStore } from '../../src/infrastructure/readStore/port.ts';

interface Term extends Document {
  name?: string;
  term?: number;
  owner?: string;
}

/**
 * `store()` is the suite's store; `another` (stores shared between processes only) opens a second, independent
 * connection to the same data, as another process would.
 */
export function insertContract(store: () => ReadStore, another?: () => Promise<ReadStore>) {
  describe('insert: only when no document has the id, atomically', () => {
    const fresh = () => store().collection<Term>(`u_${randomUUID()}`);

    it('inserts a new document and says so; leaves an existing one as it is and says so', async () => {
      const terms = fresh();
      expect(await terms.insert({ _id: 'runner:1', name: 'runner', term: 1, owner: 'a' })).toBe(true);
      expect(await terms.insert({ _id: 'runner:1', name: 'runner', term: 1, owner: 'b' })).toBe(false);
      expect(await terms.findOne({ _id: 'runner:1' })).toEqual({ _id: 'runner:1', name: 'runner', term: 1, owner: 'a' });
      await terms.deleteOne('runner:1');
      expect(await terms.insert({ _id: 'runner:1', owner: 'c' })).toBe(true);
      expect(await terms.find({})).toEqual([{ _id: 'runner:1', owner: 'c' }]);
    });

    it('keeps indexes: an inserted document is found through them, and another unique index still refuses a duplicate', async () => {
      const terms = fresh();
      await terms.ensureIndex({ name: 'name_term', keys: { name: 1, term: -1 }, unique: true });
      expect(await terms.insert({ _id: 'r:1', name: 'r', term: 1 })).toBe(true);
      expect(await terms.insert({ _id: 'r:2', name: 'r', term: 2 })).toBe(true);
      await expect(terms.insert({ _id: 'other', name: 'r', term: 2 })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect((await terms.find({ name: 'r' }, { sort: { term: -1 }, limit: 1 })).map((term) => term._id)).toEqual(['r:2']);
    });

    it('lets exactly one of many concurrent inserts of one id win', async () => {
      const terms = fresh();
      for (let round = 0; round < 3; round++) {
        const won = await Promise.all(Array.from({ length: 12 }, (_, i) => terms.insert({ _id: `r:${round}`, owner: `p${i}` })));
        expect(won.filter(Boolean)).toHaveLength(1);
        expect((await terms.findOne({ _id: `r:${round}` }))?.owner).toBe(`p${won.indexOf(true)}`);
      }
    });

    if (another) {
      it('is atomic across two connections to the same data, as between processes', async () => {
        const name = `u_${randomUUID()}`;
        const other = await another();
        try {
          const here = store().collection<Term>(name);
          const there = other.collection<Term>(name);
          for (let round = 0; round < 3; round++) {
            const won = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? here : there).insert({ _id: `r:${round}`, owner: `p${i}` })));
            expect(won.filter(Boolean)).toHaveLength(1);
            expect((await there.findOne({ _id: `r:${round}` }))?.owner).toBe(`p${won.indexOf(true)}`);
          }
        } finally {
          await other.close();
        }
      });
    }
  });
}
