import { describe, expect, it } from 'vitest';
import type { WordTiming } from '../../src/media/wordTimings.ts';
import { normalizeForSpeech } from '../../src/speech/normalize.ts';
import { timingsToWritten } from '../../src/speech/writtenTimings.ts';

const timed = (...words: [string, number, number][]): WordTiming[] => words.map(([text, start_time, duration]) => ({ text, start_time, duration }));

describe('timingsToWritten', () => {
  it('gives each written token the span of the spoken tokens it became', () => {
    const written = 'It cost $5.2 million — up 3.5% on the 21st.';
    const normalized = normalizeForSpeech(written, 'en_US');
    expect(normalized.spoken).toBe('It cost five point two million dollars — up three point five percent on the twenty-first.');
    // What espeak-ng (voice en-us, 175 wpm) timed for that spoken text: the dash it did not speak is left out.
    const spoken = timed(
      ['It', 0, 155], ['cost', 155, 356], ['five', 511, 317], ['point', 828, 398], ['two', 1226, 212], ['million', 1438, 326],
      ['dollars', 1764, 678], ['up', 2442, 208], ['three', 2650, 225], ['point', 2875, 394], ['five', 3269, 317],
      ['percent', 3586, 473], ['on', 4059, 84], ['the', 4143, 127], ['twenty-first', 4270, 832],
    );
    expect(timingsToWritten(written, normalized, spoken)).toEqual(
      timed(['It', 0, 155], ['cost', 155, 356], ['$5.2', 511, 927], ['million', 1438, 1004], ['up', 2442, 208], ['3.5', 2650, 1409], ['on', 4059, 84], ['the', 4143, 127], ['21st', 4270, 832]),
    );
  });

  it('keeps the timings of a text said as written', () => {
    const written = 'Grüße aus Köln — 1996.';
    const spoken = timed(['Grüße', 0, 400], ['aus', 400, 200], ['Köln', 600, 500], ['1996', 1100, 900]);
    expect(timingsToWritten(written, normalizeForSpeech(written, 'de'), spoken)).toEqual(spoken);
  });

  it('matches by order, not by text, when an engine reports a word under other text', () => {
    const written = 'At 10:30 am.';
    const normalized = normalizeForSpeech(written, 'en_US');
    expect(normalized.spoken).toBe('At ten thirty a.m.');
    const spoken = timed(['At', 0, 100], ['ten', 100, 200], ['thirty', 300, 250], ['AM', 550, 400]);
    expect(timingsToWritten(written, normalized, spoken)).toEqual(timed(['At', 0, 100], ['10:30', 100, 450], ['am', 550, 400]));
  });

  it('keeps a symbol the engine spoke and skips the one it did not', () => {
    const written = 'Hi 😀 — $5';
    const normalized = normalizeForSpeech(written, 'en_US');
    const spoken = timed(['Hi', 0, 200], ['😀', 200, 700], ['five', 900, 300], ['dollars', 1200, 400]);
    expect(timingsToWritten(written, normalized, spoken)).toEqual(timed(['Hi', 0, 200], ['😀', 200, 700], ['$5', 900, 700]));
  });

  it('shares the time of a word said together with the one before it, by length', () => {
    // As a pronunciation rule may give it: "per cent" said as the one word "percent".
    const normalized = { spoken: 'percent rise', tokens: [{ text: 'percent', written: 0 }, { text: 'rise', written: 2 }] };
    const spoken = timed(['percent', 0, 700], ['rise', 700, 300]);
    expect(timingsToWritten('per cent rise', normalized, spoken)).toEqual(timed(['per', 0, 300], ['cent', 300, 400], ['rise', 700, 300]));
  });

  it('returns no words when nothing was timed', () => {
    expect(timingsToWritten('$5', normalizeForSpeech('$5', 'en'), [])).toEqual([]);
  });
});
