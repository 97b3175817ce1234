// Runs the read store contract on the in-process store, on SQLite, and on MongoDB when TEST_MONGODB_URL names a server.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryReadStore } from '../../src/infrastructure/readStore/memory.ts';
import { createMongoReadStore } from '../../src/infrastructure/readStore/mongo.ts';
import { createSqliteReadStore } from '../../src/infrastructure/readStore/sqlite.ts';
import { searchedFields } from '../../src/composition.ts';
import { readStoreContract } from './readStore.contract.ts';

readStoreContract('memory', async () => createMemoryReadStore());

describe('SQLite', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'read-store-'));
  // As the service configures it, and the contract's own collections (`c_…`) with a word index on `title` (its
  // `$regex` cases, which are no phrases, pass it by) and on the word text of its phrase-search cases.
  const searched = (collection: string) => (collection.startsWith('c_') ? ['title', ...searchedFields('contentItems')] : searchedFields(collection));
  const open = async () => createSqliteReadStore(path.join(dir, 'read.sqlite'), { searchedFields: searched });
  readStoreContract('sqlite', open, { transactions: true, plans: true, searchIndex: true, bulk: { renameCollection: true, deferIndexes: true, sameDocuments: true, prepareRename: { searched: () => `c_${randomUUID()}` } } });

  it('drops the tables a rename replaced once it has committed, in steps, and what a closed store left of them at the next open', async () => {
    const file = path.join(dir, 'retired.sqlite');
    const inFile = <R>(query: (db: Database.Database) => R): R => {
      const db = new Database(file, { readonly: true });
      try {
        return query(db);
      } finally {
        db.close();
      }
    };
    const retiredTables = () => inFile((db) => db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '%~retired%'`).pluck().all());
    const retiredDocuments = () => inFile((db) => (db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'rs:c_b~retired:doc'`).pluck().get() ? (db.prepare('SELECT count(*) FROM "rs:c_b~retired:doc"').pluck().get() as number) : 0));
    const first = createSqliteReadStore(file, { searchedFields: searched });
    // Enough documents for several steps of a table, with a search index, an index and an array field each.
    const fill = async (name: string, count: number) => {
      await first.collection(name).ensureIndex({ name: 'by_title', keys: { title: 1 } });
      for (let i = 0; i < count; i++) await first.collection(name).put({ _id: `${name}-${i}`, title: `${name} story ${i}`, tags: ['x', `t${i}`] });
    };
    await fill('c_a', 3);
    await fill('c_b', 10_000);
    await first.renameCollection!('c_a', 'c_b');
    // The replaced documents go a few thousand at a time, the event loop free in between.
    const seen = new Set<number>();
    let settled = false;
    const settling = first.settle!().then(() => (settled = true));
    while (!settled) {
      seen.add(retiredDocuments());
      await new Promise((resume) => setImmediate(resume));
    }
    await settling;
    expect([...seen].some((count) => count > 0 && count < 10_000)).toBe(true);
    expect(retiredTables()).toEqual([]);
    const live = first.collection('c_b');
    expect((await live.find({})).map((document) => document._id).sort()).toEqual(['c_a-0', 'c_a-1', 'c_a-2']);
    expect((await live.find({ title: { $regex: 'story 1' } })).map((document) => document._id)).toEqual(['c_a-1']);
    expect((await live.find({ tags: 't2' })).map((document) => document._id)).toEqual(['c_a-2']);

    // Closed right after a rename, the store stops after the first of its steps; the next one to open the file goes on.
    await first.collection('c_c').put({ _id: 'c', title: 'c story' });
    await first.renameCollection!('c_c', 'c_b');
    await first.close();
    expect(retiredTables()).not.toEqual([]);
    const second = createSqliteReadStore(file, { searchedFields: searched });
    await second.settle!();
    expect(retiredTables()).toEqual([]);
    expect(await second.collection('c_b').find({})).toEqual([{ _id: 'c', title: 'c story' }]);
    await second.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
});

const server = process.env.TEST_MONGODB_URL;

describe.skipIf(!server)('MongoDB', () => {
  const url = `${server?.replace(/\/+$/, '')}/contract_${randomUUID().replaceAll('-', '')}`;
  readStoreContract('mongodb', () => createMongoReadStore(url), { plans: true, shared: true, bulk: { bulkWrite: true, renameCollection: true } });

  afterAll(async () => {
    const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5000 });
    await client.db().dropDatabase();
    await client.close();
  });
});
