// Runs the operator CLI against a test server's stores, as an operator would.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT } from './server.ts';

const run = promisify(execFile);

export const cli = (env: Record<string, string>, ...args: string[]) => cliWithin(60_000, env, ...args);

/** The CLI, given `timeoutMs` to finish (a long import or rebuild). */
export async function cliWithin(timeoutMs: number, env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

export const keyIn = (output: string) => /API key (\S+)/.exec(output)?.[1] ?? '';
export const idIn = (output: string, noun: string) => Number(new RegExp(`^${noun} (\\d+)`, 'm').exec(output)?.[1]);
