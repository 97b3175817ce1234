import { describe, expect, it } from 'vitest';
import { defaultVideoSettings, type VideoSettings } from '../../src/player/videoSettings.ts';
import { captionScript } from '../../src/video/captions.ts';
import { imageSlots } from '../../src/video/slots.ts';
import type { TimedSegment } from '../../src/video/port.ts';

const segment = (text: string, start = 0): TimedSegment => {
  const tokens = text.split(' ');
  return {
    content_type: 'text',
    section: null,
    text,
    image_url: null,
    video_url: null,
    start_time: start,
    duration: tokens.length * 300,
    // Timed words come without their punctuation, as the speech engines give them.
    words: tokens.map((token, at) => ({ text: token.replace(/[.,!]/g, ''), start_time: start + at * 300, duration: 280 })),
  };
};
const image = (url: string, start: number): TimedSegment => ({ content_type: 'image', section: null, text: null, image_url: url, video_url: null, start_time: start, duration: 0, words: [] });

const script = (settings: Partial<VideoSettings>, segments: TimedSegment[], size = { width: 1280, height: 720 }) =>
  captionScript({ segments, settings: { ...defaultVideoSettings, ...settings }, ...size, language: 'en_US', durationMs: 20_000, fontFamily: 'Noto Sans' });
const dialogues = (ass: string) => ass.split('\n').filter((line) => line.startsWith('Dialogue: 1,'));
const plainText = (line: string) => line.split(',,').at(-1)!.replace(/\{[^}]*\}/g, '');

describe('caption scenes', () => {
  const text = 'One two three four five six seven, eight nine ten.';

  it('classic shows whole scenes of at most text_words words, with their punctuation', () => {
    const lines = dialogues(script({ textAnimation: 'classic', textWords: 4 }, [segment(text)]));
    expect(lines.map(plainText)).toEqual(['One two three four', 'five six seven, eight', 'nine ten.']);
  });

  it('reveal, karaoke and pop change at every word', () => {
    for (const textAnimation of ['reveal', 'karaoke', 'pop'] as const) expect(dialogues(script({ textAnimation }, [segment(text)]))).toHaveLength(10);
  });

  it('breaks lines to the caption width and keeps text_lines lines per scene', () => {
    const long = Array.from({ length: 60 }, (_, at) => `word${at}`).join(' ');
    const lines = dialogues(script({ textAnimation: 'classic', textLines: 2, textWidth: 50 }, [segment(long)]));
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line.split('\\N').length).toBeLessThanOrEqual(2);
  });

  it('never joins two segments in one scene, and puts the secondary colour on every other scene', () => {
    const lines = dialogues(script({ textAnimation: 'classic', textSecondaryColor: '#00ff00' }, [segment('First part.'), segment('Second part.', 2000)]));
    expect(lines.map(plainText)).toEqual(['First part.', 'Second part.']);
    expect(lines[0]).not.toContain('\\1c&H00FF00&');
    expect(lines[1]).toContain('\\1c&H00FF00&');
  });
});

describe('image slots', () => {
  const base = { settings: { ...defaultVideoSettings, cycleTime: 5000 }, featureImageUrl: 'https://example.com/feature.jpg', durationMs: 12_000 };
  const segments = [segment('Words.'), image('https://example.com/a.jpg', 7000)];

  it('cycle: each image in turn for cycle_time', () => {
    expect(imageSlots({ ...base, segments }).slots).toEqual([
      { image: 0, start: 0, end: 5000 },
      { image: 1, start: 5000, end: 10_000 },
      { image: 0, start: 10_000, end: 12_000 },
    ]);
  });

  it('space-evenly: the narration shared between them', () => {
    expect(imageSlots({ ...base, settings: { ...base.settings, playbackMode: 'space-evenly' }, segments }).slots).toEqual([
      { image: 0, start: 0, end: 6000 },
      { image: 1, start: 6000, end: 12_000 },
    ]);
  });

  it('follow-article: each image from the moment its segment is read', () => {
    expect(imageSlots({ ...base, settings: { ...base.settings, playbackMode: 'follow-article' }, segments }).slots).toEqual([
      { image: 0, start: 0, end: 7000 },
      { image: 1, start: 7000, end: 12_000 },
    ]);
  });
});
