// Runs an external tool (espeak-words, ffmpeg, ffprobe) to completion and reports how it ended; never rejects.
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface ToolRun {
  code: number | null;
  timedOut: boolean;
  stdout: Buffer;
  stderr: string;
  /** Set when the process could not be started at all (e.g. the binary is missing). */
  startError?: Error;
}

export interface ToolOptions {
  input?: string | Readable;
  /** Killed with SIGKILL past this many milliseconds. */
  timeoutMs?: number;
  /** The working directory; relative file names in `args` are read from and written to it. */
  cwd?: string;
}

export function runTool(command: string, args: readonly string[], options: ToolOptions = {}): Promise<ToolRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'pipe', cwd: options.cwd });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    let settled = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, options.timeoutMs);
    const settle = (code: number | null, startError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const run: ToolRun = { code, timedOut, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') };
      resolve(startError ? { ...run, startError } : run);
    };
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => settle(null, error));
    child.on('close', (code) => settle(code));
    // A tool that exits early closes its stdin; its exit status, not EPIPE, says what went wrong.
    child.stdin.on('error', () => {});
    if (options.input === undefined || typeof options.input === 'string') child.stdin.end(options.input);
    else options.input.pipe(child.stdin);
  });
}

/** The last lines of a tool's stderr, for error messages. */
export function tail(text: string, lines = 5): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}
