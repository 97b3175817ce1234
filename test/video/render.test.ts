import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspeakEngine } from '../../src/media/engines/espeak.ts';
import { runTool } from '../../src/media/tool.ts';
import { defaultVideoSettings } from '../../src/player/videoSettings.ts';
import type { VideoRenderRequest } from '../../src/video/port.ts';
import { createVideoRenderer } from '../../src/video/render.ts';
import { average, framePixels, serveImages } from '../support/video.ts';

let dir: string;
let narration: Pick<VideoRenderRequest, 'audioPath' | 'durationMs' | 'segments'>;
const limits = { maxBytes: 5_000_000, timeoutMs: 5_000, allowPrivate: true };
const renderer = () => createVideoRenderer({ fontCacheDir: path.join(dir, 'fonts'), threads: 2, fonts: limits, images: limits });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'render-test-'));
  const text = 'Captions follow the voice, one word at a time.';
  const spoken = await createEspeakEngine({ concurrency: 1, timeoutMs: 10_000 }).speak(text, 'en-us', path.join(dir, 'speech.wav'));
  const words = spoken.words;
  narration = {
    audioPath: spoken.wavPath,
    durationMs: spoken.durationMs,
    segments: [{ content_type: 'text', section: null, text, image_url: null, video_url: null, start_time: 0, duration: spoken.durationMs, words }],
  };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function probe(file: string) {
  const run = await runTool('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height:format=duration', '-of', 'json', file]);
  return JSON.parse(run.stdout.toString()) as { streams: { codec_name: string; width?: number; height?: number }[]; format: { duration: string } };
}

describe('video renderer', () => {
  it('renders an H.264 + AAC mp4 of the frame size and the narration length, with the fonts it drew with', async () => {
    const outPath = path.join(dir, 'classic.mp4');
    const rendered = await renderer().render({
      ...narration,
      settings: { ...defaultVideoSettings, enabled: true },
      featureImageUrl: null,
      language: 'en_US',
      size: { name: 'square', width: 480, height: 480 },
      outPath,
    });
    const probed = await probe(outPath);
    expect(probed.streams.map((stream) => stream.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(probed.streams.find((stream) => stream.codec_name === 'h264')).toMatchObject({ width: 480, height: 480 });
    expect(Math.abs(Number(probed.format.duration) * 1000 - narration.durationMs)).toBeLessThan(100);
    expect(rendered).toMatchObject({ path: outPath, width: 480, height: 480, durationMs: narration.durationMs });
    expect(rendered.fonts.some((font) => /NotoSans-Regular\.ttf$/.test(font))).toBe(true);
  });

  it('stops its ffmpeg when the signal aborts', async () => {
    const controller = new AbortController();
    const render = renderer().render({
      ...narration,
      durationMs: 600_000,
      settings: { ...defaultVideoSettings, enabled: true },
      featureImageUrl: null,
      language: 'en_US',
      size: { name: 'landscape', width: 1280, height: 720 },
      outPath: path.join(dir, 'cancelled.mp4'),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 300);
    await expect(render).rejects.toMatchObject({ name: 'VideoRenderError', reason: 'aborted' });
  });

  it('follow-article: the feature image until the first image segment is read, then that image', async () => {
    const images = await serveImages(dir, { 'feature.png': 'color=c=lime:s=320x180', 'segment.png': 'color=c=blue:s=200x200' });
    try {
      const [first] = narration.segments;
      const imageAt = Math.round(narration.durationMs / 2);
      const outPath = path.join(dir, 'images.mp4');
      await renderer().render({
        ...narration,
        segments: [first!, { content_type: 'image', section: null, text: null, image_url: `${images.base}/segment.png`, video_url: null, start_time: imageAt, duration: 0, words: [] }],
        settings: { ...defaultVideoSettings, playbackMode: 'follow-article', panAndZoomEnabled: false, textCaptionsEnabled: false, audioAndWaveformEnabled: false },
        featureImageUrl: `${images.base}/feature.png`,
        language: 'en_US',
        size: { name: 'small', width: 320, height: 180 },
        outPath,
      });
      const area = { x: 0, y: 0, width: 320, height: 180 };
      expect(average(await framePixels(outPath, imageAt - 400, area))).toEqual([expect.closeTo(0, -1.5), expect.closeTo(255, -1.5), expect.closeTo(0, -1.5)]);
      expect(average(await framePixels(outPath, imageAt + 400, area))).toEqual([expect.closeTo(0, -1.5), expect.closeTo(0, -1.5), expect.closeTo(255, -1.5)]);
    } finally {
      await images.close();
    }
  });
});
