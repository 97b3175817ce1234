// Starts the service as a child process for the benchmarks, and stops it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface Server {
  baseUrl: string;
  pid: number;
  output(): string;
  stop(): Promise<void>;
}

/** Starts the service; `onCrash` hears of it, with its last output, if it exits before `stop()`. */
export async function startServer(env: Record<string, string>, nodeArgs: string[], onCrash: (message: string) => void): Promise<Server> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 45 s:\n${output}`)), 45_000);
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
