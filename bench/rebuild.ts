// Rebuild throughput and start-up on a long log: `projections rebuild` per projection and for all at once (events/s
// of the log replayed), then the service's start-up with every checkpoint current.
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
  },
});
const chosen = args.projections.split(',').filter(Boolean);
const unknown = chosen.filter((name) => name !== 'all' && !allProjections.some((projection) => projection.name === name));
if (unknown.length > 0) throw new Error(`unknown projections: ${unknown.join(', ')}`);
const starts = Number(args.starts);

/** Runs a command to its end: its wall time, and its output (the end of stderr, where the progress bar is). */
function timed(command: string[], env: Record<string, string>): Promise<{ seconds: number; output: string }> {
  const child = spawn(process.execPath, command, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

try {
  const rows: string[] = [];
  for (const name of chosen) {
    console.error(`rebuilding ${name}`);
    const { seconds, output } = await timed(['--import', 'tsx', 'src/cli.ts', 'projections', 'rebuild', name], env);
    const rate = /([\d,]+) events\/s, done/.exec(output)?.[1] ?? '–';
    rows.push(`| rebuild ${name} | ${seconds.toFixed(1)} s | ${Math.round(head / seconds).toLocaleString('en')} | ${rate} |`);
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
  console.log('| run | wall time | events/s (log / wall) | events/s (progress bar) |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`| start-up to first answer, checkpoints current (median of ${starts}) | ${median(startups).toFixed(2)} s | | |`);
} finally {
  if (temporary) rmSync(temporary, { recursive: true, force: true });
}
