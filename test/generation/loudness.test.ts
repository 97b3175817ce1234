import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../src/media/tool.ts';
import { settled } from '../support/generation.ts';
import { measureLoudness } from '../support/loudness.ts';
import { startServer, type TestServer } from '../support/server.ts';

// Narrations reach listeners at the podcast standard: −16 LUFS integrated (±1 LU), true peak ≤ −1 dBTP.
let server: TestServer;
let audioHost: Server;
let scratch: string;
let recordingUrl: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'loudness-http-test-'));
  // A pre-recorded jingle far quieter than speech (about −33 LUFS), as publishers upload them.
  const jingle = join(scratch, 'jingle.mp3');
  const made = await runTool('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=262:duration=3', '-f', 'lavfi', '-i', 'sine=frequency=392:duration=3',
    '-filter_complex', '[0][1]amix=inputs=2,volume=-12dB', '-c:a', 'libmp3lame', jingle]);
  expect(made.code, made.stderr).toBe(0);
  const mp3 = await readFile(jingle);
  audioHost = createServer((request, response) => {
    if (request.url === '/jingle.mp3') return void response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': mp3.length }).end(mp3);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => audioHost.listen(0, '127.0.0.1', resolve));
  recordingUrl = `http://127.0.0.1:${(audioHost.address() as AddressInfo).port}/jingle.mp3`;
  server = await startServer({ env: { GENERATION_ENABLED: 'true', FETCH_ALLOW_PRIVATE: 'true' } });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  audioHost?.closeAllConnections();
  await new Promise((resolve) => audioHost?.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

async function processed(body: Record<string, unknown>) {
  const created = await server.request('POST', '/v1/projects/1/content', { body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const item = await settled(server, created.body.id, 90_000);
  expect(item.status, item.error).toBe('processed');
  return item;
}

async function expectPodcastLoudness(url: string) {
  const { integrated, truePeak } = await measureLoudness(url);
  expect(Math.abs(integrated + 16), `${url}: ${integrated} LUFS`).toBeLessThanOrEqual(1);
  expect(truePeak, `${url}: true peak`).toBeLessThanOrEqual(-1);
}

describe('narration loudness', () => {
  it('is −16 LUFS with true peaks under −1 dBTP in the mp3 and the HLS of the article and of its summary', async () => {
    const item = await processed({
      title: 'Council approves the tram extension',
      summary: 'The council approved the tram extension on Monday after a long debate.',
      summary_enabled: true,
      body: '<p>Officials said the tram extension would cost about forty million euros over five years.</p><p>Work is expected to begin in spring, weather permitting, and to last until next year.</p>',
    });
    expect(item.audio.map((file: any) => [file.content_type, file.variant]).sort()).toEqual([
      ['application/x-mpegURL', 'article'],
      ['application/x-mpegURL', 'summary'],
      ['audio/mpeg', 'article'],
      ['audio/mpeg', 'summary'],
    ]);
    for (const file of item.audio) await expectPodcastLoudness(file.url);
  }, 120_000);

  it('is the same for speech mixed with pre-recorded audio, which comes out as loud as the voice around it', async () => {
    const item = await processed({
      type: 'manual_segment',
      segments: [
        { content_type: 'text', section: 'title', text: 'Tonight on the evening bulletin' },
        { content_type: 'audio', audio_url: recordingUrl },
        { content_type: 'text', text: 'The council approved the tram extension on Monday after a long debate about its cost.' },
      ],
    });
    const mp3 = item.audio.find((file: any) => file.content_type === 'audio/mpeg').url;
    await expectPodcastLoudness(mp3);
    const recording = item.segments.find((segment: any) => segment.content_type === 'audio');
    const cut = join(scratch, 'recording.wav');
    const run = await runTool('ffmpeg', ['-v', 'error', '-y', '-i', mp3, '-ss', String(recording.start_time / 1000), '-t', String(recording.duration / 1000), cut]);
    expect(run.code, run.stderr).toBe(0);
    expect(Math.abs((await measureLoudness(cut)).integrated + 16)).toBeLessThanOrEqual(1);
  }, 120_000);
});
