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

  it('drops the tables a rename replaced once it has committed, and what a closed store left of them at the next open', async () => {
    const file = path.join(dir, 'retired.sqlite');
    const retiredTables = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '%~retired%'`).pluck().all();
      } finally {
        db.close();
      }
    };
    const first = createSqliteReadStore(file);
    for (const name of ['a', 'b']) await first.collection(name).put({ _id: name });
    await first.renameCollection!('a', 'b');
    await first.settle!();
    expect(retiredTables()).toEqual([]);
    expect(await first.collection('b').find({})).toEqual([{ _id: 'a' }]);

    // Closed right after a rename, the store stops after the first of its steps; the next one to open the file goes on.
    await first.collection('c').put({ _id: 'c' });
    await first.renameCollection!('c', 'b');
    await first.close();
    expect(retiredTables()).not.toEqual([]);
    const second = createSqliteReadStore(file);
    await second.settle!();
    expect(retiredTables()).toEqual([]);
    expect(await second.collection('b').find({})).toEqual([{ _id: 'c' }]);
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
