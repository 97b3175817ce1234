// Title and body search: the words an item holds, kept in the read model, and the filter that finds a phrase among them (docs/api.md).
import type { ContentFields } from './events.ts';

/**
 * Word text: each word of letters and digits, lower case, without diacritics, preceded by one space. A phrase is
 * then a plain substring: ` council bud` occurs exactly where the word `council` is followed by a word starting
 * with `bud`. Every read store evaluates that alike (a `$regex` of literal text), and SQLite's full-text index
 * over word text answers it exactly (src/infrastructure/readStore/sqliteQuery.ts).
 */
export interface SearchText {
  title: string;
  body: string;
}

const ASCII = /^[\x00-\x7f]*$/;
const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
const ASCII_SEPARATORS = /[^a-z0-9]+/g;

/** Lower case first (some capitals lower to a letter and a mark), then diacritics dropped; and what parts its words. */
function folded(text: string): [string, RegExp] {
  const lower = text.toLowerCase();
  if (ASCII.test(lower)) return [lower, ASCII_SEPARATORS];
  return [lower.normalize('NFD').replace(MARKS, ''), SEPARATORS];
}

/** The words of a text. */
export function wordsOf(text: string): string[] {
  const [words, separators] = folded(text);
  return words.split(separators).filter(Boolean);
}

/** Bytes reused by every call: the text, then its word text after it. */
let scratch = Buffer.alloc(0);

/** wordText of ASCII text in one pass over its bytes: letters lowered, each run of other bytes one space. */
function asciiWordText(text: string): string {
  const length = text.length;
  if (scratch.length < 2 * length + 1) scratch = Buffer.allocUnsafe(2 * length + 1024);
  scratch.write(text, 0, length, 'latin1');
  let out = length;
  let inWord = false;
  for (let i = 0; i < length; i++) {
    let byte = scratch[i]!;
    if (byte >= 65 && byte <= 90) byte += 32;
    if ((byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57)) {
      if (!inWord) scratch[out++] = 32;
      inWord = true;
      scratch[out++] = byte;
    } else inWord = false;
  }
  return scratch.toString('latin1', length, out);
}

/**
 * ` word word…`: the separators each made one space, in one pass (a replay makes it for every item it creates; ASCII
 * text, the most of it, byte by byte, three times as fast as through regular expressions).
 */
export function wordText(text: string): string {
  if (ASCII.test(text)) return asciiWordText(text);
  const [words, separators] = folded(text);
  const spaced = ` ${words}`.replace(separators, ' ');
  return spaced.endsWith(' ') ? spaced.slice(0, -1) : spaced;
}

/** Letters with a diacritic, by the name of their HTML character reference: the mark is dropped anyway. */
const ACCENTED = /^([a-zA-Z])(acute|grave|circ|uml|tilde|cedil|ring|caron)$/;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', szlig: 'ss', aelig: 'ae', AElig: 'AE', oelig: 'oe', OElig: 'OE', oslash: 'o', Oslash: 'O' };

function reference(name: string): string {
  if (name.startsWith('#')) {
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  }
  return NAMED[name] ?? ACCENTED.exec(name)?.[1] ?? ' ';
}

/** The text of HTML as a reader sees it, for finding words: tags part words, character references are decoded. */
export const htmlText = (html: string): string =>
  html.replace(/<[^>]*>/g, ' ').replace(/&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (_, name: string) => reference(name));

/** What a field's words are read from: a title as it is, a body as HTML. A filter on the field is read the same way. */
const readAs: Record<keyof SearchText, (text: string) => string> = { title: (text) => text, body: htmlText };

export const searchTextOf = (fields: Pick<ContentFields, 'title' | 'body'>): SearchText => ({
  title: wordText(readAs.title(fields.title ?? '')),
  body: wordText(readAs.body(fields.body ?? '')),
});

/**
 * The filter of `filter[title]` or `filter[body]` on `searchText.<field>`: the words in the order given, the last
 * one as a prefix. Text without a word finds nothing.
 */
export function phraseFilter(text: string): Record<string, unknown> {
  return wordsFilter(wordsOf(text));
}

/**
 * `filter[<field>]`: the text read as the field's documents are (a body's markup dropped and its character references
 * decoded, as `searchTextOf` reads it), then its words as `phraseFilter`'s. An item's own body, exactly as it was
 * posted, thus finds it.
 */
export const fieldFilter = (field: keyof SearchText, text: string): Record<string, unknown> => wordsFilter(wordsOf(readAs[field](text)));

function wordsFilter(words: string[]): Record<string, unknown> {
  // Words hold letters and digits only: nothing in them is special to a regular expression.
  return words.length === 0 ? { $in: [] } : { $regex: words.map((word) => ` ${word}`).join('') };
}
