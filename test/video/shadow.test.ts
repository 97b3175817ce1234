import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspeakEngine } from '../../src/media/engines/espeak.ts';
import { defaultVideoSettings, type VideoSettings } from '../../src/player/videoSettings.ts';
import { createVideoRenderer } from '../../src/video/render.ts';
import { framePixels, matching, type Area } from '../support/video.ts';

const WIDTH = 480;
const HEIGHT = 270;
const frame: Area = { x: 0, y: 0, width: WIDTH, height: HEIGHT };
const limits = { maxBytes: 5_000_000, timeoutMs: 5_000, allowPrivate: true };
/** A black frame, white captions without boxes or animations, no waveform: what a check changes stands out. */
const plain: VideoSettings = {
  ...defaultVideoSettings,
  backgroundColor: '#000000',
  textColor: '#ffffff',
  textBackgroundColor: 'transparent',
  textFontSize: 90,
  audioAndWaveformEnabled: false,
  entranceAnimation: 'none',
  exitAnimation: 'none',
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'shadow-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Speaks the text with espeak-ng, renders it with the settings and returns a frame: while word `at` is read, or mid-way. */
async function render(name: string, text: string, settings: Partial<VideoSettings>, at?: number) {
  const spoken = await createEspeakEngine({ concurrency: 1, timeoutMs: 10_000 }).speak(text, 'en-us', path.join(dir, `${name}.wav`));
  const outPath = path.join(dir, `${name}.mp4`);
  const rendered = await createVideoRenderer({ fontCacheDir: path.join(dir, 'fonts'), threads: 2, fonts: limits, images: limits }).render({
    audioPath: spoken.wavPath,
    durationMs: spoken.durationMs,
    segments: [{ content_type: 'text', section: null, text, image_url: null, video_url: null, start_time: 0, duration: spoken.durationMs, words: spoken.words }],
    settings: { ...plain, ...settings },
    featureImageUrl: null,
    language: 'en_US',
    size: { name: 'small', width: WIDTH, height: HEIGHT },
    outPath,
  });
  const word = at === undefined ? undefined : spoken.words[at];
  const atMs = word ? word.start_time + word.duration / 2 : spoken.durationMs / 2;
  return { pixels: await framePixels(outPath, atMs, frame), fonts: rendered.fonts, word: word?.text };
}

/** How many pixels are red (no green or blue) with a red channel in [from, to]. */
const reds = (pixels: Buffer, from: number, to: number) => {
  let count = 0;
  for (let at = 0; at < pixels.length; at += 3) if (pixels[at]! >= from && pixels[at]! <= to && pixels[at + 1]! < 40 && pixels[at + 2]! < 40) count++;
  return count;
};
/** A blurred red shadow's fading edge over the black frame, and a sharp one's body. */
const fadingRed = (pixels: Buffer) => reds(pixels, 40, 199);
const fullRed = (pixels: Buffer) => reds(pixels, 200, 255);

describe('caption shadows and emoji', () => {
  it("blurs a shadow by the CSS blur radius and keeps the text over it sharp, the karaoke highlight's shadow too", async () => {
    const text = 'Soft shadows';
    const karaoke = { textAnimation: 'karaoke', textHighlightColor: '#ffffff', textShadow: 'none' } as const;
    const [sharp, blurred, highlightSharp, highlightBlurred] = await Promise.all([
      render('sharp', text, { textShadow: '6px 6px 0px #ff0000' }),
      render('blurred', text, { textShadow: '6px 6px 8px #ff0000' }),
      render('highlight-sharp', text, { ...karaoke, textHighlightShadow: '6px 6px 0px #ff0000' }),
      render('highlight-blurred', text, { ...karaoke, textHighlightShadow: '6px 6px 8px #ff0000' }),
    ]);
    const white = (pixels: Buffer) => matching(pixels, [255, 255, 255], 40).length;
    expect(white(sharp.pixels)).toBeGreaterThan(300);
    expect(fullRed(sharp.pixels)).toBeGreaterThan(100);
    expect(fullRed(highlightSharp.pixels)).toBeGreaterThan(20);
    // The blurred shadow spreads wider and fades: more red pixels between black and full red, fewer at full red.
    expect(fadingRed(blurred.pixels)).toBeGreaterThan(1.4 * fadingRed(sharp.pixels));
    expect(fullRed(blurred.pixels)).toBeLessThan(0.5 * fullRed(sharp.pixels));
    expect(fadingRed(highlightBlurred.pixels)).toBeGreaterThan(1.4 * fadingRed(highlightSharp.pixels));
    expect(fullRed(highlightBlurred.pixels)).toBeLessThan(0.5 * fullRed(highlightSharp.pixels));
    // The text itself is not blurred: about as many white pixels as over the sharp shadow.
    for (const [over, under] of [[blurred, sharp], [highlightBlurred, highlightSharp]] as const) {
      expect(white(over.pixels)).toBeGreaterThan(0.9 * white(under.pixels));
      expect(white(over.pixels)).toBeLessThan(1.1 * white(under.pixels));
    }
  });

  it.each([
    ['🎉', /Symbola/],
    ['😀', /DejaVuSans\.ttf$/],
  ])('draws %s from an outline font that covers it, not as an empty box', async (emoji, font) => {
    // Karaoke shows only the word being read (the others are black on black): the emoji's pixels are the bright ones.
    const settings = { textAnimation: 'karaoke', textColor: '#000000', textHighlightColor: '#ffffff' } as const;
    const { pixels, fonts, word } = await render(`emoji-${emoji.codePointAt(0)}`, `Great news ${emoji} today`, settings, 2);
    expect(word).toBe(emoji);
    const drawn = [...Array(WIDTH * HEIGHT).keys()].filter((pixel) => pixels[pixel * 3]! > 100);
    const xs = drawn.map((pixel) => pixel % WIDTH);
    const ys = drawn.map((pixel) => Math.floor(pixel / WIDTH));
    const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const inside = drawn.filter((_, at) => xs[at]! > left + 3 && xs[at]! < right - 3 && ys[at]! > top + 3 && ys[at]! < bottom - 3);
    expect(fonts.some((file) => font.test(file)), fonts.join(', ')).toBe(true);
    // About a glyph's size (the font size is 34 pixels in this frame; a missing glyph's box is about 9 by 17).
    expect(right - left).toBeGreaterThan(15);
    expect(bottom - top).toBeGreaterThan(15);
    // Drawn inside, not only along its edges as the empty box of a missing glyph is (none of its pixels are inside).
    expect(inside.length).toBeGreaterThan(0.3 * drawn.length);
  });
});
