// Rebuild throughput and start-up on a long log: `projections rebuild` per projection and for all at once (events/s
// of the log replayed), optionally against another checkout of the service, then the service's start-up with every
// checkpoint current.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteEventStore } from '../src/infrastructure/eventStore/sqlite.ts';
import { allProjections } from '../projections/index.ts';
import { benchEnv, gitCommit, median, startServer } from './service.ts';

const API_KEY = 'bench_bootstrap_key_0123456789';
const ROOT = path.resolve(import.meta.dirname, '..');

const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    items: { type: 'string', default: '20000' },
    projections: { type: 'string', default: 'contentItems,all' },
    starts: { type: 'string', default: '3' },
    runs: { type: 'string', default: '3' },
    baseline: { type: 'string' },
  },
});
const chosen = args.projections.split(',').filter(Boolean);
const unknown = chosen.filter((name) => name !== 'all' && !allProjections.some((projection) => projection.name === name));
if (unknown.length > 0) throw new Error(`unknown projections: ${unknown.join(', ')}`);
const starts = Number(args.starts);
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');
const baseline = args.baseline ? path.resolve(args.baseline) : undefined;
if (baseline && !existsSync(path.join(baseline, 'src/cli.ts'))) throw new Error(`no src/cli.ts in ${baseline}`);
/** The checkouts measured: this one, and the baseline's when given (its own code, this repository's node_modules). */
const trees = [{ label: 'this tree', root: ROOT }, ...(baseline ? [{ label: `baseline ${path.basename(baseline)}`, root: baseline }] : [])].map((tree) => ({ ...tree, built: buildCli(tree.root) }));
const CPU_ON_EXIT = path.join(ROOT, 'bench/cpuOnExit.mjs');

/**
 * Each tree's CLI as `npm run cli` runs it, compiled (scripts/build.ts) into a directory of the bench's own inside
 * the tree, where the bundles find its node_modules: what is measured is the JavaScript users run, not tsx.
 */
function buildCli(root: string): string {
  const outdir = path.join(root, '.bench', `cli-${process.pid}`);
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--outdir', outdir], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return outdir;
}

/** Runs a command to its end: its wall time, and its output (the end of stderr, where the progress bar is). */
function timed(command: string[], env: Record<string, string>, cwd = ROOT): Promise<{ seconds: number; output: string }> {
  const child = spawn(process.execPath, command, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const started = performance.now();
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`${command.join(' ')} exited with ${code}:\n${output}`));
      resolve({ seconds, output });
    }),
  );
}

let dataDir = args['data-dir'];
let temporary: string | undefined;
if (!dataDir) {
  temporary = dataDir = mkdtempSync(path.join(tmpdir(), 'bench-rebuild-'));
  console.error(`seeding ${args.items} items into ${dataDir}`);
  execFileSync(process.execPath, ['--import', 'tsx', 'bench/seed.ts', '--items', args.items, '--data-dir', dataDir, '--key', API_KEY], { cwd: ROOT, stdio: 'inherit' });
}
if (!existsSync(path.join(dataDir, 'events.sqlite'))) throw new Error(`no events.sqlite in ${dataDir}`);
mkdirSync(dataDir, { recursive: true });
const env = benchEnv(dataDir, API_KEY, { generation: false });
const events = createSqliteEventStore(path.join(dataDir, 'events.sqlite'));
const head = await events.headPosition();
await events.close();

interface Run {
  seconds: number;
  /** The progress bar's last rate, null if it printed none. */
  barRate: number | null;
  cpuMs: number;
  /** The swap's transaction, which holds the write lock, as the CLI reports it (null if it reports none). */
  swapSeconds: number | null;
  peakMb: number;
}

async function rebuildOnce(name: string, { root, built }: (typeof trees)[number]): Promise<Run> {
  const { seconds, output } = await timed(['--import', CPU_ON_EXIT, path.join(built, 'cli.js'), 'projections', 'rebuild', name], env, root);
  const bar = /([\d,]+) events\/s, done/.exec(output)?.[1];
  const swap = /swapped the shadows in: ([\d.]+) s/.exec(output)?.[1];
  return { seconds, barRate: bar ? Number(bar.replaceAll(',', '')) : null, cpuMs: Number(/cpu time: (\d+) ms/.exec(output)?.[1] ?? NaN), swapSeconds: swap ? Number(swap) : null, peakMb: Number(/peak resident memory: (\d+) MB/.exec(output)?.[1] ?? NaN) };
}

