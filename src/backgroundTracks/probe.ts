// A track's audio is fetched once through the guarded fetcher (or taken from its upload) and admitted by the media
// intake (an allowed audio format, at most AUDIO_MAX_DURATION_S, read only through its own demuxer), then decoded,
// which both proves it is usable audio and measures it. Refused or undecodable audio is the client's mistake (422).
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode, fetchAudio, type AudioFetchLimits } from '../media/fetchAudio.ts';
import { MediaError } from '../media/errors.ts';
import { sniffFile } from '../media/intake.ts';
import { wavSampleCount } from '../media/wav.ts';
import { invalid } from '../shared/errors.ts';

/** Decoding at a low rate keeps the scratch file small; only the length is kept. */
const PROBE_SAMPLE_RATE = 8000;

/** The audio's duration in seconds, to the millisecond. */
export function probeTrackSeconds(url: string, limits: AudioFetchLimits): Promise<number> {
  return measured('url', url, (wavPath) => fetchAudio(url, wavPath, { ...limits, sampleRate: PROBE_SAMPLE_RATE }).then(() => undefined));
}

export interface AdmittedUpload {
  /** The sniffed format's: the kept file is `path.<extension>`. */
  extension: string;
  duration: number;
}

/**
 * The same for an uploaded file, at `path` without an extension: on success it is renamed to `path.<extension>` of the
 * format its bytes show; the client's name for it is never used.
 */
export async function admitUpload(path: string, limits: AudioFetchLimits): Promise<AdmittedUpload> {
  const source = 'the uploaded file';
  const duration = await measured('file', source, (wavPath) => decode(path, wavPath, PROBE_SAMPLE_RATE, limits.timeoutMs, source, limits.maxDurationMs));
  // Admitted by the decoding: its format is one of the allowed audio ones.
  const format = (await sniffFile(path))!;
  await rename(path, `${path}.${format.extension}`);
  return { extension: format.extension, duration };
}

async function measured(location: string, source: string, decodeTo: (wavPath: string) => Promise<void>): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'background-track-'));
  try {
    const wavPath = join(dir, 'track.wav');
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
