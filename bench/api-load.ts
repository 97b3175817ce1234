// Load benchmark of the /v1 content API: starts the service, seeds it, runs autocannon per scenario, prints medians.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, loadRunCleanup, mongoUrlFor, prng, startServer, type Server } from './service.ts';
import { parseArgs } from 'node:util';
import type { CannonRequest, StatusRound } from './cannon.ts';
import { API_KEY, CONTENT, LOAD_OPTIONS, SCENARIO_TABLE_HEAD, errorText, guardRun, loadRunner, loadSettings, machineLine, wholeOption } from './support.ts';

const { values: args } = parseArgs({
  options: {
    ...LOAD_OPTIONS,
    seed: { type: 'string', default: '2000' },
    mongodb: { type: 'string' },
    only: { type: 'string', default: 'get,list,create' },
    'cpu-prof': { type: 'string' },
  },
});
const settings = loadSettings(args);
const { duration, connections, rounds, warmup } = settings;
const seedCount = wholeOption(args, 'seed', 1);
const only = new Set(args.only.split(','));
for (const name of only) if (!['get', 'list', 'create'].includes(name)) throw new Error(`--only takes get, list and create; got ${name}`);


const WORDS = ('council budget river bridge school season coach players harbour election minister festival museum ' +
  'weather storm farmers market prices housing tenants library volunteers hospital nurses railway station ' +
  'opening delayed announced residents community report evening morning district plans funding').split(' ');

/** An article as a publisher sends it: title, 1–3 KB of HTML, tags and the publisher's own post id. */
function article(random: () => number, sourceId: string | undefined) {
  const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(random() * 12) }, pick);
    return `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
  };
  const target = 1000 + Math.floor(random() * 2000);
  let body = `<h2>${sentence()}</h2>`;
  while (body.length < target) {
    const text = Array.from({ length: 3 + Math.floor(random() * 3) }, sentence).join(' ');
    body += random() < 0.3 ? `<p>${text} <a href="https://example.com/${pick()}">${pick()}</a> <strong>${pick()}</strong></p>` : `<p>${text}</p>`;
  }
  const title = sentence().slice(0, -1);
  return { title, body, tags: [pick(), pick()], author: 'Bench Desk', ...(sourceId ? { source_id: sourceId } : {}) };
}

/** Creates the seed items, a few requests in flight at a time; returns their ids. */
async function seed(baseUrl: string, count: number): Promise<string[]> {
  const random = prng(42);
  const bodies = Array.from({ length: count }, (_, i) => JSON.stringify(article(random, `seed-${i}`)));
  const ids: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const response = await fetch(`${baseUrl}${CONTENT}`, {
        method: 'POST',
        headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      const answer = (await response.json()) as { id?: string };
      if (response.status !== 201 || !answer.id) throw new Error(`seeding failed: ${response.status} ${JSON.stringify(answer)}`);
      ids.push(answer.id);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return ids;
}

function scenarios(ids: string[]): { key: string; name: string; requests: CannonRequest[] }[] {
  let nextId = 0;
  let nextSource = 0;
  const runTag = randomBytes(4).toString('hex');
  const random = prng(7);
  const pool = Array.from({ length: 200 }, () => article(random, undefined));
  // Reads first: creates grow the store, and list cost depends on its size.
  return [
    {
      key: 'get',
      name: `GET ${CONTENT}/{id}`,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `${CONTENT}/${ids[nextId++ % ids.length]}` }) }],
    },
    { key: 'list', name: `GET ${CONTENT}?pagination[limit]=20`, requests: [{ method: 'GET', path: `${CONTENT}?pagination[limit]=20` }] },
    {
      key: 'create',
      name: `POST ${CONTENT}`,
      requests: [
        {
          method: 'POST',
          path: CONTENT,
          setupRequest: (request) => {
            const n = nextSource++;
            return { ...request, body: JSON.stringify({ ...pool[n % pool.length], source_id: `bench-${runTag}-${n}` }) };
          },
        },
      ],
    },
  ];
}

const load = loadRunner(settings, { 'x-api-key': API_KEY, 'content-type': 'application/json' });

const mongoUrl = args.mongodb ? mongoUrlFor(args.mongodb, 'bench') : undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-'));
let server: Server | undefined;
// Seeding gets 250 ms an item: FerretDB on SQLite manages about 6 creates a second once it holds 2,000 items.
const budgetSeconds = Math.ceil(60 + seedCount / 4 + only.size * (warmup + rounds * (duration + 15)));
const { cleanUp, fail } = guardRun(budgetSeconds, loadRunCleanup(dataDir, mongoUrl, { stopLoad: load.stop, server: () => server }));

try {
  // The API alone: narrating the seeded articles would compete with it for the CPUs.
  const env = benchEnv(dataDir, API_KEY, { generation: false, mongoUrl });
  const profileDir = args['cpu-prof'] ? path.resolve(args['cpu-prof']) : undefined;
  console.log(machineLine());
  server = await startServer(env, profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [], fail);
  const started = Date.now();
  const ids = await seed(server.baseUrl, seedCount);
  const seeding = `${ids.length} items seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`;
  console.log(`read store: ${mongoUrl ? `MongoDB at ${mongoUrl}` : 'embedded'}; ${seeding}`);
  console.log(`${connections} connections, ${warmup} s warm-up, ${rounds} × ${duration} s per scenario; autocannon shares the CPUs with the service\n`);
  console.log(SCENARIO_TABLE_HEAD);
  const notes: string[] = [];
  for (const scenario of scenarios(ids).filter(({ key }) => only.has(key))) {
    const results: StatusRound[] = await load.scenario(server.baseUrl, scenario.name, scenario.requests);
    const odd = results.flatMap((r) => Object.entries(r.statuses)).filter(([code]) => !code.startsWith('2'));
    if (odd.length > 0) notes.push(`${scenario.name}: ${odd.map(([code, count]) => `${code} ×${count}`).join(', ')}`);
  }
  if (notes.length > 0) console.log(`\nstatuses other than 2xx:\n${notes.join('\n')}`);
  await cleanUp();
  if (profileDir) console.log(`\nCPU profile of the service written to ${profileDir}`);
} catch (error) {
  fail(errorText(error));
}
