// The embedded read store keeps what it holds across a restart: documents, indexes, checkpoints, so the service resumes instead of replaying.
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteReadStore } from '../../src/infrastructure/readStore/sqlite.ts';
import { DRAIN_WAIT_MS } from '../../src/infrastructure/readStore/sqliteCheckpointer.ts';
import { DuplicateKeyError, inTransaction, type Document } from '../../src/infrastructure/readStore/port.ts';
import { searchedFields } from '../../src/composition.ts';
import { CONTENT_ITEMS } from '../../src/content/readModel.ts';
import { phraseFilter, searchTextOf } from '../../src/content/search.ts';
import { CHECKPOINTS } from '../../projections/projection.ts';
import { newDataDir, serverEnv, startServer } from '../support/server.ts';
import { cli } from '../support/cli.ts';

const options = { searchedFields };
const article = (id: string, title: string, tags: string[]) => ({
  _id: id,
  projectId: 1,
  title,
  body: `<p>${title}</p>`,
  searchText: searchTextOf({ title, body: `<p>${title}</p>` }),
  tags,
  created: `2024-03-0${id.length}T00:00:00.000Z`,
});

describe('SQLite read store file', () => {
  it('keeps documents, indexes, array fields, the search index and checkpoints when reopened', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'read-store-')), 'read.sqlite');
    const first = createSqliteReadStore(file, options);
    const items = first.collection(CONTENT_ITEMS);
    await items.ensureIndex({ name: 'project_tags', keys: { projectId: 1, tags: 1 } });
    await items.ensureIndex({ name: 'title', keys: { title: 1 }, unique: true });
    await items.put(article('a', 'Budget vote tonight', ['politics', 'economy']));
    await items.put(article('bb', 'Harbour reopens', ['travel']));
    await first.collection(CHECKPOINTS).put({ _id: 'contentItems', position: 42 });
    await first.close();

    const second = createSqliteReadStore(file, options);
    const reopened = second.collection<Document>(CONTENT_ITEMS);
    expect(await reopened.findOne({ _id: 'a' })).toEqual(article('a', 'Budget vote tonight', ['politics', 'economy']));
    expect(await second.collection(CHECKPOINTS).findOne({ _id: 'contentItems' })).toEqual({ _id: 'contentItems', position: 42 });
    expect((await reopened.find({ projectId: 1, tags: 'travel' })).map((item) => item._id)).toEqual(['bb']);
    expect((await reopened.find({ 'searchText.title': phraseFilter('VOTE') })).map((item) => item._id)).toEqual(['a']);
    const plan = await reopened.explain!({ projectId: 1, 'searchText.title': phraseFilter('vote') });
    expect(plan?.indexes).toContain('search searchText.title');
    await reopened.ensureIndex({ name: 'project_tags', keys: { projectId: 1, tags: 1 } });
    await expect(reopened.ensureIndex({ name: 'project_tags', keys: { projectId: 1 } })).rejects.toThrow();
    await expect(reopened.put(article('c', 'Harbour reopens', []))).rejects.toBeInstanceOf(DuplicateKeyError);
    await second.close();
  });

  it('shows a write to another process on the same file once the writer has had a turn of the event loop', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'read-store-')), 'read.sqlite');
    const writer = createSqliteReadStore(file, options);
    const other = createSqliteReadStore(file, options);
    await writer.collection(CONTENT_ITEMS).put(article('a', 'Budget vote', []));
    // Writes are grouped into one transaction until the writer's turn ends; its own reads see them at once.
    expect(await writer.collection(CONTENT_ITEMS).count({})).toBe(1);
    expect(await other.collection(CONTENT_ITEMS).count({})).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await other.collection(CONTENT_ITEMS).count({})).toBe(1);
    await Promise.all([writer.close(), other.close()]);
  });

  it('keeps its write-ahead log near 64 MB under a stream of large transactions, and leaves none once closed', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'read-store-')), 'read.sqlite');
    const store = createSqliteReadStore(file, options);
    const items = store.collection<Document>('bulk');
    const text = 'x'.repeat(4_000);
    const logSizes: number[] = [];
    // 48 transactions of about 4 MB: without checkpoints the log would reach about 200 MB.
    for (let round = 0; round < 48; round++) {
      await store.transaction!(async (transaction) => {
        for (let i = 0; i < 1_000; i++) await transaction.collection('bulk').put({ _id: `${round}-${i}`, text });
      });
      // The thread copies the log while the next transaction is written; here, a pause stands for that work.
      await new Promise((resume) => setTimeout(resume, 5));
      logSizes.push(statSync(`${file}-wal`).size);
    }
    expect(await items.count({})).toBe(48_000);
    // The file on disk keeps its largest size: it is written over from its start once wholly copied.
    expect(Math.max(...logSizes)).toBeLessThan(100 * 2 ** 20);
    await store.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = new Database(file, { readonly: true });
    expect(reopened.prepare('SELECT count(*) AS n FROM "rs:bulk"').get()).toEqual({ n: 48_000 });
    reopened.close();
  });

  it('goes on writing while another connection holds a snapshot, without waiting for the log at every transaction', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'read-store-')), 'read.sqlite');
    const store = createSqliteReadStore(file, options);
    await store.transaction!(async (transaction) => transaction.collection('bulk').put({ _id: 'first' }));
    const reader = new Database(file, { readonly: true });
    reader.exec('BEGIN');
    expect(reader.prepare('SELECT count(*) AS n FROM "rs:bulk"').get()).toEqual({ n: 1 });
    const text = 'x'.repeat(4_000);
    const rounds = 30;
    const started = performance.now();
    // 120 MB: past the log's 64 MB the copy cannot finish while the snapshot is held.
    for (let round = 0; round < rounds; round++) {
      await store.transaction!(async (transaction) => {
        for (let i = 0; i < 1_000; i++) await transaction.collection('bulk').put({ _id: `${round}-${i}`, text });
      });
      await new Promise((resume) => setTimeout(resume, 5));
    }
    // Waiting the longest each time would take DRAIN_WAIT_MS for each of the transactions past 64 MB (about 14 s).
    expect(performance.now() - started).toBeLessThan((rounds / 4) * DRAIN_WAIT_MS);
    expect(reader.prepare('SELECT count(*) AS n FROM "rs:bulk"').get()).toEqual({ n: 1 });
    reader.exec('COMMIT');
    reader.close();
    expect(await store.collection('bulk').count({})).toBe(rounds * 1_000 + 1);
    await store.close();
  });

  it('knows every collection another connection made while it opened, however their commits fall', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'read-store-')), 'read.sqlite');
    await createSqliteReadStore(file, options).close();
    // Another thread makes MADE collections, one a transaction, while a store opens, then waits: the store's next
    // write then finds the schema's version where the store left it, and goes by the schema the store loaded.
    const [RUN, PAUSED, MADE] = [0, 1, 5];
    const state = new Int32Array(new SharedArrayBuffer(8)).fill(RUN);
    const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    const storeModule = JSON.stringify(import.meta.resolve('../../src/infrastructure/readStore/sqlite.ts'));
    const maker = new Worker(
      `const { workerData: { file, state } } = require('node:worker_threads');
      import(${tsx}).then(({ register }) => { register(); return import(${storeModule}); }).then(async ({ createSqliteReadStore }) => {
        const store = createSqliteReadStore(file);
        for (let made = 0; ; ) {
          Atomics.store(state, 1, made);
          Atomics.store(state, 0, ${PAUSED});
          Atomics.notify(state, 0);
          Atomics.wait(state, 0, ${PAUSED});
          for (const last = made + ${MADE}; made < last; made += 1) {
            await store.transaction((inside) => inside.collection('made' + made).put({ _id: 'first', tags: ['a'] }));
          }
        }
      });`,
      { eval: true, workerData: { file, state } },
    );
    const paused = async () => {
      while (Atomics.load(state, 0) !== PAUSED) await new Promise((resolve) => setTimeout(resolve, 1));
    };
    try {
      await paused();
      for (let round = 0; round < 80; round++) {
        Atomics.store(state, 0, RUN);
        Atomics.notify(state, 0);
        // The store opens at another point of the thread's transactions each round.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, round % 4);
        const store = createSqliteReadStore(file, options);
        await paused();
        const made = Atomics.load(state, 1);
        await inTransaction(store, async (inside) => {
          for (let index = made - MADE; index < made; index++) await inside.collection(`made${index}`).put({ _id: `round${round}`, tags: ['b'] });
        });
        await store.close();
      }
    } finally {
      await maker.terminate();
    }
  }, 60_000);

  it('empties a file of an older layout, checkpoints included, so the projections refill it from the log', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'read-store-')), 'read.sqlite');
    const old = new Database(file);
    old.exec(`CREATE TABLE "rs:meta" (collection TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (collection, kind, name))`);
    old.exec(`INSERT INTO "rs:meta" VALUES ('contentItems', 'collection', '', ''), ('contentItems', 'search', '', '["title","body"]')`);
    old.exec(`CREATE TABLE "rs:contentItems" (rid INTEGER PRIMARY KEY, _id TEXT NOT NULL UNIQUE); INSERT INTO "rs:contentItems" VALUES (1, 'a')`);
    old.exec(`CREATE VIRTUAL TABLE "rs:contentItems:search" USING fts5(c0, c1, tokenize='trigram')`);
    old.close();

    const store = createSqliteReadStore(file, options);
    expect(await store.collection(CONTENT_ITEMS).count({})).toBe(0);
    expect(await store.collection(CHECKPOINTS).findOne({ _id: 'contentItems' })).toBeNull();
    await store.collection(CONTENT_ITEMS).put(article('a', 'Budget vote', ['economy']));
    expect((await store.collection(CONTENT_ITEMS).find({ title: { $regex: 'vote', $options: 'i' } })).map((item) => item._id)).toEqual(['a']);
    await store.close();
  });
});

