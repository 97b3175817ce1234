// Speaks text with RHVoice (Russian) through the native helper build/rhvoice-words: a WAV and its word timings.
import { readdir, rm, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SynthesisError } from '../errors.ts';
import { createLimit } from '../limit.ts';
import { SAMPLE_RATE, type SpokenText } from '../synthesizer.ts';
import { runTool, tail, type ToolRun } from '../tool.ts';
import { trailingSilenceSamples } from '../wav.ts';
import { timeWords, type WordEvent } from '../wordTimings.ts';
import { pausesOf, type Pause } from './pauses.ts';
import { resampleWav } from './resample.ts';

export interface RhvoiceOptions {
  /** How many synthesizer processes may run at once. */
  concurrency: number;
  /** Per process; past it the process is killed and `speak` rejects with reason `timeout`. */
  timeoutMs: number;
}

export interface RhvoiceEngine {
  /** `voice` is an installed RHVoice voice (`aleksandr`); `speed` scales its rate. `text` is plain text (no SSML). */
  speak(text: string, voice: string, wavPath: string, speed?: number): Promise<SpokenText>;
}

/** Where Debian's rhvoice-* packages put the voices, one folder each. */
const VOICES_DIR = '/usr/share/RHVoice/voices';

/** The RHVoice voices installed here (their folder names); none when RHVoice is not installed. */
export async function installedRhvoiceVoices(): Promise<string[]> {
  return readdir(VOICES_DIR).catch(() => []);
}

const binary = fileURLToPath(new URL('../../../build/rhvoice-words', import.meta.url));
const source = fileURLToPath(new URL('../native/rhvoice-words.c', import.meta.url));
const buildScript = fileURLToPath(new URL('../../../scripts/build-native.sh', import.meta.url));
const UNKNOWN_VOICE_EXIT = 3; // see rhvoice-words.c

export function createRhvoiceEngine({ concurrency, timeoutMs }: RhvoiceOptions): RhvoiceEngine {
  const limit = createLimit(concurrency);
  return {
    speak: (text, voice, wavPath, speed = 1) =>
      limit(async () => {
        await ensureBinary();
        return synthesize(text, voice, wavPath, speed, timeoutMs);
      }),
  };
}

async function synthesize(text: string, voice: string, wavPath: string, speed: number, timeoutMs: number): Promise<SpokenText> {
  const ownRate = `${wavPath}.rhvoice.wav`;
  const run = await runTool(binary, [voice, String(speed), ownRate], { input: text, timeoutMs });
  if (run.code !== 0) {
    await rm(ownRate, { force: true });
    throw synthesisFailure(run, voice, timeoutMs);
  }
  const lines = run.stdout.toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
  lines.pop();
  const pcm = await resampleWav(ownRate, wavPath, timeoutMs);
  const samples = pcm.length >> 1;
  const audibleEndMs = ((samples - trailingSilenceSamples(pcm)) * 1000) / SAMPLE_RATE;
  const events = atPauseEnds(lines as WordEvent[], pausesOf(pcm, SAMPLE_RATE, 40));
  return {
    wavPath,
    sampleRate: SAMPLE_RATE,
    samples,
    durationMs: (samples * 1000) / SAMPLE_RATE,
    words: timeWords(text, events, audibleEndMs),
  };
}

/**
 * RHVoice hands its audio over in 100 ms blocks and reports a word start between two blocks, so a start may be up to
 * a block early. A word whose block holds the end of a pause starts there (the pause before it is the previous word's).
 */
const CHUNK_MS = 100;

function atPauseEnds(events: readonly WordEvent[], pauses: readonly Pause[]): WordEvent[] {
  const moved = events.map((event) => {
    const pause = pauses.find((candidate) => candidate.end > event.start && candidate.end <= event.start + CHUNK_MS);
    return pause ? { ...event, start: pause.end } : event;
  });
  // Words reported between the same two blocks share the first one's time (timeWords splits it by their lengths).
  return moved.filter((event, i) => i === 0 || event.start > moved[i - 1]!.start);
}

function synthesisFailure(run: ToolRun, voice: string, timeoutMs: number): SynthesisError {
  if (run.timedOut) return new SynthesisError('timeout', `RHVoice ran longer than ${timeoutMs} ms and was killed`);
  if (run.code === UNKNOWN_VOICE_EXIT) return new SynthesisError('unknown-voice', `RHVoice has no voice named "${voice}"`);
  return new SynthesisError('failed', `rhvoice-words failed: ${run.startError?.message ?? tail(run.stderr)}`);
}

let built: Promise<void> | undefined;

/** Builds the helper once per process when it is missing or older than its source. */
function ensureBinary(): Promise<void> {
  built ??= (async () => {
    const [helper, code] = await Promise.all([stat(binary).catch(() => undefined), stat(source).catch(() => undefined)]);
    if (helper !== undefined && (code === undefined || helper.mtimeMs >= code.mtimeMs)) return;
    const run = await runTool('bash', [buildScript, 'rhvoice-words']);
    if (run.code !== 0) {
      built = undefined;
      throw new SynthesisError('not-built', `cannot build ${binary}: ${run.startError?.message ?? tail(run.stderr)}`);
    }
  })();
  return built;
}
