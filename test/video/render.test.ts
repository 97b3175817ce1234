import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspeakEngine } from '../../src/media/engines/espeak.ts';
import { runTool } from '../../src/media/tool.ts';
import { defaultVideoSettings } from '../../src/player/videoSettings.ts';
import type { VideoRenderRequest } from '../../src/video/port.ts';
import { createVideoRenderer } from '../../src/video/render.ts';
import { decodeSamples, serveGeneratedAudio, toneDb } from '../support/audioHost.ts';
import { average, framePixels, matching, serveImages } from '../support/video.ts';

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

  it('text_fonts: a script the first font lacks is set in the next listed font that covers it, else in its Noto font', async () => {
    // The narration's times, Arabic words.
    const arabic = ['مرحبا', 'بكم', 'في', 'المدينة'];
    const [first] = narration.segments;
    const words = first!.words.map((word, at) => ({ ...word, text: arabic[at % arabic.length]! }));
    const render = (textFonts: string[]) =>
      renderer().render({
        ...narration,
        segments: [{ ...first!, text: words.map((word) => word.text).join(' '), words }],
        settings: { ...defaultVideoSettings, textFonts, audioAndWaveformEnabled: false },
        featureImageUrl: null,
        language: 'ar_SA',
        size: { name: 'small', width: 320, height: 180 },
        outPath: path.join(dir, `fonts-${textFonts.length}.mp4`),
      });
    const listed = await render(['Noto Sans', 'Noto Naskh Arabic']);
    expect(listed.fonts.some((font) => /NotoNaskhArabic-Regular\.ttf$/.test(font)), listed.fonts.join(' ')).toBe(true);
    expect(listed.fonts.some((font) => /NotoSansArabic/.test(font)), listed.fonts.join(' ')).toBe(false);
    const fallback = await render(['Noto Sans']);
    expect(fallback.fonts.some((font) => /NotoSansArabic-Regular\.ttf$/.test(font)), fallback.fonts.join(' ')).toBe(true);
  });

  /** A ten-minute 720p render (the narration padded with silence): long enough to be stopped while it runs. */
  const longRender = (name: string, signal?: AbortSignal): VideoRenderRequest => ({
    ...narration,
    durationMs: 600_000,
    settings: { ...defaultVideoSettings, enabled: true },
    featureImageUrl: null,
    language: 'en_US',
    size: { name: 'landscape', width: 1280, height: 720 },
    outPath: path.join(dir, name),
    signal,
  });

  it('stops its ffmpeg when the signal aborts', async () => {
    const controller = new AbortController();
    const render = renderer().render(longRender('cancelled.mp4', controller.signal));
    setTimeout(() => controller.abort(), 300);
    await expect(render).rejects.toMatchObject({ name: 'VideoRenderError', reason: 'aborted' });
  });

  it('stops an ffmpeg that passes its memory bound, saying so', async () => {
    const bounded = createVideoRenderer({ fontCacheDir: path.join(dir, 'fonts'), threads: 2, maxRssBytes: 40 * 1024 * 1024, fonts: limits, images: limits });
    await expect(bounded.render(longRender('bounded.mp4'))).rejects.toMatchObject({ name: 'VideoRenderError', reason: 'memory', message: 'ffmpeg used more than 40 MB of memory' });
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

  it('crop_coordinates: the feature image and an image segment of one picture each show the part cropped for 16:9', async () => {
    // Red on the left half, blue on the right: each crop keeps one half.
    const images = await serveImages(dir, { 'halves.png': 'color=c=red:s=200x200[a];color=c=blue:s=200x200[b];[a][b]hstack[out0]' });
    try {
      const [first] = narration.segments;
      const imageAt = Math.round(narration.durationMs / 2);
      const outPath = path.join(dir, 'cropped.mp4');
      const url = `${images.base}/halves.png`;
      const crop = (x: number) => ({ '16:9': [x, 0, 200, 112], '9:16': [0, 0, 10, 10] });
      await renderer().render({
        ...narration,
        segments: [first!, { content_type: 'image', section: null, text: null, image_url: url, video_url: null, start_time: imageAt, duration: 0, words: [], video_settings: { crop_coordinates: crop(0) } }],
        settings: { ...defaultVideoSettings, playbackMode: 'follow-article', panAndZoomEnabled: false, textCaptionsEnabled: false, audioAndWaveformEnabled: false },
        featureImageUrl: url,
        featureImageCrop: crop(200),
        language: 'en_US',
        size: { name: 'small', width: 320, height: 180 },
        outPath,
      });
      const area = { x: 0, y: 0, width: 320, height: 180 };
      expect(average(await framePixels(outPath, imageAt - 400, area))).toEqual([expect.closeTo(0, -1.5), expect.closeTo(0, -1.5), expect.closeTo(255, -1.5)]);
      expect(average(await framePixels(outPath, imageAt + 400, area))).toEqual([expect.closeTo(255, -1.5), expect.closeTo(0, -1.5), expect.closeTo(0, -1.5)]);
    } finally {
      await images.close();
    }
  });

  it('a video segment plays from its moment, fitted, looping in the background over hidden images, its sound mixed in', async () => {
    const images = await serveImages(dir, { 'feature.png': 'color=c=lime:s=320x180' });
    // A narrow red clip of 0.6 s with a 1 kHz tone.
    const clips = await serveGeneratedAudio(dir, { 'clip.mp4': 'color=c=red:s=90x90:r=25:d=0.6[out0];sine=frequency=1000:duration=0.6[out1]' });
    try {
      const [first] = narration.segments;
      const clipAt = 800;
      const outPath = path.join(dir, 'clip-out.mp4');
      const video_settings = { volume: 100, plays_in_background: true, hides_background_images: true };
      await renderer().render({
        ...narration,
        segments: [first!, { content_type: 'video', section: null, text: null, image_url: null, video_url: `${clips.base}/clip.mp4`, start_time: clipAt, duration: 0, words: [], video_settings }],
        settings: { ...defaultVideoSettings, playbackMode: 'follow-article', panAndZoomEnabled: false, textCaptionsEnabled: false, audioAndWaveformEnabled: false, backgroundColor: '#000000' },
        featureImageUrl: `${images.base}/feature.png`,
        language: 'en_US',
        size: { name: 'small', width: 320, height: 180 },
        outPath,
      });
      const centre = { x: 140, y: 70, width: 40, height: 40 };
      const side = { x: 0, y: 0, width: 40, height: 180 };
      const [red, lime, black] = [[255, 0, 0], [0, 255, 0], [0, 0, 0]].map((color) => color.map((channel) => expect.closeTo(channel, -1.8)));
      expect(average(await framePixels(outPath, clipAt - 400, side))).toEqual(lime);
      // Past the clip's own length it plays again; the image beside it is hidden while it plays.
      const late = Math.max(clipAt + 900, narration.durationMs - 300);
      expect(average(await framePixels(outPath, late, centre))).toEqual(red);
      expect(average(await framePixels(outPath, late, side))).toEqual(black);
      const sound = await decodeSamples(outPath);
      expect(toneDb(sound, [clipAt + 100, clipAt + 500], 1000) - toneDb(sound, [clipAt - 500, clipAt - 100], 1000)).toBeGreaterThan(15);
    } finally {
      await Promise.all([images.close(), clips.close()]);
    }
  });

  it('cycle: each image is on screen from the first frame of its turn to the last, with and without pan and zoom', async () => {
    const images = await serveImages(dir, { 'red.png': 'color=c=red:s=320x180', 'blue.png': 'color=c=blue:s=320x180' });
    try {
      for (const panAndZoomEnabled of [false, true]) {
        const outPath = path.join(dir, `cycle-${panAndZoomEnabled}.mp4`);
        await renderer().render({
          ...narration,
          segments: [...narration.segments, { content_type: 'image', section: null, text: null, image_url: `${images.base}/blue.png`, video_url: null, start_time: 0, duration: 0, words: [] }],
          settings: { ...defaultVideoSettings, playbackMode: 'cycle', cycleTime: 1000, panAndZoomEnabled, textCaptionsEnabled: false, audioAndWaveformEnabled: false },
          featureImageUrl: `${images.base}/red.png`,
          language: 'en_US',
          size: { name: 'small', width: 320, height: 180 },
          outPath,
        });
        // Every frame's centre pixel, in order: red for frames 0–24 (0.00–0.96 s), blue for 25–49, red again from 50.
        const run = await runTool('ffmpeg', ['-v', 'error', '-i', outPath, '-vf', 'crop=2:2:159:89,scale=1:1', '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']);
        const colours = [...run.stdout].filter((_, at) => at % 3 === 0).map((red, frame) => (red > 128 ? 'R' : run.stdout[frame * 3 + 2]! > 128 ? 'B' : '?'));
        const expected = colours.map((_, frame) => (Math.floor(frame / 25) % 2 === 0 ? 'R' : 'B'));
        expect(colours.join(''), `pan and zoom ${panAndZoomEnabled}`).toBe(expected.join(''));
        expect(colours.length).toBeGreaterThan(50);
      }
    } finally {
      await images.close();
    }
  });

  it('pan_and_zoom_enabled: the picture grows on screen as the video plays', async () => {
    const images = await serveImages(dir, { 'box.png': 'color=c=black:s=320x180,drawbox=x=80:y=45:w=160:h=90:color=white:t=fill' });
    try {
      const outPath = path.join(dir, 'zoom.mp4');
      await renderer().render({
        ...narration,
        settings: { ...defaultVideoSettings, panAndZoomEnabled: true, textCaptionsEnabled: false, audioAndWaveformEnabled: false },
        featureImageUrl: `${images.base}/box.png`,
        language: 'en_US',
        size: { name: 'small', width: 320, height: 180 },
        outPath,
      });
      const area = { x: 0, y: 0, width: 320, height: 180 };
      const white = async (at: number) => matching(await framePixels(outPath, at, area), [255, 255, 255], 60).length;
      const [early, late] = [await white(200), await white(narration.durationMs - 300)];
      // The box covers 160×90 pixels at the picture's size; zoomed in, more, and more as time passes.
      expect(early).toBeGreaterThan(160 * 90);
      expect(late / early).toBeGreaterThan(1.03);
    } finally {
      await images.close();
    }
  });
});
