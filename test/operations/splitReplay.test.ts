// A rebuild replayed on several threads, each a share of the content streams: the same read models as on one thread,
// project statistics included where items left, and back to one thread when a thread fails.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchedFields } from '../../src/composition.ts';
import type { Document } from '../../src/infrastructure/readStore/port.ts';
import { createSqliteReadStore } from '../../src/infrastructure/readStore/sqlite.ts';
import { allProjections } from '../../projections/index.ts';
import { cli } from '../support/cli.ts';
import { withEventStore } from '../support/eventStore.ts';
import { newDataDir, serverEnv, startServer, type TestServer } from '../support/server.ts';

// The embedded default, whatever real servers the suite runs against.
const embedded = { MONGODB_URL: '', READ_STORE: 'sqlite' };

let dataDir: string;
let env: Record<string, string>;
let server: TestServer | undefined;
afterAll(() => server?.stop());

/** Every document of every read model, by collection, in `_id` order, from the data dir's read store. */
async function readModels(): Promise<Record<string, Document[]>> {
  const read = createSqliteReadStore(path.join(dataDir, 'read.sqlite'), { searchedFields });
  try {
    const names = allProjections.flatMap((projection) => Object.keys(projection.collections));
    return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await read.collection(name).find({}, { sort: { _id: 1 } })] as const)));
  } finally {
    await read.close();
  }
}

const rebuildAll = async (threads: number) => {
  const rebuilt = await cli(env, 'projections', 'rebuild', 'all', '--threads', String(threads));
  expect(rebuilt.code, rebuilt.stderr).toBe(0);
  return rebuilt;
};

beforeAll(async () => {
  dataDir = newDataDir();
  env = serverEnv(dataDir, embedded);
  server = await startServer({ dataDir, env: embedded });
  const second = await server.request('POST', '/v1/projects', { body: { name: 'Second' } });
  expect(second.status).toBe(201);
  const ids: Record<number, string[]> = { 1: [], [second.body.id]: [] };
  for (let n = 0; n < 40; n++) {
    const project = n % 3 === 0 ? second.body.id : 1;
    const created = await server.request('POST', `/v1/projects/${project}/content`, { body: { title: `Item ${n}`, body: `<p>Item ${n}, some words.</p>`, tags: [`t${n % 4}`] } });
    expect(created.status).toBe(201);
    ids[project]!.push(created.body.id);
  }
  for (const id of ids[1]!.slice(0, 5)) expect((await server.request('PUT', `/v1/projects/1/content/${id}`, { body: { title: `Changed ${id}` } })).status).toBe(200);
  // The newest item of each project leaves: its statistics fall back to the next newest.
  for (const project of Object.keys(ids)) expect((await server.request('DELETE', `/v1/projects/${project}/content/${ids[Number(project)]!.at(-1)}`)).status).toBe(204);
  expect((await server.request('DELETE', `/v1/projects/1/content/${ids[1]![2]}`)).status).toBe(204);
  await server.stop();
  server = undefined;
});

describe('a rebuild on several threads', () => {
  it('swaps in the read models a rebuild on one thread makes', async () => {
    const single = await rebuildAll(1);
    expect(single.stderr).toContain('replaying on one thread: 1 thread to run on');
    const replayed = await readModels();
    expect(replayed.contentItems).toHaveLength(40 - 3);
    expect(replayed.contentStats!.map(({ total }) => total).sort()).toEqual([13, 24]);

    const split = await rebuildAll(3);
    expect(split.stderr).toContain('replaying on 3 threads, each a share of the streams');
    // Its reason in the failure's first line, if there is one.
    expect(split.stderr.split('\n').find((line) => line.includes('replaying on one thread')), 'the rebuild fell back').toBeUndefined();
    expect(split.stderr).toMatch(/rebuild \[#+\] [\d,]+ \/ [\d,]+ events, [\d,]+ events\/s, done/);
    // The rebuild compares its shadows with the read models they replace, the ones the single thread made.
    for (const { name } of allProjections) expect(split.stdout).toContain(`${name}: rebuilt to position`);
    expect(split.stdout).not.toMatch(/equal to the read model before the rebuild: no/);
    expect(await readModels()).toEqual(replayed);
  });

  it('replays on one thread when a thread fails, and quarantines what it could not apply', async () => {
    const before = await readModels();
    // A document no read store holds (nested deeper than SQLite parses), appended as an old release could have.
    const poison = await withEventStore(env, async (events) => {
      const [created] = await events.readStream(`content-${before.contentItems![0]!._id}`);
      let deep: unknown = 'bottom';
      for (let level = 0; level < 3_700; level++) deep = [deep];
      const data = { ...(created!.data as { fields: object }), fields: { ...(created!.data as { fields: object }).fields, title: 'Poison', backgroundTrack: { a: deep } } };
      return (await events.appendToStream(`content-${randomUUID()}`, [{ type: 'ContentCreated', data }], 'no_stream')).position;
    });
    const rebuilt = await rebuildAll(2);
    expect(rebuilt.stderr).toContain('replaying on 2 threads');
    expect(rebuilt.stderr).toMatch(/replaying on one thread: a thread failed \(.*nested deeper than SQLite parses JSON/);
    expect(rebuilt.stderr).toContain(`projection contentItems quarantined position ${poison}`);
    // The items as before. (The project's statistics took the poison's change, which came before its item's write.)
    const after = await readModels();
    expect(after.contentItems).toEqual(before.contentItems);
    // Once the log holds a quarantine, the runner alone keeps its streams parked.
    expect((await rebuildAll(2)).stderr).toContain('replaying on one thread: the log has a quarantine');
    expect(await readModels()).toEqual(after);
  });
});
