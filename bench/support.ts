// What the benchmark scripts share besides starting the service (bench/service.ts): options, the guard that ends a
// run whatever happens, rounds of load, the narrated article and the bare tools' runs, and the report's figures.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { prepareArticle } from '../src/generation/textPreparation.ts';
import { longArticleHtml } from '../test/fixtures/longArticle.ts';
import { cannonRound, type CannonRequest, type CannonRun, type StatusRound } from './cannon.ts';
import { gitCommit, median, scenarioRow } from './service.ts';

export const API_KEY = 'bench_bootstrap_key_0123456789';
export const CONTENT = '/v1/projects/1/content';
/** What src/media/assemble.ts encodes with (MP3_ARGS); keep in step with it. */
export const SERVICE_MP3_ARGS = ['-c:a', 'libmp3lame', '-b:a', '64k', '-compression_level', '7'];

/** A whole-number option of at least `min`. */
export function wholeOption<Args extends Record<string, unknown>>(args: Args, name: keyof Args & string, min: number): number {
  const value = Number(args[name]);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}`);
  return value;
}

/** The node, the machine and the commit a run measured. */
export const machineLine = () => `node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown CPU'}), commit ${gitCommit()}`;
export const loadAverage = () => loadavg().map((value) => value.toFixed(2)).join(' ');
export const ms = (value: number | null) => (value === null ? '—' : String(Math.round(value)));
export const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** The median of a figure that may be missing (no /proc, a state the polls did not see): null unless every round has it. */
export function medianOrNull(values: (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === values.length ? median(known) : null;
}

/** The stack, and the cause when there is one. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return `${error.stack ?? error.message}${error.cause ? `\ncaused by: ${String(error.cause)}` : ''}`;
}

/**
 * Ends a run whatever happens: `cleanUp` (stop the load or the tools, the service, remove data) runs once, when the
 * run ends, at its first failure (the only one reported: tools killed while stopping fail too), on Ctrl-C or
 * SIGTERM, or when the run exceeds its time budget.
 */
export function guardRun(budgetSeconds: number, stop: () => Promise<void>) {
  let cleaning: Promise<void> | undefined;
  let failing = false;
  const cleanUp = (): Promise<void> => (cleaning ??= stop().finally(() => clearTimeout(watchdog)));
  const fail = (message: string) => {
    if (failing) return;
    failing = true;
    console.error(message);
    void cleanUp().finally(() => process.exit(1));
  };
  const watchdog = setTimeout(() => fail(`benchmark exceeded its ${budgetSeconds} s budget; stopping`), budgetSeconds * 1000);
  watchdog.unref();
  process.once('SIGINT', () => fail('interrupted'));
  process.once('SIGTERM', () => fail('terminated'));
  return { cleanUp, fail };
}

// ---------------------------------------------------------------------------------------------
// Load benchmarks: autocannon rounds per scenario, one markdown row each.

export const LOAD_OPTIONS = {
  duration: { type: 'string', default: '10' },
  connections: { type: 'string', default: '50' },
  rounds: { type: 'string', default: '3' },
  warmup: { type: 'string', default: '3' },
} as const;

export interface LoadSettings {
  duration: number;
  connections: number;
  rounds: number;
  warmup: number;
}

export const loadSettings = (args: Record<keyof typeof LOAD_OPTIONS, unknown>): LoadSettings => ({
  duration: wholeOption(args, 'duration', 1),
  connections: wholeOption(args, 'connections', 1),
  rounds: wholeOption(args, 'rounds', 1),
  warmup: wholeOption(args, 'warmup', 1),
});

export const SCENARIO_TABLE_HEAD = '| scenario | req/s (median) | p50 ms | p99 ms | non-2xx | errors | req/s per round |\n|---|---:|---:|---:|---:|---:|---|';

/** Rounds of load with fixed headers; `stop()` ends the round under way, for a run that fails. */
export function loadRunner(settings: LoadSettings, headers: Record<string, string>) {
  let running: CannonRun | undefined;
  const round = (baseUrl: string, requests: CannonRequest[], seconds: number) =>
    cannonRound({ url: baseUrl, connections: settings.connections, seconds, headers, requests }, (run) => {
      running = run;
    });
  return {
    /** A discarded warm-up, then the measured rounds; prints the scenario's row and returns its rounds. */
    async scenario(baseUrl: string, name: string, requests: CannonRequest[]): Promise<StatusRound[]> {
      await round(baseUrl, requests, settings.warmup);
      const results: StatusRound[] = [];
      for (let index = 0; index < settings.rounds; index++) results.push(await round(baseUrl, requests, settings.duration));
      console.log(scenarioRow(name, results));
      return results;
    },
    stop: () => running?.stop(),
  };
}

// ---------------------------------------------------------------------------------------------
// Generation benchmarks: the long article, the item it becomes, and the bare tools narrating it by hand.

/** `longArticleHtml(words)` as the generation benchmarks send it, and the text segments the service makes of it. */
export function benchArticle(words: number) {
  const html = longArticleHtml(words);
  const heading = /<h1>(.*?)<\/h1>\n?/.exec(html);
  // The fixture's <h1> becomes the title, so the title is not spoken twice.
  const title = heading?.[1] ?? 'Benchmark article';
  const body = heading ? html.replace(heading[0], '') : html;
  const texts = prepareArticle({
    title,
    summary: null,
    body,
    // The defaults the service plans with (src/generation/plan.ts) for an item that sets none of them.
    titleEnabled: true,
    bodyEnabled: true,
    summaryEnabled: false,
    summaryTitleEnabled: false,
  }).segments.flatMap((segment) => (segment.content_type === 'text' && segment.text ? [segment.text] : []));
  return { title, body, texts };
}

const headers = { 'x-api-key': API_KEY, 'content-type': 'application/json' };

/** Creates an item; returns its id. */
export async function createItem(baseUrl: string, item: object): Promise<string> {
  const response = await fetch(`${baseUrl}${CONTENT}`, { method: 'POST', headers, body: JSON.stringify(item), signal: AbortSignal.timeout(15_000) });
  const created = (await response.json()) as { id?: string };
  if (response.status !== 201 || !created.id) throw new Error(`POST answered ${response.status}: ${JSON.stringify(created)}`);
  return created.id;
}

export async function getItem<Item>(baseUrl: string, id: string, segments: 'none' | 'partial'): Promise<Item> {
  const response = await fetch(`${baseUrl}${CONTENT}/${id}?segments=${segments}`, { headers, signal: AbortSignal.timeout(10_000) });
  const item = (await response.json()) as Item;
  if (response.status !== 200) throw new Error(`GET ${id} answered ${response.status}: ${JSON.stringify(item)}`);
  return item;
}

/** Runs the bare tools one at a time, timed; `stop()` kills the one running, so that stopping early leaves none behind. */
export function toolRunner(timeoutMs: number) {
  let running: ChildProcess | undefined;
  return {
    run(command: string, commandArgs: string[]): Promise<{ ms: number; stdout: string }> {
      return new Promise((resolve, reject) => {
        const started = performance.now();
        const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
        running = child;
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        child.once('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        child.once('close', (code, signal) => {
          clearTimeout(timer);
          if (code === 0) resolve({ ms: performance.now() - started, stdout });
          else reject(new Error(`${command} ${commandArgs.join(' ')} ended with ${code ?? signal}: ${stderr.trim()}`));
        });
      });
    },
    stop: () => running?.kill('SIGKILL'),
  };
}

/**
 * CPU time (user + system, ms) of a process, all its threads, plus its reaped children, from /proc (Linux; null
 * elsewhere): what a process did, whatever else the machine is doing at the time.
 */
export interface Cpu {
  /** The process itself (for the service: Node — HTTP, event store, projections, word timings). */
  own: number;
  /** Its children once reaped (for the service: espeak-words / espeak-ng, ffmpeg). */
  tools: number;
}
export function cpuMs(pid: number | 'self'): Cpu | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // utime, stime, cutime, cstime are fields 14–17 of the file, 11–14 after the command name.
    const [utime, stime, cutime, cstime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 15).map(Number);
    const cpu = { own: (utime! + stime!) * 10, tools: (cutime! + cstime!) * 10 }; // USER_HZ is 100 on Linux
    return Number.isFinite(cpu.own + cpu.tools) ? cpu : null;
  } catch {
    return null;
  }
}
