// A designed voice's pitch and timbre: after Kokoro has spoken, ffmpeg shifts the pitch (rubberband, formants kept,
// tempo kept) and tilts the timbre (two peaking equalizers, low and high), writing the same number of samples back.
// Since the tempo does not change, every word stays where Kokoro's durations put it: word times need no change.
// A Kokoro voice carries its shift after an `@`: `af_heart:0.7+bf_emma:0.3@pitch=-1.5,low=3,high=0`.
import { rename, rm } from 'node:fs/promises';
import { SynthesisError } from '../errors.ts';
import { runTool, tail } from '../tool.ts';

/** Semitones up (positive) or down, and the gain in dB of the low (around 160 Hz) and high (around 4 kHz) bands. */
export interface VoiceShift {
  semitones: number;
  lowDb: number;
  highDb: number;
}

/** What a designed voice may ask for: a few semitones and a few dB, where speech stays natural and understood. */
export const SHIFT_LIMITS = { semitones: 4, db: 6 } as const;

export const isNeutralShift = (shift: VoiceShift | null | undefined) => !shift || (shift.semitones === 0 && shift.lowDb === 0 && shift.highDb === 0);

/** Within SHIFT_LIMITS, numbers all. */
export function isValidShift(shift: VoiceShift): boolean {
  const within = (value: unknown, limit: number) => typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;
  return within(shift.semitones, SHIFT_LIMITS.semitones) && within(shift.lowDb, SHIFT_LIMITS.db) && within(shift.highDb, SHIFT_LIMITS.db);
}

/** `voice@pitch=..,low=..,high=..`; the voice alone when the shift changes nothing. */
export function withShift(voice: string, shift: VoiceShift | null | undefined): string {
  if (!shift || isNeutralShift(shift)) return voice;
  return `${voice}@pitch=${shift.semitones},low=${shift.lowDb},high=${shift.highDb}`;
}

const SHIFTED = /^(.+)@pitch=(-?\d+(?:\.\d+)?),low=(-?\d+(?:\.\d+)?),high=(-?\d+(?:\.\d+)?)$/;

/** The voice the worker speaks with, and the shift applied after; a malformed or excessive shift names no voice. */
export function splitShift(voice: string): { voice: string; shift: VoiceShift | null } {
  if (!voice.includes('@')) return { voice, shift: null };
  const match = SHIFTED.exec(voice);
  const shift = match ? { semitones: Number(match[2]), lowDb: Number(match[3]), highDb: Number(match[4]) } : null;
  if (!match || !shift || !isValidShift(shift)) throw new SynthesisError('unknown-voice', `no Kokoro voice ${voice}: the shift after @ is not pitch=N,low=N,high=N within its limits`);
  return { voice: match[1]!, shift };
}

let rubberband: Promise<boolean> | undefined;

/** Whether this ffmpeg has the rubberband filter (Debian's does); asked once. */
export function hasRubberband(): Promise<boolean> {
  rubberband ??= runTool('ffmpeg', ['-hide_banner', '-filters'], { timeoutMs: 10_000 }).then((run) => run.code === 0 && /\srubberband\s/.test(run.stdout.toString('utf8')));
  return rubberband;
}

/**
 * The filter graph: headroom for the boosted band, the pitch shift (rubberband with its formants preserved; else a
 * resampling pitch change whose tempo change atempo undoes), the two bands, and exactly `samples` samples.
 */
export function shiftFilter(shift: VoiceShift, sampleRate: number, samples: number, withRubberband: boolean): string {
  const filters: string[] = [];
  const boost = Math.max(0, shift.lowDb, shift.highDb);
  if (boost > 0) filters.push(`volume=-${boost}dB`);
  if (shift.semitones !== 0) {
    const ratio = 2 ** (shift.semitones / 12);
    filters.push(
      withRubberband
        ? `rubberband=pitch=${ratio.toFixed(6)}:formant=preserved:pitchq=quality`
        : `asetrate=${Math.round(sampleRate * ratio)},aresample=${sampleRate},atempo=${(1 / ratio).toFixed(6)}`,
    );
  }
  if (shift.lowDb !== 0) filters.push(`equalizer=f=160:t=o:w=2:g=${shift.lowDb}`);
  if (shift.highDb !== 0) filters.push(`equalizer=f=4000:t=o:w=2:g=${shift.highDb}`);
  filters.push(`apad=whole_len=${samples}`, `atrim=end_sample=${samples}`);
  return filters.join(',');
}

/** Rewrites the mono 16-bit wav at `wavPath` shifted, with the same rate and number of samples. */
export async function applyShift(wavPath: string, shift: VoiceShift, sampleRate: number, samples: number): Promise<void> {
  const shifted = `${wavPath}.shifted.wav`;
  const filter = shiftFilter(shift, sampleRate, samples, await hasRubberband());
  const run = await runTool(
    'ffmpeg',
    ['-nostdin', '-loglevel', 'error', '-y', '-f', 'wav', '-protocol_whitelist', 'file', '-i', wavPath, '-af', filter, '-ar', String(sampleRate), '-ac', '1', '-c:a', 'pcm_s16le', '-f', 'wav', shifted],
    { timeoutMs: 60_000 },
  );
  if (run.code !== 0) {
    await rm(shifted, { force: true });
    throw new SynthesisError('failed', `ffmpeg could not shift the voice: ${run.startError?.message ?? tail(run.stderr)}`);
  }
  await rename(shifted, wavPath);
}
