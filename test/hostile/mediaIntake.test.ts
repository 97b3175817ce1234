// Media from outside through every door (track uploads and URLs, pre-recorded audio, image segments, feature images,
// logos in previews and in saved settings), as an attacker sends it: an HLS playlist, an ffconcat list and a playlist
// named x.mp3 whose entries name a sentinel file outside DATA_DIR and another organization's narration; six hours of
// FLAC silence in 4 MB; a 16000×16000 PNG of under 1 MB. Each is refused at its field (or fails its item, once, with the
// reason), and the sentinel's tone is in no narration. Plain media of every allowed format still passes.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../src/media/tool.ts';
import { decodeSamples, toneDb } from '../support/audioHost.ts';
import { cli, keyIn } from '../support/cli.ts';
import { settled } from '../support/generation.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

/** The sentinel's tone: far from a voice's strongest frequencies, and alone in its file. */
const TONE_HZ = 2750;
const SIX_HOURS_S = 6 * 60 * 60;

let server: TestServer;
let scratch: string;
let host: Server;
let base: string;
/** Requests per path, to tell a refusal tried once from one retried. */
const asked = new Map<string, number>();
let rivalKey: string;
let voice: number;
/** Every narration an item of this test got. */
const narrations: string[] = [];

const made = async (args: string[]) => {
  const run = await runTool('ffmpeg', ['-v', 'error', '-y', ...args]);
  expect(run.code, run.stderr).toBe(0);
};

/** A PNG of side×side black pixels: the header says so, and the rows deflate to under 1 MB. */
async function bombPng(side: number): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(1 + side * 3);
  for (let y = 0; y < side; y++) deflate.write(row);
  deflate.end();
  await ended;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', Buffer.concat(parts)), chunk('IEND', Buffer.alloc(0))]);
}

const playlist = (entries: string[]) => ['#EXTM3U', '#EXT-X-TARGETDURATION:5', '#EXT-X-MEDIA-SEQUENCE:0', ...entries.flatMap((entry) => ['#EXTINF:5.0,', entry]), '#EXT-X-ENDLIST', ''].join('\n');

