// A track's audio is fetched once through the guarded fetcher and decoded, which both proves it is usable audio
// and measures it; a URL that cannot give audio is the client's mistake (422 at `url`), not a server fault.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchAudio, type AudioFetchLimits } from '../media/fetchAudio.ts';
import { MediaError } from '../media/errors.ts';
import { invalid } from '../shared/errors.ts';

/** Decoding at a low rate keeps the scratch file small; only the length is kept. */
const PROBE_SAMPLE_RATE = 8000;

/** The audio's duration in seconds, to the millisecond. */
export async function probeTrackSeconds(url: string, limits: AudioFetchLimits): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'background-track-'));
  try {
    const { durationMs } = await fetchAudio(url, join(dir, 'track.wav'), { ...limits, sampleRate: PROBE_SAMPLE_RATE });
    if (durationMs <= 0) throw invalid([{ location: 'url', message: `${url} holds no audio` }]);
    return Math.round(durationMs) / 1000;
  } catch (error) {
    if (error instanceof MediaError) throw invalid([{ location: 'url', message: error.message }]);
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
