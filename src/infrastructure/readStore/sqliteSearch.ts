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

/** Marks of the ASCII heads met in the text being read: one- and two-character ones, by their characters' codes. */
const seen = new Uint32Array(128 * 129);
let reading = 0;

/**
 * The heads of word text: each different first character and first two characters of its words (` cat cow c` →
 * `c ca co`), one token each, so that a word of one or two letters typed alone (`filter[title]=x`, a search box's
 * first key) is one token's postings, streamed and cut like a word's, rather than a walk of the list. Characters are
 * code points; ASCII ones are marked in a table, any other kept in a set.
 */
export function wordHeads(text: string | null): string | null {
  if (text === null) return null;
  reading = reading === 0xffffffff ? 1 : reading + 1;
  if (reading === 1) seen.fill(0);
  const heads: string[] = [];
  let others: Set<string> | null = null;
  const other = (head: string) => {
    others ??= new Set();
    if (others.has(head)) return;
    others.add(head);
    heads.push(head);
  };
  const length = text.length;
  for (let i = 0; i + 1 < length; i++) {
    if (text.charCodeAt(i) !== 32) continue;
    const first = text.charCodeAt(i + 1);
    if (first === 32) continue;
    if (first < 128) {
      const second = i + 2 < length ? text.charCodeAt(i + 2) : 32;
      const one = first * 129;
      if (seen[one] !== reading) {
        seen[one] = reading;
        heads.push(String.fromCharCode(first));
      }
      if (second === 32) continue;
      if (second >= 128) {
        other(String.fromCharCode(first) + String.fromCodePoint(text.codePointAt(i + 2)!));
        continue;
      }
      const two = one + 1 + second;
      if (seen[two] !== reading) {
        seen[two] = reading;
        heads.push(String.fromCharCode(first, second));
      }
      continue;
    }
    // A first character beyond ASCII: its code point (a surrogate pair is one), then the next.
    const [a, b] = text.slice(i + 1, i + 5);
    other(a!);
    if (b !== undefined && b !== ' ') other(a! + b);
  }
  return heads.join(' ');
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
    // A one- or two-letter word alone is one head token's postings (`wordHeads`): listed when few, else walked.
    if (words.length === 1 && [...last].length < MIN_PREFIX) return listed(`heads : "${last}"`);
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
