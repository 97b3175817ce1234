// Read costs against the size of one project: seeds N items (bench/seed.ts), starts the service on them, and prints p50/p99 per request kind.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BUILT_MAIN, TSX_MAIN, benchEnv, gitCommit, median, percentile, startServer, type Server } from './service.ts';

const API_KEY = 'bench_bootstrap_key_0123456789';
const ROOT = path.resolve(import.meta.dirname, '..');

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '1000,100000' },
    requests: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '10' },
    starts: { type: 'string', default: '5' },
    'cache-dir': { type: 'string', default: path.join(tmpdir(), 'bench-lists') },
    'read-store': { type: 'string', default: 'sqlite' },
  },
});
const sizes = args.items.split(',').map(Number);
const requests = Number(args.requests);
const warmup = Number(args.warmup);
const starts = Number(args.starts);
if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !(requests >= 1) || !(warmup >= 0) || !(starts >= 1)) throw new Error('--items takes whole numbers, --requests and --starts at least 1');

interface Sample {
  id: string;
  source_id: string;
  source_url: string;
  title: string;
  body: string;
}

/** One kind of request: its path, given the n-th request and a sample of real items to vary over. */
interface Scenario {
  name: string;
  path: (n: number, sample: Sample[]) => string;
  key?: boolean;
}

const CONTENT = '/v1/projects/1/content';
const page = 'pagination[limit]=10';
const pick = (sample: Sample[], n: number) => sample[n % sample.length]!;
/** Two neighbouring words of a text, as a reader would search for it. */
const words = (text: string, n: number) => {
  const all = text.replace(/<[^>]*>/g, ' ').split(/\s+/).filter(Boolean);
  const at = (n * 7) % Math.max(1, all.length - 1);
  return all.slice(at, at + 2).join(' ');
};
/** Two words of a text far apart: each may be common, the phrase they make is rare or absent. */
const apart = (text: string, n: number) => {
  const all = text.replace(/<[^>]*>/g, ' ').split(/\s+/).filter(Boolean);
  return `${all[(n * 7) % all.length]} ${all[(n * 7 + Math.floor(all.length / 2)) % all.length]}`;
};
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** The first `count` letters of a word of a text (one of at least that many letters). */
const firstLetters = (text: string, n: number, count: number) => {
  const all = text.replace(/<[^>]*>/g, ' ').split(/[^A-Za-z]+/).filter((word) => word.length >= count);
  return (all[(n * 7) % Math.max(1, all.length)] ?? 'th').slice(0, count);
};
const iso = (date: Date) => encodeURIComponent(date.toISOString());

