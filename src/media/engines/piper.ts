// Speaks text with Piper neural voices through a pool of long-lived Python workers (piperWorker.py, pooled by
// workerPool.ts, which also serves Kokoro).
import { fileURLToPath } from 'node:url';
import { runTool } from '../tool.ts';
import { createWorkerEngine, type WarmableEngine, type WorkerPoolOptions } from './workerPool.ts';

export const workerScript = fileURLToPath(new URL('./piperWorker.py', import.meta.url));

/**
 * Piper's venv Python (piper-tts and the voice packages), the pool's bounds, each worker's onnxruntime threads
 * (default: one per core), and the seed of the voices' noise: with one, the same text, voice and speed give the same
 * samples every time (for a given number of threads); without, each reading varies a little.
 */
export type PiperOptions = WorkerPoolOptions & { threads?: number; seed?: number };

export type PiperEngine = WarmableEngine;

/** The sample rate of each given voice package that is installed with Piper in `python`'s environment; empty when there is none. */
export async function installedPiperVoices(python: string, packages: readonly string[]): Promise<Map<string, number>> {
  const run = await runTool(python, [workerScript, '--check', ...packages], { timeoutMs: 30_000 });
  if (run.code !== 0) return new Map();
  return new Map(Object.entries(JSON.parse(run.stdout.toString('utf8')) as Record<string, number>));
}

export function createPiperEngine(options: PiperOptions): PiperEngine {
  return createWorkerEngine('Piper', workerScript, [String(options.threads ?? 0), options.seed === undefined ? '-' : String(options.seed)], options);
}
