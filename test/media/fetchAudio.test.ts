import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from '../../src/media/errors.ts';
import { fetchAudio } from '../../src/media/fetchAudio.ts';
import { runTool } from '../../src/media/tool.ts';
import { parseWav } from '../../src/media/wav.ts';

let dir: string;
let server: Server;
let base: string;
const files: Record<string, Buffer> = {};

async function generate(name: string, ...encoding: string[]): Promise<Buffer> {
  const path = join(dir, name);
  await runTool('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=2:sample_rate=44100', '-ac', '2', ...encoding, path]);
  return readFile(path);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fetch-audio-test-'));
  files['/tone.mp3'] = await generate('tone.mp3', '-c:a', 'libmp3lame', '-b:a', '96k');
  files['/tone.wav'] = await generate('tone.wav', '-ar', '16000');
  files['/garbage.mp3'] = randomBytes(20_000);
  server = createServer((request, response) => {
    const url = request.url ?? '';
    const file = files[url];
    if (file) return void response.writeHead(200, { 'content-length': file.length }).end(file);
    if (url === '/chunked.mp3') {
      // No Content-Length: only counting the bytes as they arrive can stop this one.
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      const chunk = files['/tone.mp3']!;
      const timer = setInterval(() => response.write(chunk), 5);
      response.on('close', () => clearInterval(timer));
      return;
    }
    if (url === '/stalls.mp3') return void response.writeHead(200, { 'content-length': 100_000 }).write(files['/tone.mp3']!.subarray(0, 1000));
    if (url === '/silent-server.mp3') return; // never answers
    response.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

// The test server listens on loopback, which only FETCH_ALLOW_PRIVATE lets the fetcher reach.
const limits = { maxBytes: 1_000_000, timeoutMs: 2_000, sampleRate: 22050, allowPrivate: true };
const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('fetchAudio', () => {
  it.each(['/tone.mp3', '/tone.wav'])('downloads %s and decodes it to 16-bit mono WAV at the asked rate', async (path) => {
    const wavPath = join(dir, `out-${path.slice(1)}.wav`);
    const fetched = await fetchAudio(base + path, wavPath, limits);
    expect(fetched).toMatchObject({ wavPath, sampleRate: 22050 });
    expect(Math.abs(fetched.durationMs - 2000)).toBeLessThanOrEqual(30);
    const wav = parseWav(await readFile(wavPath), wavPath);
    expect(wav).toMatchObject({ formatTag: 1, channels: 1, bitsPerSample: 16, sampleRate: 22050 });
    expect(wav.data.length / 2).toBe(fetched.samples);
  });

  it('reports the HTTP status of a failed download', async () => {
    const failure = await failureOf(fetchAudio(`${base}/missing.mp3`, join(dir, 'missing.wav'), limits));
    expect(failure).toBeInstanceOf(MediaError);
    expect(failure).toMatchObject({ reason: 'http-status', status: 404 });
  });

  it('refuses a file larger than maxBytes, whether or not its size is declared', async () => {
    const small = { ...limits, maxBytes: 10_000 };
    await expect(fetchAudio(`${base}/tone.mp3`, join(dir, 'big.wav'), small)).rejects.toMatchObject({ reason: 'too-large' });
    const started = Date.now();
    await expect(fetchAudio(`${base}/chunked.mp3`, join(dir, 'big.wav'), small)).rejects.toMatchObject({ reason: 'too-large' });
    expect(Date.now() - started).toBeLessThan(limits.timeoutMs);
  });

  it('gives up on a server that stalls or never answers', async () => {
    const quick = { ...limits, timeoutMs: 300 };
    await expect(fetchAudio(`${base}/stalls.mp3`, join(dir, 'slow.wav'), quick)).rejects.toMatchObject({ reason: 'timeout' });
    await expect(fetchAudio(`${base}/silent-server.mp3`, join(dir, 'slow.wav'), quick)).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('says so when the bytes are not audio, whatever the name says', async () => {
    const failure = await failureOf(fetchAudio(`${base}/garbage.mp3`, join(dir, 'garbage.wav'), limits));
    expect(failure).toBeInstanceOf(MediaError);
    expect(failure).toMatchObject({ reason: 'unsupported-format' });
    expect((failure as Error).message).toMatch(/not an audio format allowed here \(allowed: mp3, wav, flac, ogg, aac, mp4\)/);
  });

  it('rejects URLs it must not fetch and servers it cannot reach', async () => {
    await expect(fetchAudio('file:///etc/passwd', join(dir, 'x.wav'), limits)).rejects.toMatchObject({ reason: 'bad-url' });
    await expect(fetchAudio('not a url', join(dir, 'x.wav'), limits)).rejects.toMatchObject({ reason: 'bad-url' });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expect(fetchAudio(`http://127.0.0.1:${port}/tone.mp3`, join(dir, 'x.wav'), limits)).rejects.toMatchObject({ reason: 'network' });
  });

  it('refuses a loopback server unless private addresses are allowed, naming the address class', async () => {
    const failure = await failureOf(fetchAudio(`${base}/tone.mp3`, join(dir, 'x.wav'), { ...limits, allowPrivate: false }));
    expect(failure).toMatchObject({ name: 'MediaError', reason: 'refused' });
    expect((failure as Error).message).toBe(`cannot download ${base}/tone.mp3: refused to connect: 127.0.0.1 is a loopback address`);
  });
});
