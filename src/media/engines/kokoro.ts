// Speaks text with Kokoro-82M's English voices through the shared worker pool (kokoroWorker.py, workerPool.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool } from '../tool.ts';
import { createWorkerEngine, type NeuralEngine, type WorkerPoolOptions } from './workerPool.ts';

export const kokoroWorkerScript = fileURLToPath(new URL('./kokoroWorker.py', import.meta.url));

/** Where scripts/install-kokoro-voices.sh puts the voices' style vectors: inside the venv. */
export const kokoroVoicesDir = (venv: string) => path.join(venv, 'voices');

export interface KokoroOptions extends Omit<WorkerPoolOptions, 'python'> {
  /** The venv (scripts/install-venv.sh kokoro): its Python runs the workers, its voices/ holds the voices. */
  venv: string;
}

export type KokoroEngine = NeuralEngine;

/** The names of the Kokoro voices installed in `venv` (`af_heart`, ...); empty when Kokoro is not installed there. */
export async function installedKokoroVoices(venv: string): Promise<string[]> {
  const run = await runTool(path.join(venv, 'bin', 'python'), [kokoroWorkerScript, '--check', kokoroVoicesDir(venv)], { timeoutMs: 30_000 });
  if (run.code !== 0) return [];
  return (JSON.parse(run.stdout.toString('utf8')) as { voices: string[] }).voices;
}

/** A voice is a style vector's name, or a blend of two (`af_heart:0.6+bf_emma:0.4`). */
export function createKokoroEngine({ venv, ...pool }: KokoroOptions): KokoroEngine {
  return createWorkerEngine('Kokoro', kokoroWorkerScript, [kokoroVoicesDir(venv)], { ...pool, python: path.join(venv, 'bin', 'python') });
}
