// The CMS posts webhook's latency: Ghost deliveries (new posts, retries, edits, unpublishes) against a started service, p50/p99 per scenario.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BUILT_MAIN, benchEnv, median, percentile, startServer, type Server } from './service.ts';
import { API_KEY, loadAverage, machineLine, verdict, wholeOption } from './support.ts';

const TARGET_P99_MS = 50;

const { values: args } = parseArgs({
  options: {
    posts: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '1' },
  },
});
const postCount = wholeOption(args, 'posts', 1);
const rounds = wholeOption(args, 'rounds', 1);
const connections = wholeOption(args, 'connections', 1);

const fixture = (name: string) => JSON.parse(readFileSync(path.join(import.meta.dirname, `../test/fixtures/cms/${name}.json`), 'utf8'));
const published = fixture('ghost-post.published');
const unpublished = fixture('ghost-post.unpublished');

/** Ghost's own payload for post `n` of a round: a new id, its own text. */
function delivery(template: any, round: number, n: number, edited = false) {
  const current = { ...template.post.current };
  current.id = `${round.toString(16).padStart(4, '0')}${n.toString(16).padStart(20, '0')}`;
  current.title = `Bench post ${round}-${n}`;
  current.html = `<p>Post ${n} of round ${round}: the council approved the new budget for the river bridge.</p>${edited ? '<p>An update.</p>' : ''}`;
  return JSON.stringify({ post: { current, previous: template.post.previous } });
}

/** The reference: a keyed read of the project, the cheapest request that passes the same gates (key, rate limit). */
const REFERENCE = 'GET /v1/projects/1';

async function deliver(baseUrl: string, body: string): Promise<number> {
  const started = performance.now();
  const reference = body === REFERENCE;
  const response = await fetch(reference ? `${baseUrl}/v1/projects/1` : `${baseUrl}/v1/projects/1/integrations/cms/posts?api_key=${API_KEY}`, {
    method: reference ? 'GET' : 'POST',
    headers: reference ? { 'x-api-key': API_KEY } : { 'content-type': 'application/json' },
    body: reference ? undefined : body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`delivery answered ${response.status}: ${text}`);
  return performance.now() - started;
}

/** Sends every body, `connections` at a time; the latency of each. */
async function run(baseUrl: string, bodies: string[]): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < bodies.length) latencies.push(await deliver(baseUrl, bodies[next++]!));
    }),
  );
  return latencies;
}

const scenarios: { name: string; bodies: (round: number) => string[] }[] = [
  { name: 'publish (creates the item)', bodies: (round) => Array.from({ length: postCount }, (_, n) => delivery(published, round, n)) },
  { name: 'retried delivery (changes nothing)', bodies: (round) => Array.from({ length: postCount }, (_, n) => delivery(published, round, n)) },
  { name: 'edit (updates the text)', bodies: (round) => Array.from({ length: postCount }, (_, n) => delivery(published, round, n, true)) },
  { name: 'unpublish', bodies: (round) => Array.from({ length: postCount }, (_, n) => delivery(unpublished, round, n, true)) },
  { name: `reference: ${REFERENCE} (no webhook; how busy the machine is)`, bodies: () => Array.from({ length: postCount }, () => REFERENCE) },
];

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-cms-'));
  let server: Server | undefined;
  try {
    // As `npm start` runs it: the build in dist/ (made first when older than the sources).
    const root = path.resolve(import.meta.dirname, '..');
    if (spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-stale'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('build failed');
    server = await startServer(benchEnv(dataDir, API_KEY, { generation: false }), [], (message) => console.error(message), root, BUILT_MAIN);
    const configured = await fetch(`${server.baseUrl}/v1/projects/1/integrations/cms`, {
      method: 'PUT',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: true, platform: 'ghost' }),
    });
    if (configured.status !== 200) throw new Error(`configuring the integration answered ${configured.status}`);
    // Warm-up: the first requests compile and open what later ones reuse.
    await run(server.baseUrl, Array.from({ length: 20 }, (_, n) => delivery(published, 9999, n)));
    const load = loadAverage();
    const results = new Map<string, { p50: number[]; p99: number[] }>(scenarios.map(({ name }) => [name, { p50: [], p99: [] }]));
    for (let round = 0; round < rounds; round++) {
      for (const scenario of scenarios) {
        const latencies = await run(server.baseUrl, scenario.bodies(round));
        results.get(scenario.name)!.p50.push(percentile(latencies, 50));
        results.get(scenario.name)!.p99.push(percentile(latencies, 99));
      }
    }
    console.log(`CMS posts webhook (node dist/main.js): ${postCount} Ghost deliveries per scenario and round, ${connections} at a time, ${rounds} rounds (medians of the rounds); generation paused.`);
    console.log(`${machineLine()}; load average at start ${load}, at end ${loadAverage()}`);
    console.log('');
    console.log(`| scenario | p50 ms | p99 ms | p99 ≤ ${TARGET_P99_MS} ms |`);
    console.log('|---|---:|---:|---|');
    for (const [name, { p50, p99 }] of results) {
      const target = name.startsWith('reference') ? '—' : verdict(median(p99) <= TARGET_P99_MS);
      console.log(`| ${name} | ${median(p50).toFixed(1)} | ${median(p99).toFixed(1)} | ${target} |`);
    }
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
