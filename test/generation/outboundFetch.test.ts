import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../src/media/tool.ts';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

// An audio file host on loopback: the address class every SSRF probe aims at first.
let audioHost: Server;
let base: string;
let port: number;
let guarded: TestServer;
let open: TestServer;
let scratch: string;
const requested: string[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'outbound-fetch-test-'));
  const tone = join(scratch, 'tone.mp3');
  await runTool('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=2', '-c:a', 'libmp3lame', tone]);
  const mp3 = await readFile(tone);
  audioHost = createServer((request, response) => {
    requested.push(request.url ?? '');
    if (request.url === '/tone.mp3') return void response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': mp3.length }).end(mp3);
    // Answers 503 the first time it is asked: the generation's first try fails after the other file arrived.
    if (request.url === '/flaky.mp3' && requested.filter((url) => url === '/flaky.mp3').length === 1) return void response.writeHead(503).end();
    if (request.url === '/kept.mp3' || request.url === '/flaky.mp3') return void response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': mp3.length }).end(mp3);
    if (request.url === '/moved.mp3') return void response.writeHead(301, { location: '/tone.mp3' }).end();
    if (request.url === '/to-metadata.mp3') return void response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/' }).end();
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => audioHost.listen(0, '127.0.0.1', resolve));
  port = (audioHost.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  [guarded, open] = await Promise.all([
    startServer({ env: { GENERATION_ENABLED: 'true' } }),
    startServer({ env: { GENERATION_ENABLED: 'true', FETCH_ALLOW_PRIVATE: 'true' } }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([guarded?.stop(), open?.stop()]);
  audioHost?.closeAllConnections();
  await new Promise((resolve) => audioHost?.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

async function upload(server: TestServer, audioUrl: string) {
  const created = await server.request('POST', '/v1/projects/1/content', { body: { type: 'audio_upload', title: 'Interview', audio_url: audioUrl } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return settled(server, created.body.id, 90_000);
}

describe('audio_upload items fetch through the guarded fetcher', () => {
  it('end in error, naming the refused address class, when the file is on a loopback address', async () => {
    const [literal, named] = await Promise.all([upload(guarded, `${base}/tone.mp3`), upload(guarded, `http://localhost:${port}/tone.mp3`)]);
    expect(literal).toMatchObject({ status: 'error', error: `cannot download ${base}/tone.mp3: refused to connect: 127.0.0.1 is a loopback address` });
    expect(named.status).toBe('error');
    expect(named.error).toMatch(new RegExp(`^cannot download http://localhost:${port}/tone\\.mp3: refused to connect: localhost resolves to (127\\.0\\.0\\.1|::1), a loopback address$`));
    expect(requested).toEqual([]);
  }, 100_000);

  it('are narrated from a loopback address, redirects followed, with FETCH_ALLOW_PRIVATE=true', async () => {
    const item = await upload(open, `${base}/moved.mp3`);
    expect(item.status, item.error).toBe('processed');
    expect(item.duration).toBeGreaterThan(2_000);
    expect(item.segments.find((segment: any) => segment.content_type === 'audio')).toMatchObject({ audio_url: `${base}/moved.mp3` });
  }, 100_000);

  it('end in error when a redirect leads to a cloud metadata address, whatever FETCH_ALLOW_PRIVATE says', async () => {
    const item = await upload(open, `${base}/to-metadata.mp3`);
    expect(item).toMatchObject({
      status: 'error',
      error: `cannot download ${base}/to-metadata.mp3: redirected to http://169.254.169.254/latest/meta-data/iam/; refused to connect: 169.254.169.254 is a cloud metadata address`,
    });
  }, 100_000);

  it('are fetched once across a retried generation: the second try decodes what the first downloaded', async () => {
    const created = await open.request('POST', '/v1/projects/1/content', {
      body: {
        type: 'manual_segment',
        summary_enabled: false,
        segments: [
          { content_type: 'text', section: 'title', text: 'Two recordings' },
          { content_type: 'audio', audio_url: `${base}/kept.mp3` },
          { content_type: 'audio', audio_url: `${base}/flaky.mp3` },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const item = await settled(open, created.body.id, 90_000);
    expect(item.status, item.error).toBe('processed');
    expect(item.duration).toBeGreaterThan(4_000);
    expect(requested.filter((url) => url === '/flaky.mp3')).toHaveLength(2);
    expect(requested.filter((url) => url === '/kept.mp3')).toHaveLength(1);
    // Kept only until the generation is done.
    expect(existsSync(join(open.dataDir, 'fetched', created.body.id))).toBe(false);
  }, 100_000);
});
