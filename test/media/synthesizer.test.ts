import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SynthesisError } from '../../src/media/errors.ts';
import { probeDurationMs, silences } from '../../src/media/probe.ts';
import { createEspeakEngine } from '../../src/media/engines/espeak.ts';
import { SAMPLE_RATE } from '../../src/media/synthesizer.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'synthesizer-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const synthesizer = createEspeakEngine({ concurrency: 2, timeoutMs: 20_000 });
const tokensOf = (text: string) => text.split(/\s+/).filter(Boolean).map((token) => token.replace(/^\p{P}+|\p{P}+$/gu, ''));

describe('speak', () => {
  it('writes the WAV and times every word of the text in order', async () => {
    const text = 'The quick brown fox jumps over the lazy dog, and then it runs away across 1,200 fields.';
    const spoken = await synthesizer.speak(text, 'en', join(dir, 'fox.wav'));
    expect(spoken.sampleRate).toBe(SAMPLE_RATE);
    expect(spoken.durationMs).toBeCloseTo((spoken.samples * 1000) / spoken.sampleRate, 6);
    expect(await probeDurationMs(spoken.wavPath)).toBeCloseTo(spoken.durationMs, 0);
    expect(spoken.words.map((word) => word.text)).toEqual(tokensOf(text));
    spoken.words.forEach((word, i) => {
      expect(word.duration).toBeGreaterThan(0);
      if (i > 0) expect(word.start_time).toBe(spoken.words[i - 1]!.start_time + spoken.words[i - 1]!.duration);
    });
    const last = spoken.words.at(-1)!;
    expect(last.start_time + last.duration).toBeLessThanOrEqual(spoken.durationMs);
    expect(last.start_time + last.duration).toBeGreaterThan(spoken.durationMs - 100);
  });

  it('starts each word where the audio, measured by silencedetect, starts to sound', async () => {
    // Sentences of one word each, spoken slowly, leave long pauses between the words. Words that
    // start with a vowel or a nasal start to sound at once (a stop starts with a silent closure).
    const text = 'One. Eight. Nine. Eleven. Apple. Orange. Umbrella. Ice.';
    const spoken = await synthesizer.speak(text, 'en', join(dir, 'pauses.wav'));
    const quiet = await silences(spoken.wavPath, { noiseDb: -40, minMs: 150 });
    const soundStarts = [0, ...quiet.map((silence) => silence.end)];
    expect(spoken.words.map((word) => word.text)).toEqual(tokensOf(text));
    expect(quiet.length).toBeGreaterThanOrEqual(spoken.words.length - 1);
    for (const word of spoken.words) {
      const nearest = Math.min(...soundStarts.map((start) => Math.abs(start - word.start_time)));
      expect(nearest, `${word.text} at ${word.start_time} ms`).toBeLessThanOrEqual(40);
      for (const silence of quiet) expect(word.start_time <= silence.start + 40 || word.start_time >= silence.end - 40).toBe(true);
    }
  });

  it('starts the audio where the speech becomes audible, also before a stop consonant', async () => {
    const spoken = await synthesizer.speak('Critics say no.', 'en', join(dir, 'critics.wav'));
    const quiet = await silences(spoken.wavPath, { noiseDb: -40, minMs: 5 });
    expect(quiet.filter((silence) => silence.start < 1)).toEqual([]);
    expect(spoken.words[0]).toMatchObject({ text: 'Critics', start_time: 0 });
  });

  it('maps offsets to characters, not bytes, in non-ASCII text', async () => {
    const text = 'Grüße aus Köln, naïve café — straße und Zürich.';
    const spoken = await synthesizer.speak(text, 'de', join(dir, 'de.wav'));
    expect(spoken.words.map((word) => word.text)).toEqual(['Grüße', 'aus', 'Köln', 'naïve', 'café', 'straße', 'und', 'Zürich']);
  });

  it('accepts a language where espeak-ng has no voice of that name, as `espeak-ng -v` does', async () => {
    const spoken = await synthesizer.speak('Good evening.', 'en-gb', join(dir, 'en-gb.wav'));
    expect(spoken.words.map((word) => word.text)).toEqual(['Good', 'evening']);
  });

  it('rejects an unknown voice with a typed error and leaves no file', async () => {
    const failure = await synthesizer.speak('Hello.', 'nosuchvoice', join(dir, 'none.wav')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SynthesisError);
    expect(failure).toMatchObject({ reason: 'unknown-voice' });
    await expect(access(join(dir, 'none.wav'))).rejects.toThrow();
  });

  it('kills a synthesis that runs past its time limit', async () => {
    const hasty = createEspeakEngine({ concurrency: 1, timeoutMs: 50 });
    const long = 'This sentence is spoken again and again until the time is up. '.repeat(400);
    const failure = await hasty.speak(long, 'en', join(dir, 'long.wav')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SynthesisError);
    expect(failure).toMatchObject({ reason: 'timeout' });
  });

  it('speaks several texts at once, each with its own timings', async () => {
    const texts = ['First of four.', 'The second one is a little longer.', 'Third.', 'And the fourth closes the set.'];
    const spoken = await Promise.all(texts.map((text, i) => synthesizer.speak(text, 'en', join(dir, `many-${i}.wav`))));
    spoken.forEach((result, i) => expect(result.words.map((word) => word.text)).toEqual(tokensOf(texts[i]!)));
  });
});
