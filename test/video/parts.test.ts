// A long video is rendered in parts at once (one ffmpeg process per core) and joined: the joined video must be the
// one a single process draws, frame for frame, across the joins too, with the narration's length and sound.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspeakEngine } from '../../src/media/engines/espeak.ts';
import { runTool } from '../../src/media/tool.ts';
import { defaultVideoSettings } from '../../src/player/videoSettings.ts';
import type { VideoRenderRequest } from '../../src/video/port.ts';
import { createVideoRenderer, renderSpans } from '../../src/video/render.ts';
import { longArticleHtml } from '../fixtures/longArticle.ts';
import { probe, serveImages } from '../support/video.ts';

let dir: string;
let request: Omit<VideoRenderRequest, 'outPath'>;
let images: Awaited<ReturnType<typeof serveImages>>;
const limits = { maxBytes: 5_000_000, timeoutMs: 5_000, allowPrivate: true };
const renderer = (threads: number) => createVideoRenderer({ fontCacheDir: path.join(dir, 'fonts'), threads, fonts: limits, images: limits });
const FPS = 25;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parts-test-'));
  // About 40 s of narration: two parts of 20 s on two cores.
  const text = longArticleHtml(110).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
  const spoken = await createEspeakEngine({ concurrency: 1, timeoutMs: 30_000 }).speak(text, 'en-us', path.join(dir, 'speech.wav'));
  images = await serveImages(dir, { 'one.png': 'testsrc2=s=640x360', 'two.png': 'color=c=blue:s=300x300' });
  request = {
    audioPath: spoken.wavPath,
    durationMs: spoken.durationMs,
    segments: [
      { content_type: 'image', section: null, text: null, image_url: `${images.base}/two.png`, video_url: null, start_time: 0, duration: 0, words: [] },
      { content_type: 'text', section: null, text, image_url: null, video_url: null, start_time: 0, duration: spoken.durationMs, words: spoken.words },
    ],
    // Every layer that depends on time: cycling, zooming images, the waveform's windows, karaoke captions, a logo.
    settings: { ...defaultVideoSettings, enabled: true, textAnimation: 'karaoke', cycleTime: 3000, logoImageUrl: `${images.base}/two.png` },
    featureImageUrl: `${images.base}/one.png`,
    language: 'en_US',
    size: { name: 'landscape', width: 640, height: 360 },
  };
}, 60_000);
afterAll(async () => {
  await images?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Per-frame PSNR of two videos of the same size: [average, lowest] over all frames. */
async function psnr(a: string, b: string): Promise<[number, number]> {
  const run = await runTool('ffmpeg', ['-v', 'info', '-nostats', '-i', a, '-i', b, '-lavfi', '[0:v][1:v]psnr=stats_file=-', '-f', 'null', '-']);
  expect(run.code, run.stderr).toBe(0);
  const frames = [...run.stdout.toString().matchAll(/psnr_avg:(\S+)/g)].map((match) => (match[1] === 'inf' ? 100 : Number(match[1])));
  return [frames.reduce((sum, each) => sum + each, 0) / frames.length, Math.min(...frames)];
}

async function frameCount(file: string): Promise<number> {
  const run = await runTool('ffprobe', ['-v', 'error', '-count_packets', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', file]);
  return Number(run.stdout.toString().trim());
}

describe('a video rendered in parts', () => {
  it('splits at frame boundaries, once per core, only what is long enough and has no videos in it', () => {
    expect(renderSpans(40_000, FPS, 2, false)).toEqual([
      { fromMs: 0, toMs: 20_000 },
      { fromMs: 20_000, toMs: 40_000 },
    ]);
    const three = renderSpans(45_010, FPS, 3, false);
    expect(three.map((span) => span.fromMs)).toEqual([0, 15_000, 30_000]);
    expect(three.at(-1)!.toMs).toBe(45_010);
    expect(renderSpans(20_000, FPS, 2, false)).toHaveLength(1);
    expect(renderSpans(600_000, FPS, 2, true)).toHaveLength(1);
  });

  it('is the video one process draws, frame for frame across the join, as long as the narration, with its sound', async () => {
    expect(renderSpans(request.durationMs, FPS, 2, false)).toHaveLength(2);
    const [split, whole] = [path.join(dir, 'split.mp4'), path.join(dir, 'whole.mp4')];
    await renderer(2).render({ ...request, outPath: split });
    await renderer(1).render({ ...request, outPath: whole });
    const probed = await probe(split);
    expect(probed.video).toMatchObject({ codec_name: 'h264', width: 640, height: 360 });
    expect(probed.audio?.codec_name).toBe('aac');
    expect(Math.abs(probed.durationMs - request.durationMs)).toBeLessThan(100);
    expect(await frameCount(split)).toBe(await frameCount(whole));
    // Two encodings of one picture differ only by compression: ≥ 35 dB throughout, no frame below 30 dB (a frame
    // out of place, a layer missing or restarted at the join would drop far below).
    const [average, lowest] = await psnr(split, whole);
    expect(average).toBeGreaterThan(35);
    expect(lowest).toBeGreaterThan(30);
  }, 120_000);

  it('starts no part when its request was cancelled before the parts began', async () => {
    const cancelled = new AbortController();
    cancelled.abort();
    // Nothing to fetch, so the render reaches its parts. A part that started would be killed by its 1 ms limit
    // and fail the render with 'timeout'; 'aborted' says no part started.
    const local = { ...request, segments: request.segments.filter((segment) => segment.content_type === 'text'), featureImageUrl: null, settings: { ...request.settings, logoImageUrl: null } };
    expect(renderSpans(local.durationMs, FPS, 2, false)).toHaveLength(2);
    const hasty = createVideoRenderer({ fontCacheDir: path.join(dir, 'fonts'), threads: 2, fonts: limits, images: limits, timeout: { baseMs: 1, perAudioMs: 0 } });
    const outPath = path.join(dir, 'cancelled.mp4');
    await expect(hasty.render({ ...local, outPath, signal: cancelled.signal })).rejects.toMatchObject({ reason: 'aborted' });
    expect((await runTool('pgrep', ['-P', String(process.pid), '-x', 'ffmpeg'])).code, 'an ffmpeg still runs').toBe(1);
    await expect(stat(outPath)).rejects.toMatchObject({ code: 'ENOENT' });
  }, 30_000);
});