/** The hostile files, by the name the host serves them at and the test uploads them with. */
const HOSTILE_AUDIO = ['playlist.m3u8', 'list.ffconcat', 'x.mp3', 'six-hours.flac'];
/** Plain files of every allowed audio format, 2 s of a 440 Hz tone. */
const PLAIN_AUDIO: Record<string, string[]> = {
  'tone.mp3': [],
  'tone.wav': [],
  'tone.flac': [],
  'tone.ogg': ['-c:a', 'libopus'],
  'tone.m4a': ['-c:a', 'aac'],
};
const PLAIN_IMAGES = ['red.png', 'red.jpg', 'red.webp', 'red.gif'];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'media-intake-'));
  server = await startServer({ env: { GENERATION_ENABLED: 'true', FETCH_ALLOW_PRIVATE: 'true' } });
  voice = (await server.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=en_GB')).body[0].id;

  // The victim: an item of organization 1 with a narration on disk. The attacker: another organization.
  const victim = await server.request('POST', '/v1/projects/1/content', { body: { title: 'Private', body: '<p>Only for our readers.</p>', title_voice_id: voice, body_voice_id: voice } });
  expect(victim.status).toBe(201);
  const narrated = await settled(server, victim.body.id, 60_000);
  expect(narrated.status, narrated.error).toBe('processed');
  const victimMp3 = new URL(narrated.audio.find((file: any) => file.content_type === 'audio/mpeg').url).pathname.replace(/^\/media\//, '');
  narrations.push(narrated.audio.find((file: any) => file.content_type === 'audio/mpeg').url);
  rivalKey = keyIn((await cli(server.env, 'organizations', 'create', '--name', 'Rival Media')).stdout);
  for (let tries = 0; (await server.request('GET', '/v1/background_tracks', { key: rivalKey })).status !== 200; tries++) {
    expect(tries, 'the new organization key works').toBeLessThan(100);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const sentinel = path.join(scratch, 'sentinel.mp3');
  await made(['-f', 'lavfi', '-i', `sine=frequency=${TONE_HZ}:duration=5`, sentinel]);
  // Uploads land in media/background_tracks/: the other organization's narration is one folder up.
  const entries = [sentinel, `../${victimMp3}`];
  const files: Record<string, Buffer> = {
    'playlist.m3u8': Buffer.from(playlist(entries)),
    'x.mp3': Buffer.from(playlist(entries)),
    'list.ffconcat': Buffer.from(['ffconcat version 1.0', ...entries.map((entry) => `file '${entry}'`), ''].join('\n')),
    'bomb.png': await bombPng(16_000),
  };
  await made(['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', String(SIX_HOURS_S), '-c:a', 'flac', path.join(scratch, 'six-hours.flac')]);
  for (const [name, codec] of Object.entries(PLAIN_AUDIO)) await made(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', ...codec, path.join(scratch, name)]);
  for (const name of PLAIN_IMAGES) await made(['-f', 'lavfi', '-i', 'color=c=red:s=64x64', '-frames:v', '1', path.join(scratch, name)]);
  for (const name of [...Object.keys(files)]) await writeFile(path.join(scratch, name), files[name]!);
  for (const name of ['six-hours.flac', ...Object.keys(PLAIN_AUDIO), ...PLAIN_IMAGES]) files[name] = await readFile(path.join(scratch, name));

  host = createServer((request, response) => {
    const name = (request.url ?? '').slice(1);
    asked.set(name, (asked.get(name) ?? 0) + 1);
    const bytes = files[name];
    if (!bytes) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length }).end(bytes);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (host) {
    host.closeAllConnections();
    await new Promise((resolve) => host.close(resolve));
  }
  await rm(scratch, { recursive: true, force: true });
});

/** POST /v1/background_tracks as multipart/form-data. */
async function upload(name: string, bytes: Buffer, key = rivalKey) {
  const form = new FormData();
  form.append('name', `Track from ${name}`);
  form.append('file', new Blob([Uint8Array.from(bytes)], { type: 'audio/mpeg' }), name);
  const response = await fetch(`${server.baseUrl}/v1/background_tracks`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
  return { status: response.status, body: await response.json() };
}

const uploadsKept = async () => readdir(path.join(server.dataDir, 'media', 'background_tracks')).catch(() => [] as string[]);

const refusal = (name: string) => (name === 'six-hours.flac' ? /plays 360 min, longer than the 30 min allowed/ : /not an audio format allowed here/);

describe('the sentinel', () => {
  it('is what a plain ffmpeg reads through the playlist: the attack is real', async () => {
    const plain = await runTool('ffmpeg', ['-v', 'error', '-i', path.join(scratch, 'playlist.m3u8'), '-t', '4', '-ac', '1', '-ar', '22050', '-f', 'wav', path.join(scratch, 'read.wav')]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(toneDb(await decodeSamples(path.join(scratch, 'read.wav')), [500, 3500], TONE_HZ)).toBeGreaterThan(-20);
  });
});

describe('background tracks', () => {
  it.each(HOSTILE_AUDIO)('refuses %s uploaded as the file, at `file`, and keeps nothing', async (name) => {
    const reply = await upload(name, await readFile(path.join(scratch, name)));
    expect(reply.status, JSON.stringify(reply.body)).toBe(422);
    expect(reply.body.errors).toEqual([{ location: 'file', message: expect.stringMatching(refusal(name)) }]);
    expect(await uploadsKept()).toEqual([]);
  });

  it.each(HOSTILE_AUDIO)('refuses %s fetched from its url, at `url`', async (name) => {
    const reply = await server.request('POST', '/v1/background_tracks', { key: rivalKey, body: { name: 'Fetched', url: `${base}/${name}` } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(422);
    expect(reply.body.errors).toEqual([{ location: 'url', message: expect.stringMatching(refusal(name)) }]);
  });

  it.each(Object.keys(PLAIN_AUDIO))('keeps plain %s under a name of its own with its real extension, whatever the client called it', async (name) => {
    const reply = await upload('../../evil.m3u8', await readFile(path.join(scratch, name)), TEST_KEY);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.duration).toBeGreaterThan(1.9);
    expect(reply.body.duration).toBeLessThan(2.2);
    const extension = { 'tone.m4a': 'm4a', 'tone.ogg': 'ogg' }[name] ?? path.extname(name).slice(1);
    expect(reply.body.url).toMatch(new RegExp(`/media/background_tracks/[0-9a-f-]{36}\\.${extension}$`));
    expect((await fetch(reply.body.url)).status).toBe(200);
    const fetched = await server.request('POST', '/v1/background_tracks', { body: { name: 'Fetched', url: `${base}/${name}` } });
    expect(fetched.status, JSON.stringify(fetched.body)).toBe(201);
  });
});

describe('logos in a settings preview', () => {
  it.each([
    ['playlist.m3u8', /not an image format allowed here/],
    ['x.mp3', /not an image format allowed here/],
    ['tone.mp3', /is mp3, not an image format allowed here/],
    ['bomb.png', /16000×16000 pixels, more than the 40 megapixels allowed/],
  ])('refuses %s at `logo_image_url`', async (name, message) => {
    const started = Date.now();
    const reply = await server.request('POST', '/v1/projects/1/video_settings/preview', { body: { logo_image_url: `${base}/${name}` } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(422);
    expect(reply.body.errors).toEqual([{ location: 'logo_image_url', message: expect.stringMatching(message) }]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it.each(PLAIN_IMAGES)('draws a plain %s', async (name) => {
    const reply = await server.request('POST', '/v1/projects/1/video_settings/preview', { body: { logo_image_url: `${base}/${name}`, sample_text: 'A logo.' } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }, 60_000);
});

describe('items', () => {
  const video = (extra: object = {}) => ({ enabled: true, variants: ['article'], sizes: [{ name: 'small', width: 160, height: 90, enabled: true }], ...extra });
  const text = (words: string) => ({ content_type: 'text', text: words, voice: { id: voice } });

  async function failed(body: object, file: string, reason: RegExp) {
    asked.delete(file);
    const created = await server.request('POST', '/v1/projects/1/content', { body: { title_voice_id: voice, body_voice_id: voice, ...body } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const item = await settled(server, created.body.id, 90_000);
    for (const file of item.audio ?? []) if (file.content_type === 'audio/mpeg') narrations.push(file.url);
    expect(item.status).toBe('error');
    expect(item.error).toMatch(reason);
    // Refused for good: fetched once, not retried.
    expect(asked.get(file), server.output().split('\n').filter((line) => line.includes(created.body.id)).join('\n')).toBe(1);
  }

  it('fails an item whose pre-recorded audio is a playlist, with the reason', async () => {
    await failed({ type: 'audio_upload', title: 'Recorded', audio_url: `${base}/playlist.m3u8` }, 'playlist.m3u8', /not an audio format allowed here/);
  }, 100_000);

  it('fails an item whose pre-recorded audio is six hours long, with the reason', async () => {
    await failed({ type: 'manual_segment', title: 'Long', segments: [text('Before the recording.'), { content_type: 'audio', audio_url: `${base}/six-hours.flac` }] }, 'six-hours.flac', /longer than the 30 min allowed/);
  }, 100_000);

  it('fails an item whose image segment is a playlist named x.mp3', async () => {
    await failed({ type: 'manual_segment', title: 'Pictures', segments: [text('A picture follows.'), { content_type: 'image', image_url: `${base}/x.mp3` }], video_settings: video() }, 'x.mp3', /not an image format allowed here/);
  }, 100_000);

  it('fails an item whose image segment is the 16000×16000 PNG', async () => {
    await failed({ type: 'manual_segment', title: 'Bomb', segments: [text('A picture follows.'), { content_type: 'image', image_url: `${base}/bomb.png` }], video_settings: video() }, 'bomb.png', /more than the 40 megapixels allowed/);
  }, 100_000);

  it('fails an item whose feature image is an ffconcat list', async () => {
    await failed({ title: 'Featured', body: '<p>With a picture.</p>', image_url: `${base}/list.ffconcat`, video_settings: video() }, 'list.ffconcat', /not an image format allowed here/);
  }, 100_000);

  it('fails an item whose saved settings have a playlist for a logo', async () => {
    const template = await server.request('POST', '/v1/video_settings_templates', { body: { name: 'Playlist logo', settings: { logo_image_url: `${base}/playlist.m3u8` } } });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    await failed({ title: 'Logo', body: '<p>With a logo.</p>', video_settings: video({ template: { id: template.body.id } }) }, 'playlist.m3u8', /not an image format allowed here/);
  }, 100_000);

  it('narrates a plain recording and a plain picture', async () => {
    const created = await server.request('POST', '/v1/projects/1/content', {
      body: { type: 'manual_segment', title: 'Plain', segments: [text('A recording follows.'), { content_type: 'audio', audio_url: `${base}/tone.ogg` }, { content_type: 'image', image_url: `${base}/red.webp` }], video_settings: video() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const item = await settled(server, created.body.id, 90_000);
    expect(item.status, item.error).toBe('processed');
    expect(item.video).toHaveLength(1);
    narrations.push(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url);
  }, 100_000);
});

describe('every narration made', () => {
  it('is free of the sentinel tone', async () => {
    expect(narrations.length).toBeGreaterThanOrEqual(2);
    for (const url of narrations) {
      const audio = await decodeSamples(url);
      expect(toneDb(audio, [0, (audio.length / 22050) * 1000], TONE_HZ), url).toBeLessThan(-50);
    }
  });
});
