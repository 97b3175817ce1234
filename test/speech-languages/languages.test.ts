// Nine languages as a listener hears them: a short news item per language (test/speech-languages/news.ts, a number
// and a date in each) narrated through HTTP by the language's default voice, its mp3 transcribed by Whisper base with
// the language forced (test/support/recognize.py), and compared with what was written: word error rate, or character
// error rate for Japanese and Chinese, Hindi on a phonetic form (test/support/recognizerLanguages.ts). The same
// narrations are measured for loudness and for word times that stay in order inside their segments, and the Japanese
// and Mandarin items' videos are looked at for karaoke captions lit word by word.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from '../support/generation.ts';
import { download as downloadVideo, framePixels, matching, type Area, type Rgb } from '../support/video.ts';
import { measureLoudness } from '../support/loudness.ts';
import { startRecognizer, type Recognizer, type Transcript } from '../support/recognizer.ts';
import { heardInLanguage } from '../support/recognizerLanguages.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { NEWS, type News } from './news.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'languages-heard-'));
// A wait, not a measure: on a busy machine Kokoro's real-time factor grows from about 1 to 5 and more.
const NARRATION_TIMEOUT_MS = 600_000;

interface Narration {
  item: any;
  mp3: string;
  heard: Transcript;
  /** The voice of the item's text segments, as the catalogue lists it. */
  voice: any;
}

const textSegments = (item: any) => item.segments.filter((segment: any) => segment.content_type === 'text');

/** Languages whose items are also rendered as video, with karaoke captions: black frame, white words, magenta lit. */
const KARAOKE = new Set(['ja_JP', 'zh_CN']);
const WIDTH = 640;
const HEIGHT = 360;
const MAGENTA: Rgb = [255, 0, 255];
const KARAOKE_SETTINGS = {
  background_color: '#000000',
  text_color: '#ffffff',
  text_background_color: 'transparent',
  text_animation: 'karaoke',
  text_highlight_color: '#ff00ff',
  text_font_size: 80,
  audio_and_waveform_enabled: false,
  entrance_animation: 'none',
  exit_animation: 'none',
};
const SMALL = [{ name: 'small', width: WIDTH, height: HEIGHT, enabled: true }];
const FRAME: Area = { x: 0, y: 0, width: WIDTH, height: HEIGHT };

