import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { average, download, framePixels, matching, serveImages, type Area, type Rgb } from '../support/video.ts';

let server: TestServer;
let images: Awaited<ReturnType<typeof serveImages>>;
let dir: string;
let projectId: number;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'video-frames-'));
  [server, images] = await Promise.all([startServer({ env: { FETCH_ALLOW_PRIVATE: 'true' } }), serveImages(dir, { 'logo.png': 'color=c=red:s=200x100' })]);
  projectId = (await server.request('POST', '/v1/projects', { body: { name: 'Frames desk' } })).body.id;
});
afterAll(async () => {
  await Promise.all([server.stop(), images.close()]);
  await rm(dir, { recursive: true, force: true });
});

const WIDTH = 640;
const HEIGHT = 360;
/** Plain settings the checks below change one thing of: a black frame, white captions without boxes, no waveform. */
const plain = {
  sizes: [{ name: 'small', width: WIDTH, height: HEIGHT, enabled: true }],
  background_color: '#000000',
  text_color: '#ffffff',
  text_background_color: 'transparent',
  audio_and_waveform_enabled: false,
  entrance_animation: 'none',
  exit_animation: 'none',
};
const captionArea: Area = { x: 0, y: HEIGHT / 2, width: WIDTH, height: HEIGHT / 2 };

