import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspeakEngine } from '../../src/media/engines/espeak.ts';
import { createSynthesizer, SAMPLE_RATE, type Synthesizer } from '../../src/media/synthesizer.ts';
import type { PlannedSegment } from '../../src/generation/plan.ts';
import { renderVariant } from '../../src/generation/render.ts';
import { createCatalogue, parseVoiceList } from '../../src/voices/catalogue.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'render-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// The real espeak-ng synthesizer, with a record of the texts it was given.
const given: string[] = [];
const espeak = createSynthesizer({ espeak: createEspeakEngine({ concurrency: 2, timeoutMs: 20_000 }) });
const recording: Synthesizer = {
  speak: (text, ...rest) => {
    given.push(text);
    return espeak.speak(text, ...rest);
  },
};
const voices = createCatalogue(parseVoiceList(execFileSync('espeak-ng', ['--voices'], { encoding: 'utf8' })));
const displayedTokens = (text: string) => text.split(/\s+/).filter(Boolean).map((token) => token.replace(/^\p{P}+|\p{P}+$/gu, '') || token);

const segment = (text: string, language: string): PlannedSegment => ({
  section: 'body',
  content_type: 'text',
  text,
  audio_url: null,
  image_url: null,
  video_url: null,
  marker: null,
  xpath: null,
  md5: null,
  voice: voices.defaultFor(language)!,
});

describe('renderVariant', () => {
  it('speaks the normalized text and times the words as written', async () => {
    const english = 'The fund raised $5.2 million on the 21st, up 3.5% — see https://example.com/a today.';
    const german = 'Am 21. März kostet es 5,20 €.';
    const rendered = await renderVariant([segment(english, 'en_US'), segment(german, 'de')], dir, 'article', { afterTitleMs: 0, afterSegmentMs: 500 }, {
      synthesizer: recording,
      sampleRate: SAMPLE_RATE,
      audioLimits: { maxBytes: 1_000_000, timeoutMs: 10_000, allowPrivate: false },
      mediaDir: dir,
    }, new Date().toISOString());

    expect(given).toEqual([
      'The fund raised five point two million dollars on the twenty-first, up three point five percent — see example dot com slash a today.',
      german,
    ]);
    for (const { text, start_time: segmentStart, duration, words } of rendered.segments as any[]) {
      // The dash is not spoken, so it has no time, as without normalization.
      expect(words.map((word: any) => word.text)).toEqual(displayedTokens(text).filter((token) => token !== '—'));
      let end = segmentStart;
      for (const word of words) {
        expect(word.start_time).toBe(end);
        expect(word.duration).toBeGreaterThan(0);
        end = word.start_time + word.duration;
      }
      expect(end).toBeLessThanOrEqual(segmentStart + duration);
    }
    const english0 = (rendered.segments[0] as any).words;
    const spanOf = (text: string) => english0.find((word: any) => word.text === text).duration;
    // "$5.2" is said as three words and "million" as two: each lasts longer than the one-word "fund".
    expect(spanOf('$5.2')).toBeGreaterThan(spanOf('fund'));
    expect(spanOf('million')).toBeGreaterThan(spanOf('fund'));
  }, 60_000);
});