// Runs once, in the embedded run: the voices speak the same whatever stores hold the events.
describe.skipIf(process.env.TEST_MONGODB_URL)('nine languages, heard by an offline recognizer', () => {
  let server: TestServer;
  let recognizer: Recognizer;
  /** Each language's narration, heard as soon as it is ready while the others are still spoken. */
  const narrations = new Map<string, Promise<Narration>>();

  /** The project of the items rendered as video too. */
  let karaokeDesk: number;

  async function narrate(news: News): Promise<Narration> {
    const video = KARAOKE.has(news.language);
    const project = video ? karaokeDesk : 1;
    const body = { title: news.title, body: news.body, language: news.language, summary_enabled: false, ...(video && { video_settings: { enabled: true, variants: ['article'], sizes: SMALL } }) };
    const created = await server.request('POST', `/v1/projects/${project}/content`, { body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const deadline = Date.now() + NARRATION_TIMEOUT_MS;
    for (;;) {
      const item = (await server.request('GET', `/v1/projects/${project}/content/${created.body.id}?segments=full&words=full`)).body;
      if (!['queued', 'processing'].includes(item.status)) {
        expect(item.status, item.error).toBe('processed');
        const mp3 = await download(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url, mkdtempSync(path.join(scratch, `${news.language}-`)));
        const voiceId = textSegments(item)[0].voice.id;
        const [heard, voice] = await Promise.all([recognizer.transcribe(mp3, news.language), server.request('GET', `/v1/organization/voices/${voiceId}`)]);
        return { item, mp3, heard, voice: voice.body };
      }
      if (Date.now() > deadline) throw new Error(`${news.language} item still ${item.status} after ${NARRATION_TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  beforeAll(async () => {
    // Two Kokoro workers speak two items side by side, one thread each on the two cores.
    [server, recognizer] = await Promise.all([startServer({ env: { GENERATION_ENABLED: 'true', KOKORO_WORKERS: '2', SYNTHESIS_TIMEOUT_MS: '240000' } }), startRecognizer()]);
    karaokeDesk = (await server.request('POST', '/v1/projects', { body: { name: 'Karaoke desk' } })).body.id;
    const settings = await server.request('PUT', `/v1/projects/${karaokeDesk}/video_settings`, { body: { ...KARAOKE_SETTINGS, sizes: SMALL } });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    for (const news of NEWS) {
      const narration = narrate(news);
      // Awaited by the language's own tests: one language failing fails only its tests.
      narration.catch(() => {});
      narrations.set(news.language, narration);
    }
  }, 60_000);
  afterAll(async () => {
    recognizer?.close();
    await server?.stop();
  });

  it.each(NEWS)(
    '$name ($language): narrated by a voice other than espeak-ng, and heard within its bound',
    async (news) => {
      const { item, heard, voice } = await narrations.get(news.language)!;
      expect(new Set(textSegments(item).map((segment: any) => segment.voice.id)).size, 'one voice for the item').toBe(1);
      expect(voice.language.code, `${voice.name} (${voice.engine})`).toMatch(new RegExp(`^${news.language.split('_')[0]}`));
      expect(voice.engine, voice.name).not.toBe('espeak-ng');
      const written = textSegments(item)
        .map((segment: any) => segment.text)
        .join('\n');
      const measured = await heardInLanguage(written, heard.text, news.language);
      const detail = `${voice.name} (${voice.engine}): ${measured.measure} error rate ${(measured.rate * 100).toFixed(1)}%; heard: ${heard.text}`;
      expect(measured.rate, detail).toBeLessThanOrEqual(news.bound);
    },
    NARRATION_TIMEOUT_MS + 60_000,
  );

  it.each(NEWS)(
    '$name ($language): levelled to −16 ± 1 LUFS integrated',
    async (news) => {
      const { mp3 } = await narrations.get(news.language)!;
      const { integrated } = await measureLoudness(mp3);
      expect(Math.abs(integrated + 16), `${integrated} LUFS`).toBeLessThanOrEqual(1);
    },
    NARRATION_TIMEOUT_MS + 60_000,
  );

  it.each(NEWS)(
    '$name ($language): word times in order, each word inside its segment, segments in order inside the audio',
    async (news) => {
      const { item } = await narrations.get(news.language)!;
      const segments = textSegments(item);
      for (const [index, segment] of segments.entries()) {
        expect(segment.words.length, segment.text).toBeGreaterThan(1);
        // Every word is written in its segment's text, in order.
        let from = 0;
        for (const word of segment.words) {
          const at = segment.text.indexOf(word.text, from);
          expect(at, `"${word.text}" after ${from} in "${segment.text}"`).toBeGreaterThanOrEqual(0);
          from = at + word.text.length;
        }
        const starts = segment.words.map((word: any) => word.start_time);
        expect(starts[0]).toBeGreaterThanOrEqual(0);
        for (let at = 1; at < starts.length; at++) expect(starts[at], `${segment.words[at].text} in "${segment.text}"`).toBeGreaterThan(starts[at - 1]);
        for (const word of segment.words) expect(word.start_time + word.duration, word.text).toBeLessThanOrEqual(segment.duration + 1);
        if (index > 0) expect(segment.start_time).toBeGreaterThanOrEqual(segments[index - 1].start_time + segments[index - 1].duration);
      }
      const last = segments.at(-1);
      expect(last.start_time + last.duration).toBeLessThanOrEqual(item.duration + 1);
    },
    NARRATION_TIMEOUT_MS + 60_000,
  );

  // The body's longest word of two characters or more with a word on either side: lit while it is read, not before
  // (the word before it is lit then, elsewhere), not after (the next word is).
  it.each(NEWS.filter((news) => KARAOKE.has(news.language)))(
    '$name ($language): the video lights the karaoke captions word by word, as the item times its words',
    async (news) => {
      const { item } = await narrations.get(news.language)!;
      expect(item.video).toHaveLength(1);
      const file = path.join(mkdtempSync(path.join(scratch, `${news.language}-video-`)), 'small.mp4');
      await downloadVideo(item.video[0].url, file);
      const body = textSegments(item).find((segment: any) => segment.section === 'body');
      const words = body.words.map((word: any) => ({ text: word.text, middle: body.start_time + word.start_time + word.duration / 2, duration: word.duration }));
      const candidates = words.slice(1, -1).filter((word: any) => [...word.text].length >= 2);
      const word = candidates.reduce((longest: any, each: any) => (each.duration > longest.duration ? each : longest));
      const at = words.indexOf(word);
      const lit = matching(await framePixels(file, word.middle, FRAME), MAGENTA, 80);
      expect(lit.length, `"${word.text}" lit at ${word.middle} ms`).toBeGreaterThan(40);
      const xs = lit.map((pixel) => pixel % WIDTH);
      const ys = lit.map((pixel) => Math.floor(pixel / WIDTH));
      const box: Area = { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs) + 1, height: Math.max(...ys) - Math.min(...ys) + 1 };
      // One word lit, not a line: about as wide as its characters (and a mark after it), each at most the font size,
      // which the captions scale by the frame's shorter side over 720.
      const fontPixels = (KARAOKE_SETTINGS.text_font_size * HEIGHT) / 720;
      expect(box.width, `"${word.text}"`).toBeLessThanOrEqual(([...word.text].length + 1) * fontPixels + 8);
      for (const other of [words[at - 1], words[at + 1]]) {
        expect(matching(await framePixels(file, other.middle, box), MAGENTA, 80).length, `"${word.text}" while "${other.text}" is read`).toBeLessThan(3);
        expect(matching(await framePixels(file, other.middle, FRAME), MAGENTA, 80).length, `"${other.text}" lit`).toBeGreaterThan(20);
      }
    },
    NARRATION_TIMEOUT_MS + 60_000,
  );
});
