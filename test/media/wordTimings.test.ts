import { describe, expect, it } from 'vitest';
import { timeWords, type WordEvent } from '../../src/media/wordTimings.ts';

const ev = (start: number, pos: number, len: number): WordEvent => ({ start, pos, len });
const texts = (words: { text: string }[]) => words.map((word) => word.text);

// The events are what libespeak-ng 1.51 reported for these texts (voice en, 175 wpm).
describe('timeWords', () => {
  it('times each token from its event to the next, the last until the audio falls silent', () => {
    expect(timeWords('Hello world.', [ev(0, 1, 5), ev(307, 7, 5)], 780.4)).toEqual([
      { text: 'Hello', start_time: 0, duration: 307 },
      { text: 'world', start_time: 307, duration: 473 },
    ]);
  });

  it('reads offsets as code points, not UTF-16 units', () => {
    // 𝄞 is one code point but two UTF-16 units, and espeak does not speak it.
    const words = timeWords('The 𝄞 sign, then Zürich.', [ev(0, 1, 3), ev(139, 7, 4), ev(692, 13, 4), ev(939, 18, 6)], 1400);
    expect(texts(words)).toEqual(['The', 'sign', 'then', 'Zürich']);
    expect(words.map((word) => word.start_time)).toEqual([0, 139, 692, 939]);
  });

  it('keeps one word for a token spoken as several and strips the punctuation around tokens', () => {
    const text = 'It cost “123” dogs, Dr. Smith’s';
    const events = [ev(0, 1, 2), ev(150, 4, 4), ev(400, 10, 3), ev(800, 11, 3), ev(1100, 11, 3), ev(1400, 15, 4), ev(1900, 21, 2), ev(2200, 25, 5)];
    expect(texts(timeWords(text, events, 2600))).toEqual(['It', 'cost', '123', 'dogs', 'Dr', 'Smith’s']);
  });

  it('drops the stale clause-boundary events that point back in the text', () => {
    const text = 'Not price. Our General';
    const events = [ev(0, 1, 3), ev(200, 5, 5), ev(900, 12, 3), ev(1000, 10, 0), ev(1200, 16, 7)];
    expect(timeWords(text, events, 1700).map((word) => [word.text, word.start_time])).toEqual([
      ['Not', 0],
      ['price', 200],
      ['Our', 900],
      ['General', 1200],
    ]);
  });

  it('gives an event on the space before a token to that token, unless one comes on the token itself', () => {
    // "b)" is reported on the space before it; 😀 is spoken "grinning face", "face" on the space after it.
    expect(timeWords('date. b) The', [ev(0, 1, 4), ev(600, 6, 1), ev(900, 10, 3)], 1200).map((word) => word.start_time)).toEqual([0, 600, 900]);
    expect(timeWords('Grüße 😀 aus', [ev(0, 1, 5), ev(251, 7, 1), ev(580, 8, 1), ev(874, 9, 3)], 1200).map((word) => [word.text, word.start_time])).toEqual([
      ['Grüße', 0],
      ['😀', 251],
      ['aus', 874],
    ]);
  });

  it('shares the time of a phrase espeak speaks as one word among its tokens, by length', () => {
    // "per cent" is one dictionary entry: its second event points inside "per"; "been" gets no event.
    const text = 'about 20 per cent. It has been revised — today';
    const events = [ev(0, 1, 5), ev(300, 7, 2), ev(700, 10, 3), ev(840, 11, 3), ev(1540, 20, 2), ev(1700, 23, 3), ev(2400, 32, 7), ev(3000, 42, 5)];
    const words = timeWords(text, events, 3500);
    expect(texts(words)).toEqual(['about', '20', 'per', 'cent', 'It', 'has', 'been', 'revised', 'today']);
    expect(words.find((word) => word.text === 'per')).toEqual({ text: 'per', start_time: 700, duration: 360 });
    expect(words.find((word) => word.text === 'cent')).toEqual({ text: 'cent', start_time: 1060, duration: 480 });
    expect(words.find((word) => word.text === 'been')).toEqual({ text: 'been', start_time: 2000, duration: 400 });
  });

  it('returns no words when nothing was spoken', () => {
    expect(timeWords('— …', [], 0)).toEqual([]);
  });
});
