// Load benchmark of public player data: starts the service, narrates a few articles, runs autocannon on by_content_id.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchEnv, loadRunCleanup, mongoUrlFor, startServer, type Server } from './service.ts';
import type { CannonRequest } from './cannon.ts';
import { API_KEY, CONTENT, LOAD_OPTIONS, SCENARIO_TABLE_HEAD, errorText, guardRun, loadRunner, loadSettings, machineLine, wholeOption } from './support.ts';

const PLAYER = '/v1/projects/1/player/by_content_id';

const { values: args } = parseArgs({
  options: {
    ...LOAD_OPTIONS,
    items: { type: 'string', default: '5' },
    paragraphs: { type: 'string', default: '20' },
    mongodb: { type: 'string' },
  },
});
const settings = loadSettings(args);
const { duration, connections, rounds, warmup } = settings;
const itemCount = wholeOption(args, 'items', 1);
const paragraphs = wholeOption(args, 'paragraphs', 1);

const SENTENCES = [
  'The council approved the new budget for the river bridge after a long evening meeting.',
  'Residents of the harbour district asked for more funding for the library and its volunteers.',
  'The railway station reopened this morning, although several services were still delayed.',
  'Farmers brought their produce to the market as prices for housing and tenants kept rising.',
  'Nurses at the hospital welcomed the plans announced by the minister during the festival.',
];

/** An article of `paragraphs` paragraphs of two sentences each; item `n` starts at a different sentence. */
function article(n: number) {
  const body = Array.from({ length: paragraphs }, (_, i) => `<p>${SENTENCES[(n + i) % SENTENCES.length]} ${SENTENCES[(n + i + 2) % SENTENCES.length]}</p>`).join('');
  return { title: `Player bench article ${n + 1}`, body, author: 'Bench Desk', source_id: `player-bench-${n}` };
}

async function api(baseUrl: string, method: 'GET' | 'POST', route: string, body?: unknown): Promise<any> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const answer = await response.json();
  if (response.status >= 300) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Creates the items and waits until each is narrated; returns their ids. */
async function seed(baseUrl: string): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < itemCount; n++) ids.push((await api(baseUrl, 'POST', CONTENT, article(n))).id);
  const deadline = Date.now() + 60_000 + itemCount * paragraphs * 2_000;
  for (const id of ids) {
    for (;;) {
      const { status, error } = await api(baseUrl, 'GET', `${CONTENT}/${id}`);
      if (status === 'processed') break;
      if (status === 'error') throw new Error(`item ${id} failed to generate: ${JSON.stringify(error)}`);
      if (Date.now() > deadline) throw new Error(`item ${id} still ${status} when seeding ran out of time`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return ids;
}

/** The player's routes are public: no API key is sent. */
const load = loadRunner(settings, {});

const mongoUrl = args.mongodb ? mongoUrlFor(args.mongodb, 'bench_player') : undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-player-'));
let server: Server | undefined;
const scenarioCount = 2;
const budgetSeconds = Math.ceil(120 + itemCount * paragraphs * 2 + scenarioCount * (warmup + rounds * (duration + 15)));
const { cleanUp, fail } = guardRun(budgetSeconds, loadRunCleanup(dataDir, mongoUrl, { stopLoad: load.stop, server: () => server }));

try {
  // Player data shows processed items only; once they are, generation is idle during the rounds.
  const env = benchEnv(dataDir, API_KEY, { generation: true, mongoUrl });
  console.log(machineLine());
  server = await startServer(env, [], fail);
  const started = Date.now();
  const ids = await seed(server.baseUrl);
  const seeding = `${ids.length} items of ${paragraphs} paragraphs narrated in ${((Date.now() - started) / 1000).toFixed(1)} s`;
  console.log(`read store: ${mongoUrl ? `MongoDB at ${mongoUrl}` : 'embedded'}; ${seeding}`);
  console.log(`${connections} connections, no API key, ${warmup} s warm-up, ${rounds} × ${duration} s per scenario; autocannon shares the CPUs with the service\n`);
  console.log(SCENARIO_TABLE_HEAD);
  const rotating = (query: string): CannonRequest[] => {
    let next = 0;
    return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `${PLAYER}/${ids[next++ % ids.length]}${query}` }) }];
  };
  const scenarios = [
    { name: `GET ${PLAYER}/{id}`, requests: rotating('') },
    { name: `GET ${PLAYER}/{id}?words=true`, requests: rotating('?words=true') },
  ];
  for (const scenario of scenarios) await load.scenario(server.baseUrl, scenario.name, scenario.requests);
  await cleanUp();
} catch (error) {
  fail(errorText(error));
}
