// Speaks text through a pool of long-lived Python workers, one request at a time each: the neural engines (Piper,
// piperWorker.py; Kokoro, kokoroWorker.py) share it, and their workers answer alike.
//
// Loading a voice model takes seconds and a request a fraction of one, so workers stay up between requests. A
// worker that dies (crash, kill, memory bound reached) is started again for the next request; the request it was
// serving fails with a SynthesisError, which the generation retries.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { SynthesisError } from '../errors.ts';
import { tail } from '../tool.ts';
import { parseWav, trailingSilenceSamples } from '../wav.ts';
import { tokenize, type Token } from '../wordTimings.ts';
import type { SpokenText } from '../synthesizer.ts';
import { timePiperWords, type TimedPhoneme } from './piperTimings.ts';

export interface WorkerPoolOptions {
  /** The Python of the virtual environment the engine is installed in. */
  python: string;
  /** How many workers may speak at once (each holds its model in memory, a few hundred MB). */
  workers: number;
  /** Per request; past it the worker is killed and `speak` rejects with reason `timeout`. */
  timeoutMs: number;
  /** A worker whose peak resident memory passes this leaves after its request; the next request starts a fresh one. */
  maxRssMb: number;
}

export interface NeuralEngine {
  /**
   * `speed` 1 is the voice's own pace; 1.3 speaks 1.3 times as fast. While every worker is busy, requests wait in
   * order of `priority` (lower first, 0 by default), then of arrival.
   */
  speak(text: string, voice: string, wavPath: string, speed?: number, priority?: number): Promise<SpokenText>;
  /** Stops the workers (they also stop on their own when this process exits: their stdin closes). */
  close(): void;
}

/** An engine whose worker can start and load a voice before any text comes (Piper's: piperWorker.py answers `warm`). */
export interface WarmableEngine extends NeuralEngine {
  /** Starts a worker, or takes an idle one, and has it load `voice`; resolves once it has. */
  warm(voice: string): Promise<void>;
}

/** A worker's answer to {voice, text, tokens, wav, speed}. */
interface Answer {
  error?: 'unknown-voice' | 'failed';
  message?: string;
  sample_rate: number;
  samples: number;
  /** Every phoneme spoken, in order, with the samples it lasted (at `phoneme_rate`, else at `sample_rate`). */
  phonemes: TimedPhoneme[];
  phoneme_rate?: number;
  /** Each whitespace token (else each of `words`) phonemized on its own, to align with the phonemes above (piperTimings.ts). */
  tokens: string[];
  /**
   * For a text written without spaces (Japanese, Chinese: Kokoro's G2P segments it), its words as [start, end) code
   * point offsets into the text: the words timed, instead of the whitespace tokens.
   */
  words?: [start: number, end: number][];
  /** The worker passed its memory bound and exits after this answer. */
  leaving?: boolean;
}

interface Worker {
  child: ChildProcessWithoutNullStreams;
  /** Settles the request in progress, if any. */
  pending?: (answer: Answer | SynthesisError) => void;
  stderr: string;
}

/** The words of `text` at the code point offsets a worker gave. */
function wordTokens(text: string, words: readonly [number, number][]): Token[] {
  const chars = [...text];
  return words.map(([start, end]) => ({ start, end, text: chars.slice(start, end).join('') }));
}

