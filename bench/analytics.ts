// Listening analytics at scale, on the embedded defaults: ingestion (batched events/s and single-event requests/s),
// the import, the 90-day daily content query at 100,000 and 1,000,000 stored events (p50/p99: at once after the
// service has counted the import, and again once it is at rest), and the rebuild.
//
//   npm run bench:analytics [-- --duration 5 --rounds 3 --queries 300 --small 100000 --large 1000000]
import { execFile } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { generateTraffic } from './traffic.ts';
import { benchEnv, CLI_NODE_FLAGS, median, percentile, startServer, type Server } from './service.ts';
import { API_KEY, cpuMs, loadAverage, loadRunner, machineLine, wholeOption } from './support.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    queries: { type: 'string', default: '300' },
    small: { type: 'string', default: '100000' },
    large: { type: 'string', default: '1000000' },
    items: { type: 'string', default: '200' },
  },
});
const settings = { duration: wholeOption(args, 'duration', 1), connections: 16, rounds: wholeOption(args, 'rounds', 1), warmup: 2 };
const QUERIES = wholeOption(args, 'queries', 10);
const SMALL = wholeOption(args, 'small', 1000);
const LARGE = wholeOption(args, 'large', SMALL);
const ITEMS = wholeOption(args, 'items', 1);

const headers = { 'x-api-key': API_KEY, 'content-type': 'application/json' };
const dirs: string[] = [];
let server: Server | undefined;

async function start(): Promise<{ server: Server; dataDir: string; env: Record<string, string> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-analytics-'));
  dirs.push(dataDir);
  const env = benchEnv(dataDir, API_KEY, { generation: false });
  server = await startServer(env, [], (message) => {
    console.error(message);
    process.exit(1);
  });
  return { server, dataDir, env };
}

async function createItems(baseUrl: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const response = await fetch(`${baseUrl}/v1/projects/1/content`, { method: 'POST', headers, body: JSON.stringify({ title: `Story ${index}`, body: 'A story.' }) });
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

const event = (contentId: string, type: string) => ({
  event_type: type,
  device_type: 'desktop',
  media_type: 'content',
  media_variant: 'article',
  project_id: 1,
  content_id: contentId,
  listen_session_id: '6f1c2a7e-3b8d-4e5f-9a0b-1c2d3e4f5a6b',
  local_storage_id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  media_format: 'audio',
  duration: 120,
  listen_length_seconds: 12,
  listen_length_percent: 10,
  speed: 1,
  location: 'https://news.example.com/story',
  referrer: '',
  player_version: '1',
  player_npm_version: '0.2.3',
});

async function ingestion() {
  const { server, dataDir } = await start();
  const [item] = await createItems(server.baseUrl, 1);
  const load = loadRunner(settings, headers);
  console.log(`\n### Ingestion (POST /v1/analytics/events, ${settings.connections} connections, ${settings.duration} s rounds)\n`);
  console.log('| scenario | req/s (median) | p50 ms | p99 ms | non-2xx | errors | req/s per round |\n|---|---:|---:|---:|---:|---:|---|');
  const single = await load.scenario(server.baseUrl, 'single events', [{ method: 'POST', path: '/v1/analytics/events', body: JSON.stringify(event(item!, 'play_progress')) }]);
  const batch = JSON.stringify(Array.from({ length: 1_000 }, () => event(item!, 'play_progress')));
  const batched = await load.scenario(server.baseUrl, 'batches of 1,000', [{ method: 'POST', path: '/v1/analytics/events', body: batch }]);
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  return { singleRps: median(single.map((round) => round.rps)), batchedEps: median(batched.map((round) => round.rps)) * 1_000 };
}

async function writeTraffic(file: string, items: string[], events: number, seed: number) {
  const out = createWriteStream(file);
  let written = 0;
  const now = Date.now();
  for (const line of generateTraffic({ projectId: 1, contentIds: items, sessions: events, from: new Date(now - 90 * 86_400_000), to: new Date(now - 60_000), seed })) {
    if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
    if (++written === events) break;
  }
  out.end();
  await once(out, 'finish');
}

const cli = async (env: Record<string, string>, ...cliArgs: string[]) => {
  const started = performance.now();
  const { stdout, stderr } = await run(process.execPath, [...CLI_NODE_FLAGS, '--import', 'tsx', 'src/cli.ts', ...cliArgs], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024, timeout: 1_800_000 });
  return { seconds: (performance.now() - started) / 1000, stdout, stderr };
};

