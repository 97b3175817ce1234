// Splits the words a text segment is spoken with into sentences, where the speech engines end one themselves, so
// that each sentence can be spoken and encoded as soon as the ones before it are.
import type { SpokenToken } from '../speech/normalize.ts';

/** A sentence ends with a word ending in `.`, `!` or `?`, closing quotes or brackets after it allowed, ... */
const ENDS_SENTENCE = /[.!?]["'”’)\]]*$/u;
/** ... when the next word starts with a capital or a digit, opening quotes or brackets before it allowed. */
const STARTS_SENTENCE = /^["'“‘([]*[\p{Lu}\p{N}]/u;

/** The tokens from `from` up to (not including) `to`. */
export interface SentenceRange {
  from: number;
  to: number;
}

/**
 * The sentences of a spoken text, in order, covering every token; none for a text without tokens.
 *
 * The rule is espeak-ng's own (Piper's and Kokoro's phonemizer, and espeak-ng itself): a clause ending in `.`, `!` or
 * `?` before a word that does not start with a small letter ends a sentence ("p.m. Then", "U.S. Army" and
 * "Mr. Smith" too, since espeak-ng ends them there). Piper speaks each sentence of a request on its own and joins
 * them without a pause, so a sentence per request gives the same samples. Never inside phoneme markup (`[[…]]`, put
 * there only by pronunciation rules), whose words the engine must see together.
 */
export function sentencesOf(tokens: readonly SpokenToken[]): SentenceRange[] {
  const sentences: SentenceRange[] = [];
  let from = 0;
  let inMarkup = false;
  tokens.forEach((token, index) => {
    if (token.text.includes('[[')) inMarkup = true;
    if (token.text.includes(']]')) inMarkup = false;
    const next = tokens[index + 1];
    if (next && !inMarkup && ENDS_SENTENCE.test(token.text) && STARTS_SENTENCE.test(next.text)) {
      sentences.push({ from, to: index + 1 });
      from = index + 1;
    }
  });
  if (from < tokens.length) sentences.push({ from, to: tokens.length });
  return sentences;
}
