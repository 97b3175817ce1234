// A track's audio is fetched once through the guarded fetcher (or taken from its upload) and decoded, which both
// proves it is usable audio and measures it; audio that cannot be decoded is the client's mistake (422), not a fault.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode, fetchAudio, type AudioFetchLimits } from '../media/fetchAudio.ts';
import { MediaError } from '../media/errors.ts';
import { parseWav } from '../media/wav.ts';
import { invalid } from '../shared/errors.ts';

/** Decoding at a low rate keeps the scratch file small; only the length is kept. */
const PROBE_SAMPLE_RATE = 8000;

/** The audio's duration in seconds, to the millisecond. */
export function probeTrackSeconds(url: string, limits: AudioFetchLimits): Promise<number> {
  return measured('url', url, (wavPath) => fetchAudio(url, wavPath, { ...limits, sampleRate: PROBE_SAMPLE_RATE }).then(() => undefined));
}

/** The same for an uploaded file, read from where it was received; `name`: the client's name for it, for messages. */
export function probeUploadSeconds(path: string, name: string, limits: AudioFetchLimits): Promise<number> {
  return measured('file', name, (wavPath) => decode(path, wavPath, PROBE_SAMPLE_RATE, limits.timeoutMs, name));
}

async function measured(location: string, source: string, decodeTo: (wavPath: string) => Promise<void>): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'background-track-'));
  try {
    const wavPath = join(dir, 'track.wav');
    await decodeTo(wavPath);
    const samples = parseWav(await readFile(wavPath), source).data.length / 2;
    if (samples === 0) throw invalid([{ location, message: `${source} holds no audio` }]);
    return Math.round((samples * 1000) / PROBE_SAMPLE_RATE) / 1000;
  } catch (error) {
    if (error instanceof MediaError) throw invalid([{ location, message: error.message }]);
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
