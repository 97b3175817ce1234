// The projections lease on every read store: one holder per term, takeover once a term runs out or its holder died
// on this host, renewals that come too late lose it, and a leader's writes stop the moment its term is over.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReadStore } from '../../src/infrastructure/readStore/port.ts';
import { createMemoryReadStore } from '../../src/infrastructure/readStore/memory.ts';
import { createMongoReadStore } from '../../src/infrastructure/readStore/mongo.ts';
import { createSqliteReadStore } from '../../src/infrastructure/readStore/sqlite.ts';
import { LEASES, openLease, type LeaseTerm } from '../../projections/lease.ts';
import { fencedStore, LeaseLost } from '../../projections/fencedStore.ts';

const TTL = 10_000;

function leaseSuite(name: string, open: () => Promise<ReadStore>) {
  describe(`projections lease on ${name}`, () => {
    let clock = 1_000_000;
    const now = () => clock;
    const lease = async (store: ReadStore, leaseName: string) => openLease(store, { name: leaseName, ttlMs: TTL, now });

    it('gives each term to one process, hands it over once it has run out, and the old holder learns it lost', async () => {
      const store = await open();
      const name = `l_${randomUUID()}`;
      const [a, b, c] = [await lease(store, name), await lease(store, name), await lease(store, name)];
      const claims = await Promise.all([a.claim(7), b.claim(7), c.claim(7)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      const holder = [a, b, c][claims.indexOf(true)]!;
      const others = [a, b, c].filter((lease) => lease !== holder);
      expect(holder.term).toBe(1);
      expect(holder.valid()).toBe(true);

      // Renewed in time, it holds on past the first term's end; the others cannot take it.
      clock += TTL / 4;
      expect(await holder.renew()).toBe(true);
      await holder.publish(42);
      clock += TTL - 1;
      expect(await others[0]!.claim(42)).toBe(false);
      expect((await others[1]!.latest())?.position).toBe(42);

      // Not renewed: it runs out, the next term goes to one of the others, and the old holder finds out.
      clock += TTL;
      expect(holder.valid()).toBe(false);
      const next = await Promise.all(others.map((lease) => lease.claim(42)));
      expect(next.filter(Boolean)).toHaveLength(1);
      const successor = others[next.indexOf(true)]!;
      expect(successor.term).toBe(2);
      expect(await holder.renew()).toBe(false);
      expect(holder.term).toBeNull();
      expect(await successor.latest()).toMatchObject({ term: 2, owner: successor.owner, from: 42, position: 42 });
      await store.close();
    });

    it('lets the next process in at once when the holder releases its term', async () => {
      const store = await open();
      const name = `l_${randomUUID()}`;
      const [a, b] = [await lease(store, name), await lease(store, name)];
      expect(await a.claim(0)).toBe(true);
      expect(await b.claim(0)).toBe(false);
      await a.release();
      expect(a.valid()).toBe(false);
      expect(await b.claim(0)).toBe(true);
      expect(b.term).toBe(2);
      await store.close();
    });

    it('does not wait for the term of a process of this host that no longer exists', async () => {
      const store = await open();
      const name = `l_${randomUUID()}`;
      const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
      const term: LeaseTerm = { _id: `${name}:0000000001`, name, term: 1, owner: 'gone', host: hostname(), pid: dead, expiresAt: clock + TTL, position: 5, from: 0, since: '' };
      await store.collection<LeaseTerm>(LEASES).insert(term);
      const b = await lease(store, name);
      expect(await b.claim(5)).toBe(true);
      expect(b.term).toBe(2);
      await store.close();
    });

    it('stops the leader writing once its term is over, and counts a renewal that ends too late as lost', async () => {
      const store = await open();
      const name = `l_${randomUUID()}`;
      const a = await lease(store, name);
      expect(await a.claim(0)).toBe(true);
      const collection = `w_${randomUUID()}`;
      const writes = fencedStore(store, () => a.valid()).collection(collection);
      await writes.put({ _id: 'in-term' });
      clock += TTL;
      await expect(writes.put({ _id: 'after' })).rejects.toBeInstanceOf(LeaseLost);
      await expect(writes.deleteOne('in-term')).rejects.toBeInstanceOf(LeaseLost);
      await expect(writes.insert({ _id: 'inserted' })).rejects.toBeInstanceOf(LeaseLost);
      expect(await store.collection(collection).find({})).toEqual([{ _id: 'in-term' }]);
      expect(await a.renew()).toBe(false);
      await store.close();
    });
  });
}

leaseSuite('memory', async () => createMemoryReadStore());

describe('SQLite', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lease-'));
  leaseSuite('sqlite', async () => createSqliteReadStore(path.join(dir, `read-${randomUUID()}.sqlite`)));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
});

const server = process.env.TEST_MONGODB_URL;
describe.skipIf(!server)('MongoDB', () => {
  const url = `${server?.replace(/\/+$/, '')}/lease_${randomUUID().replaceAll('-', '')}`;
  leaseSuite('mongodb', () => createMongoReadStore(url));
  afterAll(async () => {
    const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5000 });
    await client.db().dropDatabase();
    await client.close();
  });
});
