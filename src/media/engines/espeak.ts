// Speaks text with libespeak-ng through the native helper build/espeak-words: a WAV and its word timings.
import { readFile, rm, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SynthesisError } from '../errors.ts';
import { createLimit } from '../limit.ts';
import { runTool, tail, type ToolRun } from '../tool.ts';
import { parseWav, trailingSilenceSamples } from '../wav.ts';
import { timeWords, type WordEvent } from '../wordTimings.ts';
import type { SpokenText } from '../synthesizer.ts';

export interface EspeakOptions {
  /** How many synthesizer processes may run at once. */
  concurrency: number;
  /** Per process; past it the process is killed and `speak` rejects with reason `timeout`. */
  timeoutMs: number;
  wordsPerMinute?: number;
}

export interface EspeakEngine {
  /**
   * `voice` is what espeak-ng's `-v` takes (`en`, `en-gb`, `de`, `en-us+f3`); `speed` scales the words per minute.
   * Phoneme input is on (`[[…]]`, espeakPHONEMES), so `text` is speakable text (src/speech/normalize.ts: no bracket
   * of an article or a rule's text) with phonemeMarkup's blocks only where an IPA rule put them.
   */
  speak(text: string, voice: string, wavPath: string, speed?: number): Promise<SpokenText>;
}

const binary = fileURLToPath(new URL('../../../build/espeak-words', import.meta.url));
const source = fileURLToPath(new URL('../native/espeak-words.c', import.meta.url));
const buildScript = fileURLToPath(new URL('../../../scripts/build-native.sh', import.meta.url));
const UNKNOWN_VOICE_EXIT = 3; // see espeak-words.c

export function createEspeakEngine({ concurrency, timeoutMs, wordsPerMinute = 175 }: EspeakOptions): EspeakEngine {
  const limit = createLimit(concurrency);
  return {
    speak: (text, voice, wavPath, speed = 1) =>
      limit(async () => {
        await ensureBinary();
        return synthesize(text, voice, wavPath, Math.round(wordsPerMinute * speed), timeoutMs);
      }),
  };
}

async function synthesize(text: string, voice: string, wavPath: string, wordsPerMinute: number, timeoutMs: number): Promise<SpokenText> {
  const run = await runTool(binary, [voice, String(wordsPerMinute), wavPath], { input: text, timeoutMs });
  if (run.code !== 0) {
    await rm(wavPath, { force: true });
    throw synthesisFailure(run, voice, timeoutMs);
  }
  const lines = run.stdout.toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
  const { samples, rate } = lines.pop() as { samples: number; rate: number };
  const pcm = parseWav(await readFile(wavPath), wavPath).data;
  const audibleEndMs = ((samples - trailingSilenceSamples(pcm)) * 1000) / rate;
  return {
    wavPath,
    sampleRate: rate,
    samples,
    durationMs: (samples * 1000) / rate,
    words: timeWords(text, lines as WordEvent[], audibleEndMs),
  };
}

function synthesisFailure(run: ToolRun, voice: string, timeoutMs: number): SynthesisError {
  if (run.timedOut) return new SynthesisError('timeout', `espeak-ng ran longer than ${timeoutMs} ms and was killed`);
  if (run.code === UNKNOWN_VOICE_EXIT) return new SynthesisError('unknown-voice', `espeak-ng has no voice named "${voice}"`);
  return new SynthesisError('failed', `espeak-words failed: ${run.startError?.message ?? tail(run.stderr)}`);
}

let built: Promise<void> | undefined;

/** Builds the helper once per process when it is missing or older than its source. */
function ensureBinary(): Promise<void> {
  built ??= (async () => {
    if (await isUpToDate()) return;
    const run = await runTool('bash', [buildScript]);
    if (run.code !== 0) {
      throw new SynthesisError('not-built', `cannot build ${binary}: ${run.startError?.message ?? tail(run.stderr)}`);
    }
  })();
  return built;
}

async function isUpToDate(): Promise<boolean> {
  const [helper, code] = await Promise.all([stat(binary).catch(() => undefined), stat(source).catch(() => undefined)]);
  return helper !== undefined && (code === undefined || helper.mtimeMs >= code.mtimeMs);
}
