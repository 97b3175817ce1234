// Word timings of the spoken text turned back into timings of the text as written.
import { displayed, tokenize, wordsOf, type Token, type WordTiming } from '../media/wordTimings.ts';
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
 * that they did not speak: each timing belongs to the next spoken token, past those left out. A text written without
 * spaces (Japanese, Chinese) is one token per clause, whose words the engine segmented and timed one by one: a timing
 * whose word comes later inside the token just timed (and said as written) starts a word of its own there.
 */
export function timingsToWritten(written: string, normalized: NormalizedText, spokenTimings: readonly WordTiming[]): WordTiming[] {
  const { tokens } = normalized;
  const writtenTokens = tokenize(written);
  const starts = new Map<number, number>();
  // Per written token, the code point offsets inside it where a word of its own starts, and when.
  const inside = new Map<number, Map<number, number>>();
  let end = 0;
  let next = 0;
  // How far into the token just timed (tokens[next - 1]) its timed words reach, in code points.
  let reached = Infinity;
  for (const timing of spokenTimings) {
    const previous = tokens[next - 1];
    const piece = previous && [...previous.text].length === [...(writtenTokens[previous.written]?.text ?? '')].length ? pieceOf(previous.text, timing.text, reached) : undefined;
    if (piece && previous) {
      if (!inside.has(previous.written)) inside.set(previous.written, new Map());
      inside.get(previous.written)!.set(piece.at, timing.start_time);
      reached = piece.end;
      end = Math.max(end, timing.start_time + timing.duration);
      continue;
    }
    let index = next;
    while (index < tokens.length && !WORDLIKE.test(tokens[index]!.text) && key(tokens[index]!.text) !== key(timing.text)) index++;
    const token = tokens[index];
    if (!token) break;
    if (!starts.has(token.written)) starts.set(token.written, timing.start_time);
    end = Math.max(end, timing.start_time + timing.duration);
    next = index + 1;
    reached = pieceOf(token.text, timing.text, 0)?.end ?? Infinity;
  }
  const words: Token[] = [];
  const timed: { index: number; start: number }[] = [];
  writtenTokens.forEach((token, index) => {
    const start = starts.get(index);
    const cuts = [...(inside.get(index) ?? [])];
    if (start !== undefined) timed.push({ index: words.length, start });
    const chars = [...token.text];
    const bounds = [0, ...cuts.map(([at]) => at), chars.length];
    cuts.forEach(([, cutStart], i) => timed.push({ index: words.length + i + 1, start: cutStart }));
    for (let i = 0; i + 1 < bounds.length; i++) {
      words.push({ start: token.start + bounds[i]!, end: token.start + bounds[i + 1]!, text: chars.slice(bounds[i], bounds[i + 1]).join('') });
    }
  });
  return wordsOf(words, timed, end);
}

/** Where `word` (a timing's text) is found in `token` at or after code point `from`, not at its start: [at, end). */
function pieceOf(token: string, word: string, from: number): { at: number; end: number } | undefined {
  if (!Number.isFinite(from) || !WORDLIKE.test(word)) return undefined;
  const chars = [...token];
  const position = token.indexOf(word, chars.slice(0, from).join('').length);
  if (position < 0) return undefined;
  const at = [...token.slice(0, position)].length;
  return { at, end: at + [...word].length };
}
