// What a change costs: the same GET-by-id and create load against this tree and a base commit, interleaved, with ratios.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism, homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cannonRound, type CannonRequest, type CannonRun, type StatusRound } from './cannon.ts';
import { benchEnv, gitCommit, median, startServer, type Server } from './service.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const API_KEY = 'bench_bootstrap_key_0123456789';
const CONTENT = '/v1/projects/1/content';

const { values: args } = parseArgs({
  options: {
    base: { type: 'string', default: 'da4b3a0' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    seed: { type: 'string', default: '500' },
    /** NAME=VALUE settings for this tree's server only, e.g. READ_STORE=memory to compare like with like. */
    'this-env': { type: 'string', multiple: true, default: [] },
  },
});
const thisEnv = Object.fromEntries(args['this-env'].map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const duration = Number(args.duration);
const rounds = Number(args.rounds);
const connections = Number(args.connections);
const seedCount = Number(args.seed);

const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

const paragraph = (n: number) =>
  `<p>The council met on evening ${n} to discuss the budget for the river bridge and the school season.</p><p>Residents asked about housing, the library and the railway station.</p>`;
const articleBody = (n: number, runTag: string) => JSON.stringify({ title: `Council meeting ${n}`, body: paragraph(n).repeat(4), tags: ['council'], source_id: `cmp-${runTag}-${n}` });

async function seed(baseUrl: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const response = await fetch(`${baseUrl}${CONTENT}`, { method: 'POST', headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' }, body: articleBody(n, 'seed') });
    const answer = (await response.json()) as { id?: string };
    if (response.status !== 201 || !answer.id) throw new Error(`seeding failed: ${response.status} ${JSON.stringify(answer)}`);
    ids.push(answer.id);
  }
  return ids;
}

function scenarioRequests(key: 'get' | 'create', ids: string[], label: string): CannonRequest[] {
  let next = 0;
  if (key === 'get') return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `${CONTENT}/${ids[next++ % ids.length]}` }) }];
  const runTag = `${label}-${Date.now()}`;
  return [{ method: 'POST', path: CONTENT, setupRequest: (request) => ({ ...request, body: articleBody(next++, runTag) }) }];
}

/**
 * The base commit's own dependencies (its lock may name packages this tree dropped): installed once per lock
 * into a cache folder, and reused by every later comparison with a base of the same lock.
 */
function baseModules(worktree: string): string {
  const lock = readFileSync(path.join(worktree, 'package-lock.json'));
  if (lock.equals(readFileSync(path.join(ROOT, 'package-lock.json')))) return path.join(ROOT, 'node_modules');
  const dir = path.join(homedir(), '.cache', 'service-bench', createHash('sha256').update(lock).digest('hex').slice(0, 16));
  if (!existsSync(path.join(dir, 'node_modules', '.package-lock.json'))) {
    mkdirSync(dir, { recursive: true });
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(path.join(worktree, file), path.join(dir, file));
    console.log(`installing the base commit's dependencies into ${dir} (once per lock)`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return path.join(dir, 'node_modules');
}

let running: CannonRun | undefined;
const servers: Server[] = [];
const dirs: string[] = [];
const worktree = mkdtempSync(path.join(tmpdir(), 'bench-base-'));
const cleanUp = async () => {
  running?.stop();
  await Promise.all(servers.map((server) => server.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  try {
    git('worktree', 'remove', '--force', worktree);
  } catch {
    rmSync(worktree, { recursive: true, force: true });
  }
};
const fail = (message: string) => {
  console.error(message);
  void cleanUp().finally(() => process.exit(1));
};
process.once('SIGINT', () => fail('interrupted'));

try {
  rmSync(worktree, { recursive: true, force: true });
  git('worktree', 'add', '--detach', worktree, args.base);
  symlinkSync(baseModules(worktree), path.join(worktree, 'node_modules'));
  const sides = [
    { label: 'base', root: worktree, commit: git('rev-parse', '--short', args.base) },
    { label: 'this', root: ROOT, commit: gitCommit(), env: thisEnv },
  ];
  const started: { label: string; server: Server; ids: string[] }[] = [];
  for (const side of sides) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `bench-${side.label}-`));
    dirs.push(dataDir);
    const server = await startServer({ ...benchEnv(dataDir, API_KEY, { generation: false }), ...('env' in side ? side.env : {}) }, [], fail, side.root);
    servers.push(server);
    started.push({ label: side.label, server, ids: await seed(server.baseUrl, seedCount) });
  }
  console.log(`node ${process.version}, ${availableParallelism()} CPUs; base ${sides[0]!.commit} vs this ${sides[1]!.commit}`);
  if (args['this-env'].length > 0) console.log(`this tree with ${args['this-env'].join(' ')}`);
  console.log(`${seedCount} items each, ${connections} connections, ${rounds} interleaved rounds × ${duration} s per side and scenario\n`);
  console.log('| scenario | base req/s | this req/s | this / base | base p99 ms | this p99 ms | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const key of ['get', 'create'] as const) {
    const results = new Map<string, StatusRound[]>(started.map(({ label }) => [label, []]));
    const requests = new Map(started.map(({ label, ids }) => [label, scenarioRequests(key, ids, label)]));
    for (let round = 0; round < rounds; round++) {
      // Alternate who goes first, so drift in the machine's load falls on both sides alike.
      const order = round % 2 === 0 ? started : [...started].reverse();
      for (const { label, server } of order) {
        const result = await cannonRound(
          { url: server.baseUrl, connections, seconds: duration, headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' }, requests: requests.get(label)! },
          (run) => {
            running = run;
          },
        );
        results.get(label)!.push(result);
      }
    }
    const rps = (label: string) => median(results.get(label)!.map((r) => r.rps));
    const p99 = (label: string) => median(results.get(label)!.map((r) => r.p99));
    const non2xx = [...results.values()].flat().reduce((sum, r) => sum + r.non2xx, 0);
    const name = key === 'get' ? `GET ${CONTENT}/{id}` : `POST ${CONTENT}`;
    console.log(`| ${name} | ${Math.round(rps('base'))} | ${Math.round(rps('this'))} | ${(rps('this') / rps('base')).toFixed(3)} | ${p99('base')} | ${p99('this')} | ${non2xx} |`);
  }
  await cleanUp();
} catch (error) {
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
}