function scenarios(total: number, newest: Date, oldest: Date): Scenario[] {
  const recent = new Date(newest.getTime() - (newest.getTime() - oldest.getTime()) / 100);
  const early = new Date(oldest.getTime() + (newest.getTime() - oldest.getTime()) / 100);
  const list = (name: string, query: (n: number, sample: Sample[]) => string): Scenario => ({ name, path: (n, sample) => `${CONTENT}?${page}&${query(n, sample)}` });
  return [
    list('list (newest first)', () => 'segments=none'),
    list('filter[id]', (n, s) => `filter[id]=${pick(s, n).id}`),
    list('filter[source_id]', (n, s) => `filter[source_id]=${pick(s, n).source_id}`),
    list('filter[source_url]', (n, s) => `filter[source_url]=${encodeURIComponent(pick(s, n).source_url)}`),
    list('filter[title] (two words of a title)', (n, s) => `filter[title]=${encodeURIComponent(words(pick(s, n).title, n))}`),
    list('filter[body] (two words of a body)', (n, s) => `filter[body]=${encodeURIComponent(words(pick(s, n).body, n))}`),
    list('filter[body] (a common word)', (n) => `filter[body]=${['the', 'of', 'and', 'to'][n % 4]}`),
    list('filter[body] (a common pair of words)', (n) => `filter[body]=${encodeURIComponent(['of the', 'in the', 'to the', 'and the'][n % 4]!)}`),
    list('filter[body] (two words of a body, apart: rare together)', (n, s) => `filter[body]=${encodeURIComponent(apart(pick(s, n).body, n))}`),
    list('filter[title] (the first three letters of a word)', (n, s) => `filter[title]=${encodeURIComponent(words(pick(s, n).title, n).split(' ')[0]!.slice(0, 3))}`),
    // A search box's first keys: one or two letters alone, common (`t`) or rare (`x`, `q`) in the project.
    list('filter[title]=x (one letter, a search box\'s first key)', () => 'filter[title]=x'),
    list('filter[title] (one letter, a to z in turn)', (n) => `filter[title]=${LETTERS[n % LETTERS.length]}`),
    list('filter[title] (the first two letters of a word)', (n, s) => `filter[title]=${encodeURIComponent(firstLetters(pick(s, n).title, n, 2))}`),
    list('filter[body] (one letter, a to z in turn)', (n) => `filter[body]=${LETTERS[n % LETTERS.length]}`),
    list('filter[body] (the first two letters of a word)', (n, s) => `filter[body]=${encodeURIComponent(firstLetters(pick(s, n).body, n, 2))}`),
    list('filter[published]=true', () => 'filter[published]=true'),
    list('filter[video_published]=true', () => 'filter[video_published]=true'),
    list('filter[statuses][]=error', () => 'filter[statuses][]=error'),
    list('filter[created] (newest 1 %)', () => `filter[created][from]=${iso(recent)}`),
    list('filter[updated] (oldest 1 %)', () => `filter[updated][to]=${iso(early)}`),
    list('filter[publish_date] (newest 1 %)', () => `filter[publish_date][from]=${iso(recent)}`),
    ...['created', 'publish_date', 'duration', 'published', 'status'].map((by) => list(`order ${by} desc`, () => `order[by]=${by}&order[dir]=desc`)),
    list('order created asc', () => 'order[by]=created&order[dir]=asc'),
    list('last page', () => `pagination[offset]=${Math.max(0, total - 10)}`),
    { name: 'GET /v1/projects', path: () => '/v1/projects' },
    { name: 'get one item', path: (n, s) => `${CONTENT}/${pick(s, n).id}` },
    { name: 'player data', path: (n, s) => `/v1/projects/1/player/by_content_id/${pick(s, n).id}`, key: false },
  ];
}

