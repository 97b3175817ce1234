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
  if (text === null) return null;
  // `pairsOf` by hand: a search index's build calls this for every document, and the loop makes no arrays but the words (1.5× faster).
  const words = text.trim().split(' ');
  let pairs = '';
  for (let i = 1; i < words.length; i++) pairs += `${i > 1 ? ' ' : ''}_${words[i - 1]}_${words[i]}`;
  return pairs;
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
 * What a page of a phrase search costs per item, in µs, measured at 1,000,000 items: an id of the index's postings
 * counted, then read again by the page's query (the MATCH is part of its SQL, so no id passes through JavaScript);
 * a listed id looked up in the keys table and sorted (its row is anywhere in the table: 1.3 µs when cached, 20–30
 * cold, which a search's mostly are); one step down the order's index testing the row against the listed ids (a bloom
 * filter and an in-memory index, no row read); one step testing the row's text instead (the text the index keeps).
 */
const COST = { listed: 0.3, sorted: 20, walkedListed: 0.15, walkedText: 7.6 };
/** The FTS5 query of whole words: one word's postings, or the phrase of its pair tokens. */
const wholeWords = (words: readonly string[], prefix: boolean): string => {
  const star = prefix ? ' *' : '';
  if (words.length === 1) return `text : "${words[0]}"${star}`;
  return `pairs : "${pairsOf(words)}"${star}`;
};

/**
 * Candidates for a phrase among `total` documents when `need` of them make the page. Listing m of them costs about
 * m; walking the order and testing each item's text finds `need` after about need × total / m items: a phrase in
 * more documents than the cap, where both cost the same, is walked. Every query here reads postings as a stream cut
 * at that cap, except a prefix's, which merges the postings of every word it starts, so it runs only once the phrase
 * of whole words is known to be rare.
 */
export function searchCandidates(count: (match: string, limit: number) => number, total: number, need: number): SearchCandidates {
  const cap = Math.min(total, Math.ceil(Math.sqrt((COST.walkedText / COST.listed) * need * total)));
  const listed = (match: string) => {
    const found = count(match, cap + 1);
    return found <= cap ? { match, count: found, total } : null;
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

/**
 * How far down the order's index a page of a listed phrase is looked for (testing each row against the `listed`
 * ids), or null when sorting the listed ids costs less. Spread over the order, they are met every total ÷ listed
 * items; the walk is given what sorting them would cost, and tried when it should need no more. A page the window
 * does not fill (the phrase's items bunched at the far end of the order) is then sorted after all: at worst twice
 * the sort.
 */
export function walkWindow(listed: number, total: number, need: number): number | null {
  if (!Number.isFinite(need) || listed <= need) return null;
  const window = Math.ceil((listed * COST.sorted) / COST.walkedListed);
  return (need * total) / listed <= window ? Math.min(window, total) : null;
}
