// Checks shared by the speech engines' own tests: how an engine times the words it speaks.
import { expect } from 'vitest';
import type { SpokenText } from '../../src/media/synthesizer.ts';
import { tokensOf } from './generation.ts';

/**
 * Every written word of `text` timed, in order and back to back, none of them instantly; the last ends within the
 * audio's final `slackMs` (the voice's trailing silence).
 */
export function expectEveryWordTimed(spoken: SpokenText, text: string, slackMs: number): void {
  expect(spoken.words.map((word) => word.text)).toEqual(tokensOf(text));
  spoken.words.forEach((word, i) => {
    expect(word.duration, word.text).toBeGreaterThan(0);
    if (i > 0) expect(word.start_time).toBe(spoken.words[i - 1]!.start_time + spoken.words[i - 1]!.duration);
  });
  const last = spoken.words.at(-1)!;
  expect(last.start_time + last.duration).toBeLessThanOrEqual(spoken.durationMs);
  expect(last.start_time + last.duration).toBeGreaterThan(spoken.durationMs - slackMs);
}