async function preview(name: string, body: Record<string, unknown>, project = projectId) {
  const reply = await server.request('POST', `/v1/projects/${project}/video_settings/preview`, { body: { ...plain, ...body } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const file = path.join(dir, `${name}.mp4`);
  await download(reply.body.video_url, file);
  return { file, words: reply.body.words as { text: string; start_time: number; duration: number }[], fonts: reply.body.fonts as string[] };
}

const middle = (word: { start_time: number; duration: number }) => word.start_time + word.duration / 2;

describe('video frames', () => {
  it('karaoke: the word being read is in the highlight colour, which is not on it before it is read', async () => {
    const magenta: [number, number, number] = [255, 0, 255];
    const { file, words } = await preview('karaoke', { text_animation: 'karaoke', text_highlight_color: '#ff00ff', text_font_size: 90, sample_text: 'One two three four five six seven.' });
    const word = words[4]!;
    const reading = await framePixels(file, middle(word), captionArea);
    const lit = matching(reading, magenta, 80);
    expect(lit.length).toBeGreaterThan(40);
    const xs = lit.map((pixel) => pixel % WIDTH);
    const ys = lit.map((pixel) => Math.floor(pixel / WIDTH));
    const box: Area = { x: Math.min(...xs), y: captionArea.y + Math.min(...ys), width: Math.max(...xs) - Math.min(...xs) + 1, height: Math.max(...ys) - Math.min(...ys) + 1 };
    const before = await framePixels(file, middle(words[3]!), box);
    expect(matching(before, magenta, 80).length).toBeLessThan(3);
    // The word is there before it is read, in the text colour.
    expect(matching(before, [255, 255, 255], 60).length).toBeGreaterThan(20);
  });

  it("shows the logo's colour in its corner and not in the other", async () => {
    const { file } = await preview('logo', { logo_image_url: `${images.base}/logo.png`, logo_image_position: 'top-left', text_captions_enabled: false });
    const corner = (x: number): Area => ({ x, y: 20, width: 24, height: 12 });
    expect(average(await framePixels(file, 500, corner(20)))).toEqual([expect.closeTo(255, -1.5), expect.closeTo(0, -1.5), expect.closeTo(0, -1.5)]);
    expect(matching(await framePixels(file, 500, corner(WIDTH - 44)), [255, 0, 0]).length).toBe(0);
  });

  it("draws a gradient background's first colour at the left edge and its last at the right edge", async () => {
    const { file } = await preview('gradient', { background_color: 'linear-gradient(to right, #ff0000, #0000ff)', text_captions_enabled: false });
    const edge = (x: number): Area => ({ x, y: 0, width: 4, height: HEIGHT });
    const [left, right] = [average(await framePixels(file, 300, edge(0))), average(await framePixels(file, 300, edge(WIDTH - 4)))];
    expect(left[0]).toBeGreaterThan(215);
    expect(left[2]).toBeLessThan(40);
    expect(right[2]).toBeGreaterThan(215);
    expect(right[0]).toBeLessThan(40);
  });

  // Each form the issue found failing (500 `not a CSS colour`), drawn along its line: where the first and last colours sit.
  it.each([
    ['linear-gradient(0.25turn, #ff0000, #0000ff)', 'left', 'right'],
    ['linear-gradient(+90deg, #ff0000, #0000ff)', 'left', 'right'],
    ['linear-gradient(1.5708rad, #ff0000, #0000ff)', 'left', 'right'],
    ['linear-gradient(100grad, #ff0000, #0000ff)', 'left', 'right'],
    ['linear-gradient(0, #ff0000, #0000ff)', 'bottom', 'top'],
    ['linear-gradient(-0.25turn, #ff0000, #0000ff)', 'right', 'left'],
    ['linear-gradient(to top right, #ff0000, #0000ff)', 'bottom-left', 'top-right'],
  ])('draws %s from its first colour at the %s to its last at the %s', async (background_color, from, to) => {
    const { file } = await preview(`gradient-${from}-${to}-${background_color.length}`, { background_color, text_captions_enabled: false });
    const areas: Record<string, Area> = {
      left: { x: 0, y: 0, width: 4, height: HEIGHT },
      right: { x: WIDTH - 4, y: 0, width: 4, height: HEIGHT },
      top: { x: 0, y: 0, width: WIDTH, height: 4 },
      bottom: { x: 0, y: HEIGHT - 4, width: WIDTH, height: 4 },
      'bottom-left': { x: 0, y: HEIGHT - 6, width: 6, height: 6 },
      'top-right': { x: WIDTH - 6, y: 0, width: 6, height: 6 },
    };
    const [first, last] = [average(await framePixels(file, 300, areas[from]!)), average(await framePixels(file, 300, areas[to]!))];
    expect(first[0]).toBeGreaterThan(200);
    expect(first[2]).toBeLessThan(55);
    expect(last[2]).toBeGreaterThan(200);
    expect(last[0]).toBeLessThan(55);
  });

  it('moves the waveform with the narration: two frames half a second apart during speech show different waves', async () => {
    const green: Rgb = [0, 255, 0];
    const { file, words } = await preview('waveform', {
      audio_and_waveform_enabled: true,
      waveform_color: '#00ff00',
      text_captions_enabled: false,
      sample_text: 'Seven rivers ran over the valley all through the long and windy night.',
    });
    // A sixth of the frame high, mid-frame under captions at the bottom.
    const band: Area = { x: 0, y: (HEIGHT - HEIGHT / 6) / 2, width: WIDTH, height: HEIGHT / 6 };
    const at = middle(words[1]!);
    expect(at + 500).toBeLessThan(middle(words.at(-1)!));
    const [first, second] = [new Set(matching(await framePixels(file, at, band), green, 90)), new Set(matching(await framePixels(file, at + 500, band), green, 90))];
    // Speech draws more than a flat line (one row across the frame).
    expect(first.size).toBeGreaterThan(WIDTH * 2);
    expect(second.size).toBeGreaterThan(WIDTH * 2);
    const changed = [...first].filter((pixel) => !second.has(pixel)).length + [...second].filter((pixel) => !first.has(pixel)).length;
    expect(changed).toBeGreaterThan(Math.min(first.size, second.size) / 4);
  });

  it.each([
    ['ja_JP', '日本語の字幕が声に合わせて表示されます。', /NotoSansCJK/],
    ['ar_SA', 'تظهر الترجمة مع الصوت كلمة بكلمة.', /NotoSansArabic/],
  ])('%s captions are drawn with a font that covers them', async (language, sample_text, font) => {
    const project = (await server.request('POST', '/v1/projects', { body: { name: `Desk ${language}`, language } })).body.id;
    const { file, words, fonts } = await preview(language, { sample_text }, project);
    expect(fonts.some((name) => font.test(name))).toBe(true);
    const pixels = await framePixels(file, middle(words.at(-1)!), captionArea);
    expect(matching(pixels, [255, 255, 255], 60).length).toBeGreaterThan(100);
  });

  it.each([
    [0, 'square'],
    [200, 'rounded'],
  ])('caption and highlight boxes of radius %i have %s corners', async (radius, corners) => {
    const blue: Rgb = [0, 0, 255];
    const yellow: Rgb = [255, 255, 0];
    const { file, words } = await preview(`radius-${radius}`, {
      text_animation: 'karaoke',
      sample_text: 'Round boxes sit behind words.',
      text_font_size: 80,
      text_background_color: '#0000ff',
      text_highlight_background_color: '#ffff00',
      text_highlight_color: '#000000',
      text_background_radius: radius,
      text_highlight_background_radius: radius,
    });
    const frame: Area = { x: 0, y: 0, width: WIDTH, height: HEIGHT };
    const pixels = await framePixels(file, middle(words[2]!), frame);
    // The top-left corner of the box a colour covers, and the colour 3 pixels inside it on the diagonal.
    const corner = (color: Rgb) => {
      const found = matching(pixels, color, 60);
      expect(found.length).toBeGreaterThan(200);
      const [x, y] = [Math.min(...found.map((pixel) => pixel % WIDTH)), Math.min(...found.map((pixel) => Math.floor(pixel / WIDTH)))];
      const at = ((y + 3) * WIDTH + x + 3) * 3;
      return [pixels[at]!, pixels[at + 1]!, pixels[at + 2]!] as Rgb;
    };
    const near = (color: Rgb) => color.map((channel) => expect.closeTo(channel, -1.8));
    // Square: the box's own colour. Rounded: the caption box's corner shows the black frame, the highlight's the caption box.
    expect(corner(blue)).toEqual(corners === 'square' ? near(blue) : near([0, 0, 0]));
    expect(corner(yellow)).toEqual(corners === 'square' ? near(yellow) : near(blue));
  });
});
