// Runs one ffmpeg render: killed past its time limit, past its memory bound or when its signal aborts, its peak memory
// (VmHWM) sampled as it runs.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VideoRenderError } from './errors.ts';

export interface FfmpegRun {
  stderr: string;
  /** The process's resident-memory high-water mark in bytes, as last read from /proc (0 where /proc is missing). */
  peakMemoryBytes: number;
}

const SAMPLE_MS = 100;
/** Keeps the end of a verbose log: its head (font choices) is parsed separately as it arrives. */
const MAX_LOG = 512 * 1024;

async function highWaterMark(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kilobytes = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return kilobytes ? Number(kilobytes) * 1024 : 0;
}

export interface FfmpegOptions {
  cwd: string;
  timeoutMs: number;
  /** Killed once its resident memory passes this (checked every 100 ms). */
  maxRssBytes?: number;
  signal?: AbortSignal;
}

/**
 * The arguments with a `-filter_complex` graph moved into a script file of the working directory
 * (`-filter_complex_script`): a render's graph (many layers, expressions, colours, paths) is never on ffmpeg's
 * command line, where it would meet the argument length limit and show in the process list.
 */
async function withGraphScript(args: readonly string[], cwd: string): Promise<string[]> {
  const at = args.indexOf('-filter_complex');
  if (at < 0) return [...args];
  const file = `graph-${randomUUID()}.txt`;
  await writeFile(path.join(cwd, file), args[at + 1]!);
  return [...args.slice(0, at), '-filter_complex_script', file, ...args.slice(at + 2)];
}

export async function runFfmpeg(args: readonly string[], options: FfmpegOptions): Promise<FfmpegRun> {
  if (options.signal?.aborted) throw new VideoRenderError('aborted', 'the render was cancelled before it started');
  const command = await withGraphScript(args, options.cwd);
  if (options.signal?.aborted) throw new VideoRenderError('aborted', 'the render was cancelled before it started');
  return spawnFfmpeg(command, options);
}

function spawnFfmpeg(args: readonly string[], options: FfmpegOptions): Promise<FfmpegRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { cwd: options.cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    let peak = 0;
    let ended: VideoRenderError | null = null;
    const stop = (error: VideoRenderError) => {
      ended ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(new VideoRenderError('timeout', `ffmpeg did not finish within ${options.timeoutMs} ms`)), options.timeoutMs);
    const sampler = setInterval(() => {
      if (!child.pid) return;
      void highWaterMark(child.pid).then((bytes) => {
        peak = Math.max(peak, bytes);
        const bound = options.maxRssBytes;
        if (bound && peak > bound) stop(new VideoRenderError('memory', `ffmpeg used more than ${Math.round(bound / 1024 / 1024)} MB of memory`));
      });
    }, SAMPLE_MS);
    const onAbort = () => stop(new VideoRenderError('aborted', 'the render was cancelled'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      log += chunk;
      if (log.length > MAX_LOG * 2) log = log.slice(0, MAX_LOG) + log.slice(-MAX_LOG);
    });
    const finish = (error: VideoRenderError | null) => {
      clearTimeout(timer);
      clearInterval(sampler);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve({ stderr: log, peakMemoryBytes: peak });
    };
    child.on('error', (error) => finish(new VideoRenderError('ffmpeg', `ffmpeg could not start: ${error.message}`)));
    child.on('close', (code) => {
      if (ended) return finish(ended);
      if (code !== 0) return finish(new VideoRenderError('ffmpeg', `ffmpeg exited with ${code}: ${log.trim().split('\n').slice(-4).join(' | ')}`));
      finish(null);
    });
  });
}
