// Speaks text with Kokoro-82M's voices (eight languages) through the shared worker pool (kokoroWorker.py, workerPool.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool } from '../tool.ts';
import { applyShift, splitShift } from './kokoroShift.ts';
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

/**
 * A voice is a style vector's name, or a blend (`af_heart:0.6+bf_emma:0.4`), optionally with a pitch and timbre
 * shift after an `@` (kokoroShift.ts): the worker speaks the blend, ffmpeg shifts its wav without changing its length.
 */
export function createKokoroEngine({ venv, ...pool }: KokoroOptions): KokoroEngine {
  const workers = createWorkerEngine('Kokoro', kokoroWorkerScript, [kokoroVoicesDir(venv)], { ...pool, python: path.join(venv, 'bin', 'python') });
  return {
    async speak(text, voice, wavPath, ...rest) {
      const { voice: blend, shift } = splitShift(voice);
      const spoken = await workers.speak(text, blend, wavPath, ...rest);
      if (shift) await applyShift(wavPath, shift, spoken.sampleRate, spoken.samples);
      return spoken;
    },
    close: () => workers.close(),
  };
}
