// Video through the generation workflow, over HTTP: one mp4 per size, in player data and the video podcast feed,
// rendered again on regenerate, and stopped when its item is deleted.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDurationMs } from '../../src/media/probe.ts';
import { serveGeneratedAudio } from '../support/audioHost.ts';
import { download, settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), 'video-generation-test-'));
const sizes = [
  { name: 'landscape', width: 320, height: 180, enabled: true },
  { name: 'square', width: 1080, height: 1080, enabled: true },
  { name: 'portrait', width: 180, height: 320, enabled: true },
];

let server: TestServer;
let voice: number;
/** Serves one red PNG, the picture of an image segment, and a 404 at /missing.png, counting its requests. */
let images: Server;
let redPng: string;
let missingPng: string;
let missingAsked = 0;
beforeAll(async () => {
  const png = path.join(scratch, 'red.png');
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=red:s=64x64', '-frames:v', '1', png]);
  const bytes = readFileSync(png);
  images = createServer((request, response) => {
    if (request.url !== '/missing.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(bytes);
    missingAsked += 1;
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  redPng = `${origin}/red.png`;
  missingPng = `${origin}/missing.png`;
  server = await startServer({ env: { GENERATION_ENABLED: 'true', FETCH_ALLOW_PRIVATE: 'true' } });
  voice = (await server.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=en_GB')).body[0].id;
});
afterAll(async () => {
  images.close();
  await server.stop();
});

async function create(body: Record<string, unknown>): Promise<string> {
  const reply = await server.request('POST', '/v1/projects/1/content', { body: { title_voice_id: voice, body_voice_id: voice, ...body } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id;
}

interface Probed {
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
  format: { duration: string };
}
async function probe(file: string): Promise<Probed> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height:format=duration', '-of', 'json', file]);
  return JSON.parse(stdout) as Probed;
}

/** The ffmpeg processes writing an mp4 of this item, as `ps` lists them. */
async function rendersOf(contentId: string): Promise<string[]> {
  const { stdout } = await run('ps', ['-eo', 'pid,args']);
  return stdout.split('\n').filter((line) => /\bffmpeg\b/.test(line) && line.includes(contentId) && line.includes('.mp4'));
}

describe('an item with video on in three sizes', () => {
  let item: any;
  beforeAll(async () => {
    const id = await create({
      title: 'Video desk',
      body: '<p>The river rose overnight. Crews worked until dawn.</p>',
      video_settings: { enabled: true, variants: ['article'], sizes, template: null },
    });
    item = await settled(server, id, 120_000);
    expect(item.status, item.error).toBe('processed');
  }, 150_000);

  it('lists one mp4 per size with its size, variant and duration', () => {
    expect(item.video).toHaveLength(3);
    expect(item.video.map((file: any) => file.video_size)).toEqual(sizes.map(({ name, width, height }) => ({ name, width, height })));
    for (const file of item.video) {
      expect(file).toMatchObject({ content_type: 'video/mp4', variant: 'article' });
      expect(file.url.startsWith(`${server.baseUrl}/media/${item.id}/1/`)).toBe(true);
      expect(Number.isInteger(file.id) && file.id > 0).toBe(true);
      expect(Math.abs(file.duration - item.duration)).toBeLessThanOrEqual(100);
    }
    expect(new Set(item.video.map((file: any) => file.id)).size).toBe(3);
  });

  it('has files ffprobe reads as H.264 + AAC of each size, as long as the narration', async () => {
    const narration = await probeDurationMs(await download(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url, scratch));
    for (const [index, file] of item.video.entries()) {
      const probed = await probe(await download(file.url, scratch));
      const video = probed.streams.filter((stream) => stream.codec_type === 'video');
      const audio = probed.streams.filter((stream) => stream.codec_type === 'audio');
      expect(video).toEqual([expect.objectContaining({ codec_name: 'h264', width: sizes[index]!.width, height: sizes[index]!.height })]);
      expect(audio).toEqual([expect.objectContaining({ codec_name: 'aac' })]);
      expect(Math.abs(Number(probed.format.duration) * 1000 - narration)).toBeLessThanOrEqual(100);
    }
  });

  it('is published for video players by the project default (auto_video_publish_enabled)', () => {
    expect(item.video_published).toBe(true);
  });

  it('answers player data with media_format=video, one size when video_size names it', async () => {
    const all = await server.request('GET', `/v1/projects/1/player/by_content_id/${item.id}?media_format=video`, { key: null });
    expect(all.status).toBe(200);
    expect(all.body.content[0].video.map((file: any) => file.url)).toEqual(item.video.map((file: any) => file.url));
    const square = await server.request('GET', `/v1/projects/1/player/by_content_id/${item.id}?media_format=video&video_size=square`, { key: null });
    expect(square.body.content[0].video).toEqual([item.video[1]]);
  });

  // The web player with `videoSizes: ["square"]` asks for `1:1`; it also takes `WxH`. A size none of the videos has
  // leaves the choice to the player: all of them.
  it.each([
    ['1:1', ['square']],
    ['1080x1080', ['square']],
    ['Square', ['square']],
    ['16:9', ['landscape']],
    ['9:16', ['portrait']],
    ['320x180', ['landscape']],
    ['4:3', ['landscape', 'square', 'portrait']],
    ['huge', ['landscape', 'square', 'portrait']],
  ])('answers player data for video_size=%s with the %j videos', async (asked, names) => {
    const reply = await server.request('GET', `/v1/projects/1/player/by_content_id/${item.id}?media_format=video&video_size=${encodeURIComponent(asked)}`, { key: null });
    expect(reply.status).toBe(200);
    expect(reply.body.content[0].video.map((file: any) => file.video_size.name)).toEqual(names);
    expect(reply.body.content[0].audio.length).toBeGreaterThan(0);
  });

  it('is an episode of the video podcast feed, its enclosure the article video', async () => {
    const response = await fetch(`${server.baseUrl}/v1/projects/1/podcast/video.xml`);
    expect(response.status).toBe(200);
    const feed = await response.text();
    const enclosure = new RegExp(`<enclosure url="${item.video[0].url}" length="(\\d+)" type="video/mp4"/>`).exec(feed);
    expect(enclosure, feed).not.toBeNull();
    const bytes = (await fetch(item.video[0].url).then((file) => file.arrayBuffer())).byteLength;
    expect(Number(enclosure![1])).toBe(bytes);
  });

  it('renders again on regenerate, under the new generation', async () => {
    const reply = await server.request('POST', `/v1/projects/1/content/${item.id}/regenerate`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const again = await settled(server, item.id, 120_000);
    expect(again.status, again.error).toBe('processed');
    expect(again.video).toHaveLength(3);
    for (const file of again.video) {
      expect(file.url.startsWith(`${server.baseUrl}/media/${item.id}/2/`)).toBe(true);
      expect((await probe(await download(file.url, scratch))).streams.map((stream) => stream.codec_name).sort()).toEqual(['aac', 'h264']);
    }
    expect(again.video.map((file: any) => file.id)).not.toEqual(item.video.map((file: any) => file.id));
  }, 150_000);
});

/** The mean colour of the frame's centre at `ms`, as [r, g, b]. */
async function centreColour(file: string, ms: number): Promise<number[]> {
  const args = ['-v', 'error', '-ss', String(ms / 1000), '-i', file, '-frames:v', '1', '-vf', 'crop=iw/4:ih/4,scale=1:1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'];
  const { stdout } = await run('ffmpeg', args, { encoding: 'buffer' });
  return [...stdout.subarray(0, 3)];
}

describe('an image segment in follow-article mode, through a template', () => {
  it('is on screen from the moment its segment is reached, not before', async () => {
    const settings = { playback_mode: 'follow-article', background_color: '#0000ff', text_captions_enabled: false, audio_and_waveform_enabled: false, pan_and_zoom_enabled: false };
    const template = await server.request('POST', '/v1/video_settings_templates', { body: { name: 'Pictures follow the story', settings } });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    const text = (words: string) => ({ content_type: 'text', text: words, voice: { id: voice } });
    const id = await create({
      type: 'manual_segment',
      segments: [text('First the weather, then the harbour.'), { content_type: 'image', image_url: redPng }, text('Here is the harbour at noon, busy as ever.')],
      video_settings: { enabled: true, variants: ['article'], sizes: [sizes[0]], template: { id: template.body.id } },
    });
    const item = await settled(server, id);
    expect(item.status, item.error).toBe('processed');
    const image = item.segments.find((segment: any) => segment.content_type === 'image');
    expect(image.start_time).toBeGreaterThan(1_000);
    const file = await download(item.video[0].url, scratch);
    const [before, during] = [await centreColour(file, image.start_time - 500), await centreColour(file, image.start_time + 500)];
    expect(before[2]! > 180 && before[0]! < 80, `before: ${before}`).toBe(true);
    expect(during[0]! > 180 && during[1]! < 80 && during[2]! < 80, `during: ${during}`).toBe(true);
  }, 90_000);
});

describe('a video segment with its own video settings', () => {
  it('plays from the moment its segment is reached, cropped by its crop_coordinates', async () => {
    // Lime on the left half, red on the right; its 16:9 crop keeps the lime half.
    const clips = await serveGeneratedAudio(scratch, {
      'halves.mp4': 'color=c=lime:s=160x180:r=25:d=1.2[a];color=c=red:s=160x180:r=25:d=1.2[b];[a][b]hstack[out0];sine=frequency=1000:duration=1.2[out1]',
    });
    try {
      const settings = { background_color: '#0000ff', text_captions_enabled: false, audio_and_waveform_enabled: false };
      const template = await server.request('POST', '/v1/video_settings_templates', { body: { name: 'Clips', settings } });
      const video_settings = { volume: 80, crop_coordinates: { '16:9': [0, 0, 160, 90] } };
      const text = (words: string) => ({ content_type: 'text', text: words, voice: { id: voice } });
      const id = await create({
        type: 'manual_segment',
        segments: [text('First the weather, then the harbour.'), { content_type: 'video', video_url: `${clips.base}/halves.mp4`, video_settings }, text('Here is the harbour at noon.')],
        video_settings: { enabled: true, variants: ['article'], sizes: [sizes[0]], template: { id: template.body.id } },
      });
      const item = await settled(server, id);
      expect(item.status, item.error).toBe('processed');
      const clip = item.segments.find((segment: any) => segment.content_type === 'video');
      expect(clip.video_settings).toMatchObject(video_settings);
      const file = await download(item.video[0].url, scratch);
      const [before, during] = [await centreColour(file, clip.start_time - 500), await centreColour(file, clip.start_time + 500)];
      expect(before[2]! > 180 && before[1]! < 80, `before: ${before}`).toBe(true);
      expect(during[1]! > 180 && during[0]! < 80 && during[2]! < 80, `during: ${during}`).toBe(true);
    } finally {
      await clips.close();
    }
  }, 90_000);
});

describe('an item with a summary and both variants', () => {
  it('gets an article video and a summary video, each as long as its narration', async () => {
    const id = await create({
      title: 'Two lengths',
      summary: 'Rain tonight.',
      summary_enabled: true,
      summary_voice_id: voice,
      body: '<p>Rain is expected tonight across the valley, with clear skies by morning.</p>',
      video_settings: { enabled: true, variants: ['article', 'summary'], sizes: [sizes[1]] },
    });
    const item = await settled(server, id);
    expect(item.status, item.error).toBe('processed');
    const narration = (variant: string) => item.audio.find((file: any) => file.variant === variant && file.content_type === 'audio/mpeg');
    expect(item.video.map((file: any) => file.variant)).toEqual(['article', 'summary']);
    for (const file of item.video) {
      const probed = await probe(await download(file.url, scratch));
      expect(Math.abs(Number(probed.format.duration) * 1000 - narration(file.variant).duration)).toBeLessThanOrEqual(100);
    }
    const player = await server.request('GET', `/v1/projects/1/player/by_content_id/${id}?media_format=video&summary=true`, { key: null });
    expect(player.body.content[0].video).toEqual([item.video[1]]);
  });
});

describe('a video that cannot be rendered', () => {
  it('is tried again, then fails the item with the reason', async () => {
    const template = await server.request('POST', '/v1/video_settings_templates', { body: { name: 'Broken logo', settings: { logo_image_url: missingPng } } });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    const id = await create({ title: 'No logo', body: '<p>Short.</p>', video_settings: { enabled: true, variants: ['article'], sizes: [sizes[0]], template: { id: template.body.id } } });
    // Four attempts, 1 + 2 + 4 s apart.
    const item = await settled(server, id, 60_000);
    expect(item.status).toBe('error');
    expect(item.error).toContain('404');
    expect(missingAsked).toBe(4);
    expect(item.video).toEqual([]);
  }, 70_000);
});

describe('items without video', () => {
  it('get no video when their settings leave no size on, and stay off the video feed', async () => {
    const id = await create({ title: 'Audio only', body: '<p>Just sound.</p>', video_settings: { enabled: true, variants: ['article'], sizes: [{ ...sizes[0], enabled: false }] } });
    const item = await settled(server, id);
    expect(item.status, item.error).toBe('processed');
    expect(item.video).toEqual([]);
    expect(item.video_published).toBe(false);
    const feed = await fetch(`${server.baseUrl}/v1/projects/1/podcast/video.xml`).then((response) => response.text());
    expect(feed).not.toContain(id);
  });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An item whose one 1080p video takes seconds to render; answers its id once its ffmpeg runs. */
async function rendering(repeats: number): Promise<string> {
  const body = `<p>${'The council met again this evening to talk about the bridge, the budget and the long winter ahead. '.repeat(repeats)}</p>`;
  const id = await create({ title: 'A longer read', body, video_settings: { enabled: true, variants: ['article'], sizes: [{ name: 'hd', width: 1920, height: 1080, enabled: true }] } });
  const deadline = Date.now() + 90_000;
  while ((await rendersOf(id)).length === 0) {
    expect(Date.now(), 'no render started').toBeLessThan(deadline);
    await pause(100);
  }
  return id;
}

async function expectStoppedWithin(id: string, ms: number) {
  const stopBy = Date.now() + ms;
  while ((await rendersOf(id)).length > 0) {
    expect(Date.now(), `still rendering: ${(await rendersOf(id)).join('\n')}`).toBeLessThan(stopBy);
    await pause(100);
  }
}

describe('a project whose saved background is each gradient form the issue found', () => {
  afterAll(async () => {
    await server.request('PUT', '/v1/projects/1/video_settings', { body: { background_color: '#000000' } });
  });

  // Each was accepted and then failed every item of its project; each now renders.
  it.each(['linear-gradient(0.25turn, red, blue)', 'linear-gradient(1.2rad, red, blue)', 'linear-gradient(+90deg, red, blue)', 'linear-gradient(0, red, blue)'])(
    'makes the video of an item with %s',
    async (background_color) => {
      const saved = await server.request('PUT', '/v1/projects/1/video_settings', { body: { background_color } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const id = await create({ title: 'Gradient', body: '<p>Colours.</p>', video_settings: { enabled: true, variants: ['article'], sizes: [{ name: 'small', width: 96, height: 64, enabled: true }] } });
      const item = await settled(server, id, 120_000);
      expect(item.status, item.error).toBe('processed');
      expect(item.video.map((file: any) => file.video_size)).toEqual([{ name: 'small', width: 96, height: 64 }]);
    },
    150_000,
  );
});

describe('a render', () => {
  it('hands ffmpeg its filter graph as a script file, never on the command line', async () => {
    const id = await rendering(12);
    const lines = await rendersOf(id);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatch(/-filter_complex_script graph-[0-9a-f-]+\.txt/);
      expect(line).not.toContain('-filter_complex ');
    }
    expect((await server.request('DELETE', `/v1/projects/1/content/${id}`)).status).toBe(204);
    await expectStoppedWithin(id, 5_000);
  }, 120_000);
});

describe('deleting an item while its video renders', () => {
  it('stops its ffmpeg', async () => {
    const id = await rendering(12);
    expect((await server.request('DELETE', `/v1/projects/1/content/${id}`)).status).toBe(204);
    await expectStoppedWithin(id, 5_000);
    // Stopped for good: no retry renders the deleted item again.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await rendersOf(id)).toEqual([]);
  }, 120_000);
});

describe.skipIf(!process.env.TEST_TEMPORAL_ADDRESS)('cancelling the generation workflow on Temporal while its video renders', () => {
  it('stops its ffmpeg with the next heartbeat', async () => {
    const id = await rendering(40);
    const connection = await Connection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS! });
    try {
      await new Client({ connection }).workflow.getHandle(`generate-${id}-1`).cancel();
      // The render's heartbeat timeout is 5 s: the cancellation rides on a heartbeat sent at most 4 s apart.
      await expectStoppedWithin(id, 8_000);
      // Stopped, not finished: the item never became processed and has no video.
      await pause(1_000);
      const item = (await server.request('GET', `/v1/projects/1/content/${id}`)).body;
      expect(item.status).not.toBe('processed');
      expect(item.video).toEqual([]);
    } finally {
      await connection.close();
    }
  }, 120_000);
});
