// Downloads audio over http(s) within a size and a time limit and decodes it to 16-bit mono WAV.
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { MediaError } from './errors.ts';
import { runTool, tail } from './tool.ts';
import { parseWav } from './wav.ts';

export interface FetchAudioOptions {
  maxBytes: number;
  /** For the download and the decoding together. */
  timeoutMs: number;
  sampleRate: number;
}

export interface FetchedAudio {
  wavPath: string;
  sampleRate: number;
  samples: number;
  durationMs: number;
}

export async function fetchAudio(url: string, wavPath: string, { maxBytes, timeoutMs, sampleRate }: FetchAudioOptions): Promise<FetchedAudio> {
  const source = httpUrl(url);
  const deadline = Date.now() + timeoutMs;
  const dir = await mkdtemp(join(tmpdir(), 'fetch-audio-'));
  try {
    const downloaded = join(dir, 'download');
    await download(source, downloaded, maxBytes, timeoutMs);
    await decode(downloaded, wavPath, sampleRate, deadline - Date.now(), url);
    const samples = parseWav(await readFile(wavPath), url).data.length / 2;
    return { wavPath, sampleRate, samples, durationMs: (samples * 1000) / sampleRate };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function httpUrl(url: string): URL {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') throw new MediaError('bad-url', `not an http(s) URL: ${url}`);
  return parsed;
}

async function download(url: URL, path: string, maxBytes: number, timeoutMs: number): Promise<void> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const tooLarge = () => new MediaError('too-large', `${url} is larger than ${maxBytes} bytes`);
  try {
    const response = await fetch(url, { signal: controller.signal });
    if (!response.ok) throw new MediaError('http-status', `${url} answered HTTP ${response.status}`, response.status);
    if (Number(response.headers.get('content-length')) > maxBytes) throw tooLarge();
    if (!response.body) throw new MediaError('undecodable', `${url} answered HTTP ${response.status} without a body`);
    let received = 0;
    // Counts what actually arrives: a missing or false Content-Length must not lift the limit.
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        done(received > maxBytes ? tooLarge() : null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(response.body as ReadableStream), limit, createWriteStream(path));
  } catch (error) {
    if (timedOut) throw new MediaError('timeout', `${url} did not arrive within ${timeoutMs} ms`);
    if (error instanceof MediaError) throw error;
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new MediaError('network', `cannot download ${url}: ${cause}`);
  } finally {
    clearTimeout(timer);
    controller.abort(); // releases the connection when the body was left unread
  }
}

async function decode(input: string, wavPath: string, sampleRate: number, timeoutMs: number, url: string): Promise<void> {
  const args = ['-v', 'error', '-nostdin', '-y', '-i', input, '-vn', '-map_metadata', '-1', '-ac', '1', '-ar', String(sampleRate), '-c:a', 'pcm_s16le', '-f', 'wav', wavPath];
  const run = await runTool('ffmpeg', args, { timeoutMs: Math.max(1, timeoutMs) });
  if (run.timedOut) throw new MediaError('timeout', `decoding ${url} took longer than the time left`);
  if (run.code !== 0) throw new MediaError('undecodable', `${url} is not decodable audio: ${run.startError?.message ?? tail(run.stderr, 2).replaceAll(`${input}: `, '')}`);
}
