// A long log on the embedded read store: a restart after 100,000 new events resumes from its checkpoints, and an
// online rebuild while the service serves and takes writes swaps in read models equal to a fresh replay of the log.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { searchedFields } from '../../src/composition.ts';
import type { Document, ReadStore } from '../../src/infrastructure/readStore/port.ts';
import { createSqliteReadStore } from '../../src/infrastructure/readStore/sqlite.ts';
import { allProjections } from '../../projections/index.ts';
import { catchUp, startProjections } from '../../projections/runner.ts';
import { bulkSeed } from '../support/bulkSeed.ts';
import { withEventStore } from '../support/eventStore.ts';
import { newDataDir, ROOT, serverEnv, startServer, type TestServer } from '../support/server.ts';

// The embedded default, whatever real servers the suite runs against.
const embedded = { MONGODB_URL: '', READ_STORE: 'sqlite' };
const CONTENT = '/v1/projects/1/content';
const OLDEST = `${CONTENT}?pagination[limit]=50&order[by]=created&order[dir]=asc&segments=none`;

const run = promisify(execFile);
/** The operator CLI, with room for a rebuild of 100,000 events on a shared machine. */
async function cli(env: Record<string, string>, ...args: string[]) {
  try {
    return { code: 0, ...(await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env, timeout: 240_000 })) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Every document of every read model, by collection, in `_id` order. */
async function readModels(read: ReadStore): Promise<Record<string, Document[]>> {
  const names = allProjections.flatMap((projection) => Object.keys(projection.collections));
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await read.collection(name).find({}, { sort: { _id: 1 } })] as const)));
}

/** Creates items and reads each back, one after another, until told to stop; every answer that is not 201/200 is kept. */
function keepWriting(server: TestServer) {
  let going = true;
  const failures: string[] = [];
  const ids: string[] = [];
  const done = (async () => {
    while (going) {
      const created = await server.request('POST', CONTENT, { body: { title: `During ${ids.length}`, body: '<p>Written during the rebuild.</p>' } });
      if (created.status !== 201) failures.push(`POST ${created.status}`);
      else ids.push(created.body.id);
      const list = await server.request('GET', OLDEST);
      if (list.status !== 200) failures.push(`GET list ${list.status}`);
      if (created.status === 201) {
        const read = await server.request('GET', `${CONTENT}/${created.body.id}`);
        if (read.status !== 200) failures.push(`GET item ${read.status}`);
      }
    }
  })();
  return {
    async stop() {
      going = false;
      await done;
      return { failures, ids };
    },
  };
}

let server: TestServer | undefined;
afterAll(() => server?.stop());

describe('a long log on the embedded read store', () => {
  it('resumes from its checkpoints after 100,000 new events, and an online rebuild under writes equals a fresh replay', async () => {
    const dataDir = newDataDir();
    const env = serverEnv(dataDir, embedded);
    server = await startServer({ dataDir, env: embedded });
    expect((await server.request('POST', CONTENT, { body: { title: 'Before the seeding', body: '<p>First.</p>' } })).status).toBe(201);
    await server.stop();
    server = undefined;

    const checkpointed = await withEventStore(env, (events) => events.headPosition());
    const head = await bulkSeed(env, 33_334, 'Seeded');
    expect(head - checkpointed).toBeGreaterThanOrEqual(100_000);

    // The runner says where it starts: after the checkpoints the first run saved, not at position 0.
    server = await startServer({ dataDir, env: embedded });
    expect(server.output()).toContain(`projections resume after position ${checkpointed}`);
    expect(server.output()).not.toContain('projections resume after position 0');
    const oldest = await server.request('GET', OLDEST);
    expect(oldest.status).toBe(200);
    expect(oldest.body.map((item: { title: string }) => item.title).slice(0, 3)).toEqual(['Seeded 0', 'Seeded 1', 'Seeded 2']);
    const sample = await server.request('GET', `${CONTENT}/${oldest.body[10].id}`);

    const writes = keepWriting(server!);
    const rebuilt = await cli(env, 'projections', 'rebuild', 'all');
    const { failures, ids } = await writes.stop();
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toMatch(/rebuild \[#+\] [\d,]+ \/ [\d,]+ events, [\d,]+ events\/s, done/);
    // A log this long is replayed on every core, each thread a share of the streams.
    expect(rebuilt.stderr).toContain(os.availableParallelism() > 1 ? `replaying on ${Math.min(os.availableParallelism(), 4)} threads` : 'replaying on one thread');
    expect(rebuilt.stderr).not.toContain('a thread failed');
    expect(rebuilt.stdout).toMatch(/contentItems: rebuilt to position \d+ \(\d+ contentItems/);
    expect(failures).toEqual([]);
    expect(ids.length).toBeGreaterThan(0);

    // The same answers as before the rebuild, and the writes made during it are there.
    expect((await server.request('GET', OLDEST)).body).toEqual(oldest.body);
    expect((await server.request('GET', `${CONTENT}/${oldest.body[10].id}`)).body).toEqual(sample.body);
    for (const id of [ids[0]!, ids.at(-1)!]) expect((await server.request('GET', `${CONTENT}/${id}`)).status).toBe(200);
    // The indexes and search indexes, built before the swap and kept current by the writes the shadows caught up
    // with, find old items and the ones written during the rebuild.
    expect(rebuilt.stderr).toContain("building the shadows' indexes before the swap");
    const titled = async (text: string) =>
      (await server!.request('GET', `${CONTENT}?filter[title]=${encodeURIComponent(text)}&pagination[limit]=100&segments=none`)).body.map((item: { title: string }) => item.title);
    expect(await titled('seeded 12345')).toEqual(['Seeded 12345']);
    expect(await titled(`During ${ids.length - 1}`)).toContain(`During ${ids.length - 1}`);
    expect(await titled('during 0')).toContain('During 0');
    await server.stop();
    server = undefined;

    const replayDir = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-'));
    try {
      const fresh = createSqliteReadStore(path.join(replayDir, 'read.sqlite'), { searchedFields });
      const replayed = await withEventStore(env, async (events) => {
        const runner = await startProjections(events, fresh, allProjections);
        await catchUp(events, runner);
        await runner.close();
        return readModels(fresh);
      });
      await fresh.close();
      const live = createSqliteReadStore(path.join(dataDir, 'read.sqlite'), { searchedFields });
      const served = await readModels(live);
      await live.close();
      expect(served.contentItems!.length).toBe(1 + 33_334 + ids.length);
      for (const name of Object.keys(replayed)) expect(served[name], name).toEqual(replayed[name]);
    } finally {
      fs.rmSync(replayDir, { recursive: true, force: true });
    }
  }, 600_000);
});
