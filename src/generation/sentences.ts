// Splits the words a text segment is spoken with into sentences, where the speech engines end one themselves, so
// that each sentence can be spoken and encoded as soon as the ones before it are.
import type { SpokenToken } from '../speech/normalize.ts';

/** A sentence ends with a word ending in `.`, `!` or `?`, closing quotes or brackets after it allowed, ... */
const ENDS_SENTENCE = /[.!?]["'”’)\]]*$/u;
/** ... when the next word starts with a capital or a digit, opening quotes or brackets before it allowed. */
const STARTS_SENTENCE = /^["'“‘([]*[\p{Lu}\p{N}]/u;

/** Japanese and Chinese end a sentence with a full-width stop, question or exclamation mark, and start the next right after it, with no space; one closed by a quote or bracket ("「本当？」と") goes on. */
const ENDS_UNSPACED_SENTENCE = /(?<=[。！？])(?=[^\s。！？」』）”’〉》】])/u;

/**
 * The texts of a spoken text's sentences, in order, covering every token; none for a text without tokens.
 *
 * The rule is espeak-ng's own (Piper's and Kokoro's phonemizer, and espeak-ng itself): a clause ending in `.`, `!` or
 * `?` before a word that does not start with a small letter ends a sentence ("p.m. Then", "U.S. Army" and
 * "Mr. Smith" too, since espeak-ng ends them there). Piper speaks each sentence of a request on its own and joins
 * them without a pause, so a sentence per request gives the same samples. Never inside phoneme markup (`[[…]]`, put
 * there only by pronunciation rules), whose words the engine must see together.
 *
 * Japanese and Chinese are written without spaces, so one token may hold a paragraph: it is cut after each `。`, `！`
 * and `？` (Kokoro's G2P for them ends a sentence there too). The sentences' texts, joined, are the spoken text with
 * only the spaces at the cuts left out, so the engine's word timings still follow the tokens in order.
 */
export function sentencesOf(tokens: readonly SpokenToken[]): string[] {
  const sentences: string[] = [];
  let words: string[] = [];
  let inMarkup = false;
  const end = () => {
    if (words.length) sentences.push(words.join(' '));
    words = [];
  };
  tokens.forEach((token, index) => {
    if (token.text.includes('[[')) inMarkup = true;
    const pieces = inMarkup || token.text.includes(']]') ? [token.text] : token.text.split(ENDS_UNSPACED_SENTENCE);
    pieces.forEach((piece, at) => {
      if (at > 0) end();
      words.push(piece);
    });
    if (token.text.includes(']]')) inMarkup = false;
    const next = tokens[index + 1];
    if (next && !inMarkup && ENDS_SENTENCE.test(token.text) && STARTS_SENTENCE.test(next.text)) end();
  });
  end();
  return sentences;
}
