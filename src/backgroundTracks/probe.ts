// A track's audio is fetched once through the guarded fetcher (or taken from its upload) and admitted by the media
// intake, then decoded, which both proves it is usable audio and measures it (src/media/admitUpload.ts).
import { fetchAudio, type AudioFetchLimits } from '../media/fetchAudio.ts';
import { measuredAudio, PROBE_SAMPLE_RATE } from '../media/admitUpload.ts';

/** The audio's duration in seconds, to the millisecond. */
export function probeTrackSeconds(url: string, limits: AudioFetchLimits): Promise<number> {
  return measuredAudio('url', url, (wavPath) => fetchAudio(url, wavPath, { ...limits, sampleRate: PROBE_SAMPLE_RATE }).then(() => undefined));
}