const thousands = (value: number) => Math.round(value).toLocaleString('en');
/** The median of the values a run reported, null when none did. */
function medianOf(values: (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length > 0 ? median(known) : null;
}

try {
  const rows: string[] = [];
  for (const name of chosen) {
    // The trees take turns, so that a change in the machine's load falls on each alike.
    const measured = new Map(trees.map(({ root }) => [root, [] as Run[]]));
    for (let n = 0; n < runs; n++) {
      for (const tree of n % 2 === 0 ? trees : [...trees].reverse()) {
        console.error(`rebuilding ${name} (${tree.label}, run ${n + 1} of ${runs})`);
        measured.get(tree.root)!.push(await rebuildOnce(name, tree));
      }
    }
    const summary = trees.map(({ label, root }) => {
      const done = measured.get(root)!;
      const seconds = median(done.map((run) => run.seconds));
      const barRate = medianOf(done.map((run) => run.barRate));
      const swapSeconds = medianOf(done.map((run) => run.swapSeconds));
      return { label, seconds, wallRate: head / seconds, barRate, swapSeconds, cpuMs: median(done.map((run) => run.cpuMs)), peakMb: Math.max(...done.map((run) => run.peakMb)), done };
    });
    for (const { label, seconds, wallRate, barRate, swapSeconds, cpuMs, peakMb, done } of summary) {
      const each = done.map((run) => thousands(head / run.seconds)).join(', ');
      const swap = swapSeconds === null ? '–' : `${swapSeconds.toFixed(1)} s`;
      rows.push(`| rebuild ${name}${baseline ? ` (${label})` : ''} | ${seconds.toFixed(1)} s | ${thousands(wallRate)} | ${barRate === null ? '–' : thousands(barRate)} | ${swap} | ${(cpuMs / 1000).toFixed(1)} s | ${peakMb} MB | ${each} |`);
    }
    if (baseline) {
      const [mine, theirs] = summary as [(typeof summary)[0], (typeof summary)[0]];
      const ratio = (a: number | null, b: number | null) => (a === null || b === null ? '–' : `${(a / b).toFixed(2)}×`);
      rows.push(`| rebuild ${name}: speed-up over the baseline | ${ratio(theirs.seconds, mine.seconds)} | ${ratio(mine.wallRate, theirs.wallRate)} | ${ratio(mine.barRate, theirs.barRate)} | | ${ratio(theirs.cpuMs, mine.cpuMs)} | | |`);
    }
  }
  const startups: number[] = [];
  for (let n = 0; n < starts; n++) {
    const started = performance.now();
    const server = await startServer(env, [], (message) => console.error(message), ROOT);
    const answer = await fetch(`${server.baseUrl}/v1/projects/1/content?pagination[limit]=1`, { headers: { 'x-api-key': API_KEY } });
    if (answer.status !== 200) throw new Error(`first answer ${answer.status}`);
    startups.push((performance.now() - started) / 1000);
    await server.stop();
  }
  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, commit ${gitCommit()}, ${head.toLocaleString('en')} events in the log`);
  console.log(`load average at the end: ${execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' ')}`);
  console.log('');
  console.log(`medians of ${runs} run${runs === 1 ? '' : 's'}${baseline ? `, taking turns with the baseline ${baseline}` : ''}`);
  console.log('');
  console.log('| run | wall time | events/s (log / wall) | events/s (progress bar) | swap (write lock held) | CPU time | peak memory (largest) | events/s of each run |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`| start-up to first answer, checkpoints current (median of ${starts}) | ${median(startups).toFixed(2)} s | | | | | | |`);
} finally {
  if (temporary) rmSync(temporary, { recursive: true, force: true });
  for (const { built } of trees) rmSync(built, { recursive: true, force: true });
}