async function get(baseUrl: string, requestPath: string, key = true): Promise<unknown> {
  const response = await fetch(`${baseUrl}${requestPath}`, { headers: key ? { 'x-api-key': API_KEY } : {}, signal: AbortSignal.timeout(60_000) });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`GET ${requestPath} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** One size's service, its sample and the scenarios made for its dates. */
interface Target {
  baseUrl: string;
  sample: Sample[];
  scenarios: Scenario[];
}

/**
 * p50 and p99 in ms per target of one scenario, one request at a time: the warm-up, then request n to every
 * target in turn, so that every size sees the same moments of a shared, noisy machine.
 */
async function measure(targets: Target[], scenario: number): Promise<[number, number][]> {
  const ask = (target: Target, n: number) => {
    const chosen = target.scenarios[scenario]!;
    return get(target.baseUrl, chosen.path(n, target.sample), chosen.key);
  };
  for (let n = 0; n < warmup; n++) for (const target of targets) await ask(target, n);
  const times = targets.map((): number[] => []);
  for (let n = 0; n < requests; n++) {
    for (const [t, target] of targets.entries()) {
      const started = performance.now();
      await ask(target, n + warmup);
      times[t]!.push(performance.now() - started);
    }
  }
  return times.map((values) => [percentile(values, 50), percentile(values, 99)]);
}

const rssMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
const sizeMb = (dir: string, prefix: string) =>
  Math.round(readdirSync(dir).filter((file) => file.startsWith(prefix)).reduce((total, file) => total + statSync(path.join(dir, file)).size, 0) / 1024 / 1024);

const env = (dataDir: string) => ({ ...benchEnv(dataDir, API_KEY, { generation: false }), READ_STORE: args['read-store'] });
const crashed = (message: string) => {
  console.error(message);
  process.exit(1);
};

/** Seeds N items once per cache directory, and lets the service project them (its first start); later runs reuse both. */
async function prepared(total: number): Promise<{ dataDir: string; firstStart: string }> {
  const dataDir = path.join(args['cache-dir'], `${args['read-store']}-${total}`);
  const marker = path.join(dataDir, 'bench-ready.json');
  if (existsSync(marker)) return { dataDir, firstStart: (JSON.parse(readFileSync(marker, 'utf8')) as { firstStart: string }).firstStart };
  // A log seeded to its end is kept: only its first start is done again (after a change of the read store's layout, say).
  const seededMarker = path.join(dataDir, 'bench-seeded.json');
  if (!existsSync(seededMarker)) {
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    console.error(`seeding ${total} items into ${dataDir}`);
    const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'bench/seed.ts', '--items', String(total), '--data-dir', dataDir, '--key', API_KEY], { cwd: ROOT, stdio: 'inherit' });
    if (seeded.status !== 0) throw new Error('seeding failed');
    writeFileSync(seededMarker, JSON.stringify({ items: total }));
  }
  console.error('first start: the service projects the whole log');
  const started = performance.now();
  await firstStartOf(dataDir);
  const firstStart = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  writeFileSync(marker, JSON.stringify({ firstStart }));
  return { dataDir, firstStart };
}

/** Whether the service has caught up with the log: it listens before that, and answers /ready with 200 once done. */
async function ready(baseUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(5_000) })).status === 200;
  } catch {
    return false;
  }
}

/** The service's first start on a seeded log, without the start-up time limit of bench/service.ts: it projects every event. */
function firstStartOf(dataDir: string): Promise<void> {
  const child = spawn(process.execPath, BUILT_MAIN, { cwd: ROOT, env: env(dataDir), stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    let done = false;
    let polling = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-5_000);
      const baseUrl = /listening on (http:\/\/[^/\s]+)/.exec(output)?.[1];
      if (polling || !baseUrl) return;
      polling = true;
      void (async () => {
        while (child.exitCode === null && !(await ready(baseUrl))) await new Promise((wait) => setTimeout(wait, 1_000));
        done = child.exitCode === null;
        child.kill('SIGTERM');
      })();
    });
    child.once('exit', (code, signal) => (done ? resolve() : reject(new Error(`first start ended with ${code ?? signal}:\n${output}`))));
  });
}

/** Seconds from spawn to the first answer of a list request, on `dataDir` or on a fresh empty one (a first start). */
async function startupOf(main: string[], dataDir: string | null): Promise<number> {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), 'bench-start-'));
  const started = performance.now();
  const server = await startServer(env(dir), [], crashed, ROOT, main);
  try {
    await get(server.baseUrl, `${CONTENT}?pagination[limit]=1&segments=none`);
    return (performance.now() - started) / 1000;
  } finally {
    await server.stop();
    if (!dataDir) rmSync(dir, { recursive: true, force: true });
  }
}

/** p50 of `--starts` starts each through tsx and from dist/, taken in turns so both see the same load. */
async function startups(dataDir: string | null): Promise<{ tsx: number; built: number }> {
  const tsx: number[] = [];
  const built: number[] = [];
  for (let n = 0; n < starts; n++) {
    tsx.push(await startupOf(TSX_MAIN, dataDir));
    built.push(await startupOf(BUILT_MAIN, dataDir));
  }
  return { tsx: median(tsx), built: median(built) };
}

interface Result {
  total: number;
  firstStart: string;
  startup: { tsx: number; built: number };
  rss: [number, number];
  disk: string;
  rows: Map<string, [number, number]>;
}

/** Seeds (once) and times the starts of each size, alone; then serves every size at once and measures them in turns. */
async function runAll(totals: number[]): Promise<Result[]> {
  const sizesReady = [];
  for (const total of totals) {
    const { dataDir, firstStart } = await prepared(total);
    sizesReady.push({ total, dataDir, firstStart, startup: await startups(dataDir) });
  }
  const servers: Server[] = [];
  try {
    const targets: Target[] = [];
    const rssAfterStart: number[] = [];
    for (const { total, dataDir } of sizesReady) {
      const server = await startServer(env(dataDir), [], crashed, ROOT, BUILT_MAIN);
      servers.push(server);
      // A store of an older layout is refilled from the log after the service listens: measure once it has caught up.
      while (!(await ready(server.baseUrl))) await new Promise((wait) => setTimeout(wait, 1_000));
      rssAfterStart.push(rssMb(server.pid));
      const newestFirst = (await get(server.baseUrl, `${CONTENT}?pagination[limit]=1&segments=none`)) as { created: string }[];
      const oldestFirst = (await get(server.baseUrl, `${CONTENT}?pagination[limit]=1&segments=none&order[dir]=asc`)) as { created: string }[];
      const sample = (await get(server.baseUrl, `${CONTENT}?pagination[limit]=50&segments=none&filter[statuses][]=processed&filter[published]=true`)) as Sample[];
      targets.push({ baseUrl: server.baseUrl, sample, scenarios: scenarios(total, new Date(newestFirst[0]!.created), new Date(oldestFirst[0]!.created)) });
    }
    const rows = sizesReady.map(() => new Map<string, [number, number]>());
    for (const [index, scenario] of targets[0]!.scenarios.entries()) {
      for (const [t, figures] of (await measure(targets, index)).entries()) rows[t]!.set(scenario.name, figures);
    }
    return sizesReady.map(({ total, dataDir, firstStart, startup }, t) => ({
      total,
      firstStart,
      startup,
      rss: [rssAfterStart[t]!, rssMb(servers[t]!.pid)],
      disk: `${sizeMb(dataDir, 'events.sqlite')} / ${sizeMb(dataDir, 'read.sqlite')} MB`,
      rows: rows[t]!,
    }));
  } finally {
    for (const server of servers) await server.stop();
  }
}

// The service runs as `npm start` runs it: compiled into dist/ (built here when stale), not through tsx.
if (spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-stale'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('build failed');
const emptyStartup = await startups(null);
const results = await runAll(sizes);

const cell = ([p50, p99]: [number, number]) => `${p50.toFixed(1)} / ${p99.toFixed(1)}`;
// The issue's yardstick: each row's p99 at the largest size against its p99 at the smallest, measured in the same turns.
const ratioColumn = results.length > 1;
const p99Ratio = (name: string) => results.at(-1)!.rows.get(name)![1] / results[0]!.rows.get(name)![1];
const header = `| N items | ${results.map((r) => r.total.toLocaleString('en')).join(' | ')} |${ratioColumn ? ' p99 largest ÷ smallest |' : ''}`;
const lines = [
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, commit ${gitCommit()}, read store ${args['read-store']}, ${requests} requests per row after ${warmup} warm-up, one at a time`,
  `load average at the end: ${execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' ')}`,
  '',
  header,
  `|---|${results.map(() => '---|').join('')}${ratioColumn ? '---|' : ''}`,
  `| first start (projects the whole log) | ${results.map((r) => r.firstStart).join(' | ')} |${ratioColumn ? ' |' : ''}`,
  `| start-up to first answer (node dist/main.js, p50 of ${starts}) | ${results.map((r) => `${r.startup.built.toFixed(2)} s`).join(' | ')} |${ratioColumn ? ' |' : ''}`,
  `| resident memory after start / after the requests (MB) | ${results.map((r) => `${r.rss[0]} / ${r.rss[1]}`).join(' | ')} |${ratioColumn ? ' |' : ''}`,
  `| event store / read store on disk | ${results.map((r) => r.disk).join(' | ')} |${ratioColumn ? ' |' : ''}`,
  ...[...results[0]!.rows.keys()].map((name) => `| ${name}, p50 / p99 ms | ${results.map((r) => cell(r.rows.get(name)!)).join(' | ')} |${ratioColumn ? ` ${p99Ratio(name).toFixed(2)} |` : ''}`),
  '',
  `Start-up, spawn to the first answer of a list request, p50 of ${starts} starts each (s):`,
  '',
  '| data dir | tsx src/main.ts (development) | node dist/main.js (npm start) |',
  '|---|---|---|',
  `| empty (first start: bootstrap) | ${emptyStartup.tsx.toFixed(2)} | ${emptyStartup.built.toFixed(2)} |`,
  ...results.map((r) => `| ${r.total.toLocaleString('en')} items | ${r.startup.tsx.toFixed(2)} | ${r.startup.built.toFixed(2)} |`),
];
console.log(lines.join('\n'));
