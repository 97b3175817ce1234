// An uploaded audio file (a background track's, an `audio_upload` item's) is admitted by the media intake (an allowed
// audio format, at most AUDIO_MAX_DURATION_S, read only through its own demuxer) and decoded whole, which both proves
// it is usable audio and measures it. Refused or undecodable audio is the client's mistake: a 422 at the field.
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invalid } from '../shared/errors.ts';
import { MediaError } from './errors.ts';
import { decode, type AudioFetchLimits } from './fetchAudio.ts';
import { sniffFile } from './intake.ts';
import { wavSampleCount } from './wav.ts';

/** Decoding at a low rate keeps the scratch file small; only the length is kept. */
export const PROBE_SAMPLE_RATE = 8000;

export interface AdmittedUpload {
  /** The sniffed format's: the kept file is `path.<extension>`. */
  extension: string;
  /** In seconds, to the millisecond. */
  duration: number;
}

/**
 * Admits the uploaded file at `path` (without an extension): on success it is renamed to `path.<extension>` of the
 * format its bytes show; the client's name for it is never used, not even in messages.
 */
export async function admitUpload(path: string, limits: AudioFetchLimits): Promise<AdmittedUpload> {
  const source = 'the uploaded file';
  const duration = await measuredAudio('file', source, (wavPath) => decode(path, wavPath, PROBE_SAMPLE_RATE, limits.timeoutMs, source, limits.maxDurationMs));
  // Admitted by the decoding: its format is one of the allowed audio ones.
  const format = (await sniffFile(path))!;
  await rename(path, `${path}.${format.extension}`);
  return { extension: format.extension, duration };
}

/** The length in seconds of what `decodeTo` decodes at PROBE_SAMPLE_RATE; a media refusal is a 422 at `location`. */
export async function measuredAudio(location: string, source: string, decodeTo: (wavPath: string) => Promise<void>): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'audio-probe-'));
  try {
    const wavPath = join(dir, 'probe.wav');
    await decodeTo(wavPath);
    const samples = await wavSampleCount(wavPath, source);
    if (samples === 0) throw invalid([{ location, message: `${source} holds no audio` }]);
    return Math.round((samples * 1000) / PROBE_SAMPLE_RATE) / 1000;
  } catch (error) {
    if (error instanceof MediaError) throw invalid([{ location, message: error.message }]);
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
