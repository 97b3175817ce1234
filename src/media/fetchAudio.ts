// Downloads audio through the guarded fetcher within a size and a time limit and decodes it to 16-bit mono WAV.
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FetchError, guardedFetch } from '../infrastructure/fetch/fetcher.ts';
import { MediaError } from './errors.ts';
import { runTool, tail } from './tool.ts';
import { parseWav } from './wav.ts';

/** How pre-recorded audio may be fetched: AUDIO_FETCH_MAX_BYTES, AUDIO_FETCH_TIMEOUT_MS and FETCH_ALLOW_PRIVATE. */
export interface AudioFetchLimits {
  maxBytes: number;
  /** For the download and the decoding together. */
  timeoutMs: number;
  /** Loopback and private addresses may be fetched (local use and tests). */
  allowPrivate: boolean;
}

export interface FetchAudioOptions extends AudioFetchLimits {
  sampleRate: number;
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
    const downloaded = join(dir, 'download');
    await download(url, downloaded, options);
    await decode(downloaded, wavPath, options.sampleRate, deadline - Date.now(), url);
    const samples = parseWav(await readFile(wavPath), url).data.length / 2;
    return { wavPath, sampleRate: options.sampleRate, samples, durationMs: (samples * 1000) / options.sampleRate };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function download(url: string, path: string, { maxBytes, timeoutMs, allowPrivate }: AudioFetchLimits): Promise<void> {
  try {
    const response = await guardedFetch(url, { maxBytes, timeoutMs, allowPrivate });
    if (response.status < 200 || response.status > 299) {
      response.body.destroy();
      throw new MediaError('http-status', `${url} answered HTTP ${response.status}`, response.status);
    }
    await pipeline(response.body, createWriteStream(path));
  } catch (error) {
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

/** Decodes a local file to 16-bit mono WAV at `sampleRate`; `url` names it in messages. */
export async function decode(input: string, wavPath: string, sampleRate: number, timeoutMs: number, url: string): Promise<void> {
  const args = ['-v', 'error', '-nostdin', '-y', '-i', input, '-vn', '-map_metadata', '-1', '-ac', '1', '-ar', String(sampleRate), '-c:a', 'pcm_s16le', '-f', 'wav', wavPath];
  const run = await runTool('ffmpeg', args, { timeoutMs: Math.max(1, timeoutMs) });
  if (run.timedOut) throw new MediaError('timeout', `decoding ${url} took longer than the time left`);
  if (run.code !== 0) throw new MediaError('undecodable', `${url} is not decodable audio: ${run.startError?.message ?? tail(run.stderr, 2).replaceAll(`${input}: `, '')}`);
}