/** `engine` names it in errors; each worker runs `python script ...args maxRssMb`. */
export function createWorkerEngine(engine: string, script: string, args: readonly string[], { python, workers, timeoutMs, maxRssMb }: WorkerPoolOptions): WarmableEngine {
  const idle: Worker[] = [];
  // Kept sorted by priority, then arrival: a request for an item's first sentences goes before those for its later
  // ones, and an interactive item's before bulk work's (src/generation/render.ts).
  const waiting: { priority: number; hand: (worker: Worker | undefined) => void }[] = [];
  const all = new Set<Worker>();
  let started = 0;

  function start(): Worker {
    const child = spawn(python, [script, ...args, String(maxRssMb)], { stdio: 'pipe' });
    const worker: Worker = { child, stderr: '' };
    all.add(worker);
    // Idle workers must not keep this process alive.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
    child.stdin.on('error', () => {});
    child.stderr.on('data', (chunk: Buffer) => (worker.stderr = (worker.stderr + chunk.toString('utf8')).slice(-4000)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      // Answers are JSON objects; anything else a library printed is kept with the diagnostics.
      if (!line.startsWith('{')) return void (worker.stderr += `${line}\n`);
      const answer = JSON.parse(line) as Answer;
      // Out of the pool before its exit is seen, so that no request is handed to it meanwhile.
      if (answer.leaving) retire(worker);
      const settle = worker.pending;
      worker.pending = undefined;
      settle?.(answer);
    });
    const gone = (how: string) => {
      const settle = worker.pending;
      worker.pending = undefined;
      retire(worker);
      settle?.(new SynthesisError('failed', `the ${engine} worker ${how} while speaking: ${tail(worker.stderr) || 'no output'}`));
    };
    child.on('error', (error) => gone(`could not start (${error.message})`));
    child.on('exit', (code, signal) => gone(signal ? `was killed (${signal})` : `exited (code ${code})`));
    return worker;
  }

  /** Takes a worker out of the pool for good (it died, or is being killed); a waiting request may start another. */
  function retire(worker: Worker) {
    if (!all.delete(worker)) return;
    started--;
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    waiting.shift()?.hand(undefined);
  }

  /** An idle worker, a new one while fewer than `workers` run, or the next one to become free. */
  async function acquire(priority: number): Promise<Worker> {
    for (;;) {
      const free = idle.pop();
      if (free) return free;
      if (started < workers) {
        started++;
        return start();
      }
      const handed = await new Promise<Worker | undefined>((hand) => {
        const after = waiting.findIndex((other) => other.priority > priority);
        waiting.splice(after < 0 ? waiting.length : after, 0, { priority, hand });
      });
      if (handed) return handed;
    }
  }

  function release(worker: Worker) {
    if (!all.has(worker)) return;
    const next = waiting.shift();
    if (next) next.hand(worker);
    else idle.push(worker);
  }

  async function ask(worker: Worker, request: object): Promise<Answer> {
    const answer = await new Promise<Answer | SynthesisError>((resolve) => {
      const timer = setTimeout(() => {
        worker.pending = undefined;
        retire(worker);
        worker.child.kill('SIGKILL');
        resolve(new SynthesisError('timeout', `${engine} ran longer than ${timeoutMs} ms and was killed`));
      }, timeoutMs);
      worker.pending = (settled) => {
        clearTimeout(timer);
        resolve(settled);
      };
      worker.child.stdin.write(`${JSON.stringify(request)}\n`);
    });
    if (answer instanceof SynthesisError) throw answer;
    if (answer.error) throw new SynthesisError(answer.error, `${engine}: ${answer.message ?? answer.error}`);
    return answer;
  }

  return {
    async speak(text, voice, wavPath, speed = 1, priority = 0) {
      const worker = await acquire(priority);
      let answer: Answer;
      try {
        const tokens = tokenize(text).map((token) => token.text);
        answer = await ask(worker, { voice, text, tokens, wav: wavPath, speed });
      } catch (error) {
        await rm(wavPath, { force: true });
        throw error;
      } finally {
        release(worker);
      }
      const pcm = parseWav(await readFile(wavPath), wavPath).data;
      const audibleEndMs = ((answer.samples - trailingSilenceSamples(pcm)) * 1000) / answer.sample_rate;
      return {
        wavPath,
        sampleRate: answer.sample_rate,
        samples: answer.samples,
        durationMs: (answer.samples * 1000) / answer.sample_rate,
        words: timePiperWords(text, answer.tokens, answer.phonemes, answer.phoneme_rate ?? answer.sample_rate, audibleEndMs, answer.words && wordTokens(text, answer.words)),
      };
    },
    async warm(voice) {
      const worker = await acquire(0);
      try {
        await ask(worker, { voice, warm: true });
      } finally {
        release(worker);
      }
    },
    close() {
      for (const worker of all) worker.child.kill('SIGTERM');
    },
  };
}
