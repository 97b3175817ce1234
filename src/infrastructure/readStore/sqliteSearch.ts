// Phrase search on SQLite: the word-pair tokens a search index holds beside the words, and the choice between listing a phrase's documents and walking the list's order.
import type { SearchCandidates } from './sqliteQuery.ts';

/**
 * Words and pairs in one FTS5 index: `ascii` splits at ASCII characters other than letters and digits (bytes above
 * 0x7f are letters to it), `_` joins the two words of a pair token.
 */
export const SEARCH_TOKENIZER = "ascii tokenchars '_'";

/**
 * The pair tokens of word text (` a b c` → `_a_b _b_c`): a phrase of k words is a phrase of k − 1 pairs, whose
 * postings are far shorter than those of its words. The leading `_` keeps them out of every word prefix's range.
 */
export function wordPairs(text: string | null): string | null {
  return text === null ? null : pairsOf(text.trim().split(' '));
}

const pairsOf = (words: readonly string[]) => words.slice(1).map((word, i) => `_${words[i]}_${word}`).join(' ');

/**
 * A word alone shorter than this is not looked up as a prefix: a short one stands for many words, whose postings
 * FTS5 merges in full. Prefixes of exactly this length have postings of their own (SEARCH_PREFIXES), read as a
 * stream like a word's (`str` * in 100,000 bodies: 0.7 ms, against 20 ms merged); longer ones start fewer words.
 */
const MIN_PREFIX = 3;
export const SEARCH_PREFIXES = String(MIN_PREFIX);
/**
 * How much testing one document's text on a walk of the list's order costs against listing one candidate and
 * sorting it (about 7.6 µs against 5 µs at 100,000 items: listed ids are scattered over the key table).
 */
const WALK_PER_LISTED = 1.5;

/** The FTS5 query of whole words: one word's postings, or the phrase of its pair tokens. */
const wholeWords = (words: readonly string[], prefix: boolean): string => {
  const star = prefix ? ' *' : '';
  if (words.length === 1) return `text : "${words[0]}"${star}`;
  return `pairs : "${pairsOf(words)}"${star}`;
};

/**
 * Candidates for a phrase among `total` documents when `need` of them make the page. Listing m of them costs about
 * m; walking the order to find `need` costs about WALK_PER_LISTED × need × total / m: a phrase in more documents
 * than the square root of their product is walked. Every query here reads postings as a stream cut at that cap,
 * except a prefix's, which merges the postings of every word it starts, so it runs only once the phrase of whole
 * words is known to be rare.
 */
export function searchCandidates(select: (match: string, limit: number) => number[], total: number, need: number): SearchCandidates {
  const cap = Math.min(total, Math.ceil(Math.sqrt(WALK_PER_LISTED * need * total)));
  const listed = (match: string) => {
    const ids = select(match, cap + 1);
    return ids.length <= cap ? ids : null;
  };
  return (_path, phrase) => {
    const words = phrase.trim().split(' ');
    const last = words.at(-1)!;
    // A one- or two-letter word alone starts too many words to list them; such a search is walked.
    if (words.length === 1 && [...last].length < MIN_PREFIX) return null;
    // The same words all whole match fewer documents than the phrase: if even they are many, the phrase is common.
    if (!listed(wholeWords(words, false))) return null;
    // The last word as a prefix: its pair tokens' postings are merged, about as many as the phrase has documents
    // (testing the text of the documents of the other words would read a body per candidate).
    return listed(wholeWords(words, true));
  };
}
