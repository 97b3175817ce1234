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
  readStoreContract('sqlite', open, { transactions: true, plans: true, searchIndex: true, bulk: { bulkWrite: true, renameCollection: true, deferIndexes: true, sameDocuments: true, prepareRename: { searched: () => `c_${randomUUID()}` } } });

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

  /** Rows of a collection's element table of `tags`, read from the file itself. */
  const elementRows = (file: string, collection: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare(`SELECT d.rid, e.value FROM "rs:${collection}:multikey:tags" AS e JOIN "rs:${collection}:doc" AS d ON d.rid = e.rid ORDER BY 1, 2`).raw().all() as [number, unknown][];
    } finally {
      db.close();
    }
  };

  it('refuses a document nested deeper than SQLite parses, new or replacing one, and keeps what was there', async () => {
    const file = path.join(dir, 'deep.sqlite');
    const store = createSqliteReadStore(file);
    const collection = store.collection('deep');
    await collection.ensureIndex({ name: 'tags', keys: { tags: 1 } });
    await collection.put({ _id: 'kept', tags: ['a', 'b'] });
    let deep: unknown = 'bottom';
    for (let level = 0; level < 1_100; level++) deep = [deep];

    await expect(collection.put({ _id: 'new', tags: ['c'], deep })).rejects.toThrow(/nested deeper than SQLite parses JSON/);
    await expect(collection.put({ _id: 'kept', tags: ['c'], deep })).rejects.toThrow(/nested deeper than SQLite parses JSON/);
    expect(await collection.find({}, { sort: { _id: 1 } })).toEqual([{ _id: 'kept', tags: ['a', 'b'] }]);
    expect((await collection.find({ tags: 'b' })).map((document) => document._id)).toEqual(['kept']);
    expect(await collection.count({ tags: 'c' })).toBe(0);
    await store.close();
    expect(elementRows(file, 'deep').map(([, value]) => value)).toEqual(['a', 'b']);
  });

  it("makes an array's element rows at a put as SQLite makes them from the stored documents, for every kind of element", async () => {
    const file = path.join(dir, 'elements.sqlite');
    const store = createSqliteReadStore(file);
    const documents = [
      { _id: 'z1', tags: ['text', 7, 2.5, true, null, { k: 'v' }, ['a', 1]] },
      { _id: 'z2', tags: [false, 'other', 7] },
      { _id: 'z3', tags: 'alone' },
      { _id: 'z4', tags: { k: 'v' } },
    ];
    // One collection indexed before its puts (rows made from the documents as they are put), one after (from the stored JSON).
    await store.collection('before').ensureIndex({ name: 'tags', keys: { tags: 1 } });
    for (const document of documents) {
      await store.collection('before').put(document);
      await store.collection('after').put(document);
    }
    await store.collection('after').ensureIndex({ name: 'tags', keys: { tags: 1 } });
    for (const name of ['before', 'after']) {
      const find = async (tag: unknown) => (await store.collection(name).find({ tags: tag }, { sort: { _id: 1 } })).map((document) => document._id);
      expect(await find(7)).toEqual(['z1', 'z2']);
      expect(await find(2.5)).toEqual(['z1']);
      expect(await find(true)).toEqual(['z1']);
      expect(await find(false)).toEqual(['z2']);
      expect(await find('alone')).toEqual(['z3']);
    }
    await store.close();
    expect(elementRows(file, 'before')).toEqual(elementRows(file, 'after'));
    expect(elementRows(file, 'before')).toHaveLength(12);
  });

  it('opens a file whose element tables were kept by triggers, and drops them, so no element is added twice', async () => {
    const file = path.join(dir, 'triggers.sqlite');
    const first = createSqliteReadStore(file);
    await first.collection('old').ensureIndex({ name: 'tags', keys: { tags: 1 } });
    await first.collection('old').put({ _id: 'one', tags: ['a'] });
    await first.close();
    // The trigger an earlier version made for every insert into the documents table.
    const db = new Database(file);
    db.exec(
      `CREATE TRIGGER "rs:old:trigger:insert:multikey:tags" AFTER INSERT ON "rs:old:doc" BEGIN INSERT INTO "rs:old:multikey:tags" (rid, value) ` +
        `SELECT NEW.rid, e.value FROM json_each(NEW.doc, '$."tags"') AS e; END`,
    );
    db.close();

    const second = createSqliteReadStore(file);
    await second.collection('old').put({ _id: 'two', tags: ['a', 'b'] });
    expect((await second.collection('old').find({ tags: 'a' }, { sort: { _id: 1 } })).map((document) => document._id)).toEqual(['one', 'two']);
    await second.close();
    expect(elementRows(file, 'old')).toEqual([[1, 'a'], [2, 'a'], [2, 'b']]);
    const check = new Database(file, { readonly: true });
    expect(check.prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger'`).pluck().all()).toEqual([]);
    check.close();
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
