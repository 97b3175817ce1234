// Many processes on the production stack: two API processes and a Temporal worker share the event store (SQLite, by
// path), FerretDB and Temporal; the projections leader is killed mid-writes, the other process takes over, and every
// projection ends up having applied every event of the log once: nothing acknowledged lost, nothing doubled.
import { spawn, type ChildProcess } from 'node:child_process';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { newDataDir, ROOT, serverEnv, startWorker, TEST_KEY } from '../support/server.ts';
import { withEventStore } from '../support/eventStore.ts';

const stack = Boolean(process.env.TEST_MONGODB_URL && process.env.TEST_TEMPORAL_ADDRESS);
const LEASE_MS = 3_000;

interface Api {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

/** One API process (src/main.ts), ready once it says where it listens. */
function startApi(env: Record<string, string>): Promise<Api> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the API did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, baseUrl: `http://127.0.0.1:${port}`, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the API exited with ${code}:\n${output}`)));
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

async function call(api: Api, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${api.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': TEST_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** Each item's title as its own stream says, folded from the log: what every read model must show. */
async function titlesInTheLog(env: Record<string, string>) {
  return withEventStore(env, async (events) => {
    const titles = new Map<string, string>();
    let head = 0;
    for (let after = 0; ; ) {
      const page = await events.readAll(after, 1_000);
      if (page.length === 0) break;
      for (const event of page) {
        const data = event.data as { fields?: { title?: string }; changes?: { title?: string } };
        const id = event.stream.slice('content-'.length);
        if (event.type === 'ContentCreated') titles.set(id, data.fields!.title!);
        if (event.type === 'ContentUpdated' && data.changes?.title !== undefined) titles.set(id, data.changes.title);
        if (event.type === 'ContentDeleted') titles.delete(id);
      }
      after = head = page.at(-1)!.position;
    }
    return { titles, head };
  });
}

describe.skipIf(!stack)('two API processes and a worker on FerretDB and Temporal', () => {
  it('moves the projections to the surviving process when their leader is killed mid-writes, losing and doubling nothing', async () => {
    const dataDir = newDataDir();
    const env = serverEnv(dataDir, { GENERATION_ENABLED: 'true', PROJECTION_LEASE_MS: String(LEASE_MS) });
    const first = await startApi(env);
    const [second, worker] = await Promise.all([startApi(env), startWorker(env)]);
    const database = new MongoClient(env.MONGODB_URL!);
    try {
      expect(first.output()).toMatch(/leading the projections: lease term 1, resuming from position 0/);
      expect(second.output()).not.toMatch(/leading the projections/);

      // Writes go to both processes, two at a time each; the leader is killed once 20 have been acknowledged.
      const titles = new Map<string, string>();
      const refused: string[] = [];
      let acknowledged = 0;
      let killedAt: number | null = null;
      const write = async (api: Api, i: number) => {
        try {
          const created = await call(api, 'POST', '/v1/projects/1/content', { title: `Item ${i}`, body: `<p>Item ${i} is short.</p>` });
          if (created.status !== 201) return void refused.push(`create ${i}: ${created.status} ${JSON.stringify(created.body)}`);
          titles.set(created.body.id, `Item ${i}`);
          const updated = await call(api, 'PUT', `/v1/projects/1/content/${created.body.id}`, { title: `Item ${i}, revised` });
          if (updated.status !== 200) return void refused.push(`update ${i}: ${updated.status}`);
          expect(updated.body.title).toBe(`Item ${i}, revised`);
          titles.set(created.body.id, `Item ${i}, revised`);
          if (++acknowledged === 20) {
            killedAt = Date.now();
            first.child.kill('SIGKILL');
          }
        } catch (error) {
          // Only the killed process may fail to answer, and only by dropping the connection.
          if (api !== first || killedAt === null) throw error;
        }
      };
      for (let round = 0; round < 12; round++) {
        await Promise.all([0, 1, 2, 3].map((k) => write(k % 2 === 0 ? first : second, round * 4 + k)));
      }
      expect(refused).toEqual([]);
      expect(killedAt).not.toBeNull();
      expect(acknowledged).toBeGreaterThan(25);

      // The survivor takes the next term once the killed one's has run out, resuming from the committed checkpoint.
      await expect.poll(() => second.output(), { timeout: LEASE_MS * 5 }).toMatch(/leading the projections: lease term \d+, resuming from position \d+/);
      const terms = await database.db().collection('leases').find({ name: 'projections' }).sort({ term: 1 }).toArray();
      expect(terms[0]).toMatchObject({ term: 1, pid: first.child.pid });
      expect(terms.at(-1)).toMatchObject({ term: terms.length, pid: second.child.pid });
      // It resumed from the checkpoint the killed leader had committed, not from the start of the log.
      expect(terms.at(-1)!.from).toBeGreaterThan(0);

      // Every projection has passed the whole log as read here (the worker goes on appending generation events, so
      // a projection may be further on by then), and the read models show exactly what the log says.
      const log = await titlesInTheLog(env);
      await expect
        .poll(async () => ((await call(second, 'GET', '/ready')).body.projections as { position: number }[]).every(({ position }) => position >= log.head), { timeout: 60_000 })
        .toBe(true);
      for (const [id, title] of titles) expect(log.titles.get(id), `acknowledged ${id} in the log`).toBe(title);
      const listed = new Map<string, string>();
      for (let offset = 0; ; offset += 100) {
        const { body } = await call(second, 'GET', `/v1/projects/1/content?pagination[limit]=100&pagination[offset]=${offset}`);
        for (const item of body as { id: string; title: string }[]) listed.set(item.id, item.title);
        if ((body as unknown[]).length < 100) break;
      }
      expect(listed).toEqual(log.titles);
      // The per-project count is kept by the projection event by event: an event applied twice or skipped would show.
      const project = await call(second, 'GET', '/v1/projects/1');
      expect(project.body.content_total_count).toBe(log.titles.size);

      // The generation reactor followed the lease too: items created while no process led are generated all the same.
      const unfinished = async () =>
        ((await call(second, 'GET', '/v1/projects/1/content?filter[statuses][]=queued&filter[statuses][]=processing&pagination[limit]=100')).body as unknown[]).length;
      await expect.poll(unfinished, { timeout: 240_000, interval: 1_000 }).toBe(0);
      const statuses = new Set<string>();
      for (const id of log.titles.keys()) statuses.add((await call(second, 'GET', `/v1/projects/1/content/${id}`)).body.status);
      expect([...statuses]).toEqual(['processed']);
    } finally {
      await database.db().dropDatabase().catch(() => undefined);
      await database.close();
      await Promise.all([stop(first.child, 'SIGKILL'), stop(second.child), stop(worker.child)]);
    }
  }, 400_000);

  it('counts rate limits and honours idempotency keys across both processes', async () => {
    const dataDir = newDataDir();
    const env = serverEnv(dataDir, { RATE_LIMIT_GET: '30', PROJECTION_LEASE_MS: String(LEASE_MS) });
    const first = await startApi(env);
    const second = await startApi(env);
    try {
      // 40 reads with one key, half on each process, all at once: the key's 30 pass, wherever they land.
      const reads = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 === 0 ? first : second, 'GET', '/v1/projects/1/content?pagination[limit]=1')));
      const passed = reads.filter((reply) => reply.status === 200);
      const refused = reads.filter((reply) => reply.status !== 200);
      expect(passed).toHaveLength(30);
      expect(passed.map((reply) => Number(reply.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      for (const reply of refused) {
        expect(reply.status).toBe(429);
        expect(reply.body).toMatchObject({ code: 429, message: 'Too Many Requests' });
        expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(reply.headers.get('x-ratelimit-limit')).toBe('30');
        expect(reply.headers.get('x-ratelimit-remaining')).toBe('0');
      }
      expect(passed.every((reply) => reply.headers.get('x-ratelimit-reset') === passed[0]!.headers.get('x-ratelimit-reset'))).toBe(true);

      // The same Idempotency-Key sent to both processes at once, then again to each: one item, one answer.
      const article = { title: 'Once only', body: '<p>Once.</p>', source_id: 'idempotent-across' };
      const key = { 'idempotency-key': 'across-processes-1' };
      const racing = await Promise.all([call(first, 'POST', '/v1/projects/1/content', article, key), call(second, 'POST', '/v1/projects/1/content', article, key)]);
      const created = racing.find((reply) => reply.status === 201 && reply.headers.get('idempotent-replayed') === null);
      expect(created, JSON.stringify(racing.map((reply) => [reply.status, reply.body]))).toBeDefined();
      for (const reply of racing) expect([201, 409]).toContain(reply.status);
      for (const api of [first, second]) {
        const again = await call(api, 'POST', '/v1/projects/1/content', article, key);
        expect(again.status).toBe(201);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.body).toEqual(created!.body);
      }
      // Reads are spent for this minute: the log says how many items were created.
      const { titles } = await titlesInTheLog(env);
      expect([...titles.values()].filter((title) => title === 'Once only')).toHaveLength(1);
    } finally {
      const database = new MongoClient(env.MONGODB_URL!);
      await database.db().dropDatabase().catch(() => undefined);
      await database.close();
      await Promise.all([stop(first.child), stop(second.child)]);
    }
  }, 120_000);
});
