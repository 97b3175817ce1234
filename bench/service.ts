// Starts the service as a child process for the benchmarks, and stops it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { loopbackEnv } from '../test/support/loopbackEnv.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface Server {
  baseUrl: string;
  pid: number;
  output(): string;
  stop(): Promise<void>;
}

const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
/** The V8 flags an npm script gives node (the young generation's size), beside its source maps. */
const nodeFlagsOf = (script: 'start' | 'cli') => scripts[script]!.split(/\s+/).filter((word) => word.startsWith('--') && word !== '--enable-source-maps');

/** The flags `npm start` and `npm run cli` run node with: the benchmarks measure the service and the CLI as they run. */
export const NODE_FLAGS = nodeFlagsOf('start');
export const CLI_NODE_FLAGS = nodeFlagsOf('cli');

/** How the API starts: its TypeScript through tsx, as in development, or the build in dist/, as `npm start` does. */
export const TSX_MAIN = [...NODE_FLAGS, '--import', 'tsx', 'src/main.ts'];
export const BUILT_MAIN = [...NODE_FLAGS, '--enable-source-maps', 'dist/main.js'];
/** How long a start may take (BENCH_START_LIMIT_S, default 45): more on a machine busy with other work. */
const START_LIMIT_S = Number(process.env.BENCH_START_LIMIT_S ?? 45);

/** Starts the service (from `root`, another checkout when comparing commits); `onCrash` hears of it, with its last output, if it exits before `stop()`. */
export async function startServer(env: Record<string, string>, nodeArgs: string[], onCrash: (message: string) => void, root = ROOT, main = TSX_MAIN): Promise<Server> {
  const child = spawn(process.execPath, [...nodeArgs, ...main], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${START_LIMIT_S} s:\n${output}`)), START_LIMIT_S * 1000);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) onCrash(`server exited with ${code ?? signal} during the run:\n${output}`);
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    output: () => output,
    stop: () => {
      stopping = true;
      return stopChild(child);
    },
  };
}

/** SIGTERM lets the service close its stores; SIGKILL after 10 s. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Nearest rank: the smallest value with at least p % of the values at or below it (the p99 of 100 values is the second largest). */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

export function gitCommit(): string {
  try {
    const run = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: ROOT, encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = run('rev-parse', '--short', 'HEAD');
    return run('status', '--porcelain') === '' ? commit : `${commit} (with uncommitted changes)`;
  } catch {
    return 'unknown';
  }
}

/** A fresh database on a loopback MongoDB/FerretDB for one benchmark run; benchmarks never leave this machine. */
export function mongoUrlFor(url: string, prefix: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'mongodb:' || !LOOPBACK.has(parsed.hostname)) throw new Error('--mongodb must be a mongodb:// URL on a loopback address');
  parsed.pathname = `/${prefix}_${randomBytes(4).toString('hex')}`;
  return parsed.toString();
}

export async function dropDatabase(url: string) {
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.db().dropDatabase();
  } finally {
    await client.close();
  }
}

/** The service's environment for a benchmark: loopback, a free port, limits out of the way. */
export function benchEnv(dataDir: string, apiKey: string, options: { generation: boolean; mongoUrl?: string }): Record<string, string> {
  return {
    ...loopbackEnv(dataDir, apiKey, { rateLimit: 1_000_000_000, generation: options.generation }),
    ...(options.mongoUrl ? { MONGODB_URL: options.mongoUrl } : {}),
  };
}

/** How a load benchmark ends (bench/support.ts `guardRun` runs it once): the load, the service, its database and its data dir. */
export function loadRunCleanup(dataDir: string, mongoUrl: string | undefined, parts: { stopLoad(): void; server(): Server | undefined }) {
  return async () => {
    parts.stopLoad();
    await parts.server()?.stop();
    if (mongoUrl) await dropDatabase(mongoUrl).catch((error: unknown) => console.error(`could not drop ${mongoUrl}: ${String(error)}`));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

export interface Round {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** One markdown table row of a scenario: medians across rounds, totals of failures, and each round's rate. */
export function scenarioRow(name: string, results: Round[]): string {
  const sum = (pick: (round: Round) => number) => results.reduce((total, round) => total + pick(round), 0);
  const cells = [
    name,
    Math.round(median(results.map((r) => r.rps))),
    median(results.map((r) => r.p50)),
    median(results.map((r) => r.p99)),
    sum((r) => r.non2xx),
    sum((r) => r.errors),
    results.map((r) => Math.round(r.rps)).join(', '),
  ];
  return `| ${cells.join(' | ')} |`;
}

/** Repeatable pseudo-random numbers (mulberry32), so every run seeds the same articles. */
export function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