describe('service restart on the embedded read store', () => {
  // The embedded default, whatever real servers the suite runs against.
  const embedded = { MONGODB_URL: '', READ_STORE: 'sqlite' };

  it('resumes from the saved checkpoints instead of replaying the log, and a rebuild replays it all', async () => {
    const dataDir = newDataDir();
    const first = await startServer({ dataDir, env: embedded });
    const ids: string[] = [];
    for (const title of ['Rivers rise', 'Bridge closed', 'Ferry resumes']) {
      const created = await first.request('POST', '/v1/projects/1/content', { body: { title, body: `<p>${title}.</p>` } });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    await first.stop();

    // Behind the service's back: one document goes, the checkpoints stay. A replay from position 0 would bring it back.
    const store = createSqliteReadStore(path.join(dataDir, 'read.sqlite'), options);
    expect((await store.collection<{ _id: string; position: number }>(CHECKPOINTS).findOne({ _id: 'contentItems' }))?.position).toBeGreaterThan(0);
    await store.collection(CONTENT_ITEMS).deleteOne(ids[0]!);
    await store.close();

    const second = await startServer({ dataDir, env: embedded });
    expect((await second.request('GET', `/v1/projects/1/content/${ids[0]}`)).status).toBe(404);
    expect((await second.request('GET', `/v1/projects/1/content/${ids[1]}`)).status).toBe(200);
    expect((await second.request('POST', '/v1/projects/1/content', { body: { title: 'Later', body: '<p>Later.</p>' } })).status).toBe(201);
    expect((await second.request('GET', '/v1/projects/1/content?filter[title]=ferry')).body.map((item: { id: string }) => item.id)).toEqual([ids[2]]);
    await second.stop();

    const rebuilt = await cli(serverEnv(dataDir, embedded), 'projections', 'rebuild', 'contentItems');
    expect(rebuilt.stdout).toMatch(/contentItems: rebuilt to position \d+ \(4 contentItems, 1 contentStats\); equal to the read model before the rebuild: no/);

    const third = await startServer({ dataDir, env: embedded });
    expect((await third.request('GET', `/v1/projects/1/content/${ids[0]}`)).status).toBe(200);
    expect((await third.request('GET', '/v1/projects/1/content?pagination[limit]=10')).body).toHaveLength(4);
    await third.stop();
  }, 120_000);
});
