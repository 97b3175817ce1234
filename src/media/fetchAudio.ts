// Downloads audio through the guarded fetcher within a size and a time limit, admits it through the media intake
// (an allowed audio format, at most the duration limit) and decodes it to 16-bit mono WAV.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FetchError, guardedFetch } from '../infrastructure/fetch/fetcher.ts';
import { MediaError } from './errors.ts';
import { fetchedFiles, type FetchedFiles } from './fetches.ts';
import { admitAudio, clean, DEFAULT_MAX_AUDIO_MS, DURATION_GRACE_MS, inputOf, tooLong } from './intake.ts';
import { runTool } from './tool.ts';
import { wavSampleCount } from './wav.ts';

/** How pre-recorded audio may be fetched: AUDIO_FETCH_MAX_BYTES, AUDIO_FETCH_TIMEOUT_MS, AUDIO_MAX_DURATION_S and FETCH_ALLOW_PRIVATE. */
export interface AudioFetchLimits {
  maxBytes: number;
  /** For the download and the decoding together. */
  timeoutMs: number;
  /** Loopback and private addresses may be fetched (local use and tests). */
  allowPrivate: boolean;
  /** The longest audio accepted (AUDIO_MAX_DURATION_S); 30 minutes when left out. */
  maxDurationMs?: number;
}

export interface FetchAudioOptions extends AudioFetchLimits {
  sampleRate: number;
  /** Where the item's downloads are kept: a retried render decodes the file it already fetched. */
  fetched?: FetchedFiles;
}

export interface FetchedAudio {
  wavPath: string;
  sampleRate: number;
  samples: number;
  durationMs: number;
}

export async function fetchAudio(url: string, wavPath: string, options: FetchAudioOptions): Promise<FetchedAudio> {
  const deadline = Date.now() + options.timeoutMs;
  const dir = await mkdtemp(join(tmpdir(), 'fetch-audio-'));
  try {
    // Without a fetch folder of the item's, the download lives only as long as this call.
    const fetched = options.fetched ?? fetchedFiles(dir);
    const downloaded = await fetched.once(url, (file) => download(url, file, options));
    await decode(downloaded, wavPath, options.sampleRate, deadline - Date.now(), url, options.maxDurationMs);
    const samples = await wavSampleCount(wavPath, url);
    return { wavPath, sampleRate: options.sampleRate, samples, durationMs: (samples * 1000) / options.sampleRate };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The same for a file the service keeps (an uploaded recording, admitted on upload): decoded, nothing fetched; `name` names it in messages. */
export async function decodeKept(file: string, name: string, wavPath: string, options: Pick<FetchAudioOptions, 'sampleRate' | 'timeoutMs' | 'maxDurationMs'>): Promise<FetchedAudio> {
  await decode(file, wavPath, options.sampleRate, options.timeoutMs, name, options.maxDurationMs);
  const samples = await wavSampleCount(wavPath, name);
  return { wavPath, sampleRate: options.sampleRate, samples, durationMs: (samples * 1000) / options.sampleRate };
}

/** Writes `path` whole or not at all (renamed into place once complete), so a cut download is never taken for the file. */
async function download(url: string, path: string, { maxBytes, timeoutMs, allowPrivate }: AudioFetchLimits): Promise<void> {
  const partial = `${path}.part`;
  try {
    const response = await guardedFetch(url, { maxBytes, timeoutMs, allowPrivate });
    if (response.status < 200 || response.status > 299) {
      response.body.destroy();
      throw new MediaError('http-status', `${url} answered HTTP ${response.status}`, response.status);
    }
    await pipeline(response.body, createWriteStream(partial));
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    if (!(error instanceof FetchError)) throw error;
    switch (error.reason) {
      case 'bad-url':
        throw new MediaError('bad-url', error.message);
      case 'too-large':
        throw new MediaError('too-large', `${url} is larger than ${maxBytes} bytes`);
      case 'timeout':
        throw new MediaError('timeout', `${url} did not arrive within ${timeoutMs} ms`);
      default:
        throw new MediaError(error.reason, `cannot download ${url}: ${error.message}`);
    }
  }
}

/**
 * Decodes a local file from outside to 16-bit mono WAV at `sampleRate`; `url` names it in messages. The file is
 * admitted first (src/media/intake.ts): an allowed audio format, read only through its own demuxer, whose header says
 * it plays at most `maxDurationMs`; the decoding stops past that length too, whatever the header said.
 */
export async function decode(input: string, wavPath: string, sampleRate: number, timeoutMs: number, url: string, maxDurationMs = DEFAULT_MAX_AUDIO_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const { format } = await admitAudio(input, url, { maxDurationMs, timeoutMs });
  const cap = (maxDurationMs + DURATION_GRACE_MS) / 1000;
  const args = ['-v', 'error', '-nostdin', '-y', ...inputOf(format, input), '-vn', '-map_metadata', '-1', '-ac', '1', '-ar', String(sampleRate), '-c:a', 'pcm_s16le', '-t', String(cap + 1), '-f', 'wav', wavPath];
  const run = await runTool('ffmpeg', args, { timeoutMs: Math.max(1, deadline - Date.now()) });
  if (run.timedOut) throw new MediaError('timeout', `decoding ${url} took longer than the time left`);
  if (run.code !== 0) throw new MediaError('undecodable', `${url} is not decodable audio: ${run.startError?.message ?? clean(run.stderr, input)}`);
  const samples = await wavSampleCount(wavPath, url);
  if (samples / sampleRate > cap) {
    await rm(wavPath, { force: true });
    throw tooLong(url, (samples * 1000) / sampleRate, maxDurationMs);
  }
}
