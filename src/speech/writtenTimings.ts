// Word timings of the spoken text turned back into timings of the text as written.
import { displayed, tokenize, wordsOf, type WordTiming } from '../media/wordTimings.ts';
import type { NormalizedText } from './normalize.ts';

const key = (token: string) => displayed(token).toLowerCase();
const WORDLIKE = /[\p{L}\p{N}]/u;

/**
 * The written words timed as engines time theirs (../media/wordTimings.ts): in order, the punctuation around
 * them left out, each from the start of its first timed spoken token until the next written word starts, the
 * last until the last spoken token ends. A written word none of whose spoken tokens was timed (a pronunciation
 * rule may say two written words as one) shares the time of the word before it; a token without a letter or
 * digit (a dash) that was not spoken is left out.
 *
 * Engines time their spoken tokens in order, every word, but leave out the tokens without a letter or digit
 * that they did not speak: each timing belongs to the next spoken token, past those left out.
 */
export function timingsToWritten(written: string, normalized: NormalizedText, spokenTimings: readonly WordTiming[]): WordTiming[] {
  const { tokens } = normalized;
  const starts = new Map<number, number>();
  let end = 0;
  let next = 0;
  for (const timing of spokenTimings) {
    let index = next;
    while (index < tokens.length && !WORDLIKE.test(tokens[index]!.text) && key(tokens[index]!.text) !== key(timing.text)) index++;
    const token = tokens[index];
    if (!token) break;
    if (!starts.has(token.written)) starts.set(token.written, timing.start_time);
    end = Math.max(end, timing.start_time + timing.duration);
    next = index + 1;
  }
  return wordsOf(tokenize(written), [...starts].map(([index, start]) => ({ index, start })), end);
}