const get = async (baseUrl: string, requestPath: string) => {
  const response = await fetch(`${baseUrl}${requestPath}`, { headers });
  if (response.status !== 200) throw new Error(`${requestPath}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<any>;
};

/** The projection has every imported event when the organization's impressions reach the sessions' loads. */
async function caughtUp(baseUrl: string, loads: number) {
  const started = performance.now();
  const start = new Date(Date.now() - 92 * 86_400_000).toISOString().slice(0, 10);
  for (;;) {
    const [record] = await get(baseUrl, `/v1/projects/1/analytics?aggregation=all&start_date=${start}`);
    if (record.player_impressions.total >= loads) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Queries before the measured ones, reported apart: the service's first answers of a kind take several times as long
 * (its code not yet compiled, the store's statements not yet prepared, pages not yet read), 150 ms for the first.
 */
const WARMUP_QUERIES = 20;

/** p50/p99 of the 90-day daily query of items picked across the popularity range, after the warm-up; the warm-up's slowest. */
async function queryTimes(baseUrl: string, items: string[]) {
  const start = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
  const times: number[] = [];
  for (let index = 0; index < WARMUP_QUERIES + QUERIES; index++) {
    const item = items[(index * 7) % Math.min(items.length, 20)]!;
    const started = performance.now();
    const records = await get(baseUrl, `/v1/projects/1/content/${item}/analytics?aggregation=day&start_date=${start}&end_date=today`);
    times.push(performance.now() - started);
    if (records.length !== 90) throw new Error(`expected 90 daily records, got ${records.length}`);
  }
  const measured = times.slice(WARMUP_QUERIES);
  return { p50: percentile(measured, 50), p99: percentile(measured, 99), warmup: Math.max(...times.slice(0, WARMUP_QUERIES)) };
}

/**
 * Waits until the service has used less than a tenth of a core for a whole second: after counting an import it
 * still copies its write-ahead log into the file and refreshes the planner's statistics. The seconds that took.
 */
async function atRest(pid: number): Promise<number> {
  const started = performance.now();
  for (let before = cpuMs(pid)?.own ?? 0; performance.now() - started < 120_000; ) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = cpuMs(pid)?.own ?? 0;
    if (now - before < 100) break;
    before = now;
  }
  return (performance.now() - started) / 1000;
}

/** Sessions of the generator average about 3.3 events: enough sessions for `events` events, and their loads. */
const countLoads = async (file: string) => {
  let loads = 0;
  const { createInterface } = await import('node:readline');
  const { createReadStream } = await import('node:fs');
  for await (const line of createInterface({ input: createReadStream(file) })) if (line.includes('"media_type":"content"') && line.includes('"event_type":"load"')) loads += 1;
  return loads;
};

async function scale() {
  const { server, dataDir, env } = await start();
  const items = await createItems(server.baseUrl, ITEMS);
  const rows: string[] = [];
  let stored = 0;
  let loads = 0;
  for (const [target, seed] of [[SMALL, 1], [LARGE, 2]] as const) {
    const file = path.join(dataDir, `events-${seed}.ndjson`);
    await writeTraffic(file, items, target - stored, seed);
    loads += await countLoads(file);
    const imported = await cli(env, 'analytics', 'import', file);
    const importRate = (target - stored) / imported.seconds;
    stored = target;
    const projected = await caughtUp(server.baseUrl, loads);
    const times = await queryTimes(server.baseUrl, items);
    const restSeconds = await atRest(server.pid);
    const rested = await queryTimes(server.baseUrl, items);
    rows.push(
      `| ${stored.toLocaleString('en')} | ${Math.round(importRate).toLocaleString('en')} | ${(imported.seconds + projected).toFixed(1)} | ${times.warmup.toFixed(1)} | ${times.p50.toFixed(1)} | ${times.p99.toFixed(1)} | ${restSeconds.toFixed(0)} | ${rested.p50.toFixed(1)} | ${rested.p99.toFixed(1)} |`,
    );
  }
  const rebuilt = await cli(env, 'analytics', 'rebuild');
  const rebuildRate = stored / rebuilt.seconds;
  const last = rebuilt.stdout.trim().split('\n').at(-1);
  // From the start of the rebuild to its swap, after which the service reads the rebuilt figures (the CLI's own start and its clean-up after excluded).
  const toSwap = Number(/served from the rebuilt read model ([\d.]+) s after the start/.exec(rebuilt.stdout)?.[1] ?? NaN);
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  return { rows, rebuildRate, rebuildSeconds: rebuilt.seconds, swapRate: stored / toSwap, toSwap, last };
}

try {
  console.log(`# Listening analytics\n\n${machineLine()}; load average at start ${loadAverage()}`);
  const { singleRps, batchedEps } = await ingestion();
  console.log(`\n### Stored events and the 90-day daily content query (${QUERIES} queries after ${WARMUP_QUERIES} of warm-up, ${ITEMS} items)\n`);
  const { rows, rebuildRate, rebuildSeconds, swapRate, toSwap, last } = await scale();
  console.log(
    `| events stored | import events/s | import + projection s | slowest of the ${WARMUP_QUERIES} warm-up queries, ms | query p50 ms, at once | query p99 ms, at once | service at rest after s | query p50 ms, at rest | query p99 ms, at rest |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
  );
  for (const row of rows) console.log(row);
  console.log(`\n### Targets\n\n| figure | measured | target |\n|---|---:|---:|`);
  console.log(`| batched ingestion, events/s | ${Math.round(batchedEps).toLocaleString('en')} | ≥ 20,000 |`);
  console.log(`| single-event requests/s | ${Math.round(singleRps).toLocaleString('en')} | ≥ 3,000 |`);
  console.log(`| analytics rebuild to the swap, player events/s (${LARGE.toLocaleString('en')} in ${toSwap.toFixed(1)} s) | ${Math.round(swapRate).toLocaleString('en')} | ≥ 100,000 |`);
  console.log(`| analytics rebuild, whole CLI run, player events/s (${rebuildSeconds.toFixed(1)} s: its start and the drop of the replaced tables included) | ${Math.round(rebuildRate).toLocaleString('en')} | |`);
  console.log(`\nrebuild: ${last}\nload average at end ${loadAverage()}`);
} finally {
  await server?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
