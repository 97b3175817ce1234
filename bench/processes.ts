// Two API processes on FerretDB sharing one event store: write and read latency on the projections leader and on
// its follower, and how long the projections stand still when the leader is killed (docs/deployment.md).
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, dropDatabase, mongoUrlFor, percentile, startServer, type Server } from './service.ts';

const { values } = parseArgs({
  options: {
    mongodb: { type: 'string', default: process.env.TEST_MONGODB_URL ?? 'mongodb://127.0.0.1:27018' },
    'lease-ms': { type: 'string', default: '10000' },
    requests: { type: 'string', default: '60' },
    kills: { type: 'string', default: '3' },
  },
});
const KEY = 'bench_processes_key_0123456789';
const leaseMs = Number(values['lease-ms']);
const requests = Number(values.requests);

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-processes-'));
const mongoUrl = mongoUrlFor(values.mongodb!, 'bench_processes');
const env = { ...benchEnv(dataDir, KEY, { generation: false, mongoUrl }), PROJECTION_LEASE_MS: String(leaseMs), LOG_LEVEL: 'info' };

const ms = (value: number) => value.toFixed(1);

async function timed(server: Server, method: string, route: string, body?: unknown): Promise<{ ms: number; status: number; json: any }> {
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { 'x-api-key': KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const json = await response.json();
  return { ms: performance.now() - started, status: response.status, json };
}

let created = 0;
const create = (server: Server) => timed(server, 'POST', '/v1/projects/1/content', { title: `Item ${created}`, body: `<p>Item ${created++}.</p>` });

const start = () => startServer(env, [], () => undefined);

async function latencies(leader: Server, follower: Server) {
  const rows: string[] = [];
  for (const [role, server] of [['leader', leader], ['follower', follower]] as const) {
    const writes: number[] = [];
    const reads: number[] = [];
    for (let i = 0; i < requests; i++) {
      const write = await create(server);
      if (write.status !== 201) throw new Error(`create answered ${write.status}`);
      writes.push(write.ms);
      reads.push((await timed(server, 'GET', `/v1/projects/1/content/${write.json.id}`)).ms);
    }
    rows.push(`| ${role} | ${ms(percentile(writes, 50))} / ${ms(percentile(writes, 99))} | ${ms(percentile(reads, 50))} / ${ms(percentile(reads, 99))} |`);
  }
  return rows;
}

let servers: Server[] = [];
try {
  servers.push(await start());
  servers.push(await start());
  console.log(`Node ${process.version}; FerretDB at ${values.mongodb}; PROJECTION_LEASE_MS=${leaseMs}; ${requests} sequential requests per row\n`);
  console.log('| process | create (POST, read-your-writes) p50 / p99 ms | get one p50 / p99 ms |');
  console.log('|---|---|---|');
  for (const row of await latencies(servers[0]!, servers[1]!)) console.log(row);

  // A leader frozen (SIGSTOP: a long pause, or cut off from the network) rather than killed: on one host a dead
  // process's term is taken at once, a frozen one's only when it runs out, as across hosts.
  console.log('\n| pause | frozen → new leader (s) | creates on the survivor meanwhile: p50 / max ms | old leader resumed → it stopped leading (ms) |');
  console.log('|---|---|---|---|');
  const count = (server: Server, pattern: RegExp) => (server.output().match(pattern) ?? []).length;
  const LEADING = /leading the projections/g;
  const LOST = /projections lease lost/g;
  for (let pause = 1; pause <= Number(values.kills); pause++) {
    const leader = servers.find((server) => count(server, LEADING) > count(server, LOST))!;
    const survivor = servers.find((server) => server !== leader)!;
    const [leadingBefore, lostBefore] = [count(survivor, LEADING), count(leader, LOST)];
    const frozen = performance.now();
    process.kill(leader.pid, 'SIGSTOP');
    const gap: number[] = [];
    while (count(survivor, LEADING) === leadingBefore) {
      if (performance.now() - frozen > 4 * leaseMs) throw new Error(`no takeover within ${4 * leaseMs} ms:\n${survivor.output().slice(-3_000)}`);
      gap.push((await create(survivor)).ms);
    }
    const tookOver = performance.now() - frozen;
    const resumed = performance.now();
    process.kill(leader.pid, 'SIGCONT');
    while (count(leader, LOST) === lostBefore) {
      if (performance.now() - resumed > 4 * leaseMs) throw new Error(`the old leader did not step down:\n${leader.output().slice(-3_000)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const stepped = performance.now() - resumed;
    console.log(`| ${pause} | ${(tookOver / 1000).toFixed(1)} | ${ms(percentile(gap, 50))} / ${ms(Math.max(...gap))} | ${stepped.toFixed(0)} |`);
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await dropDatabase(mongoUrl);
  rmSync(dataDir, { recursive: true, force: true });
}
