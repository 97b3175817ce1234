// Text normalization before synthesis: the words a speech engine is given for a text, and where each came from.
//
// Engines read what they are given; left to themselves they say "$5.2 million" as "dollar five point two
// million" or spell out "https". The rules (docs/text-normalization.md) rewrite numerals, symbols,
// abbreviations and addresses into the words a listener expects. The written text stays what players show
// and highlight, so every spoken whitespace token records the written whitespace token it came from: a
// written token becomes one or more spoken ones ("$5.2" → "five point two"), in order, never none.
import { ENGLISH_RULES, readsDayFirst, splitToken, type Token } from './english.ts';
import { cjkRewrite, languageRules, type LanguageRule } from './languageRules.ts';

export interface SpokenToken {
  text: string;
  /** Index of the written whitespace token it came from; never decreases from one spoken token to the next. */
  written: number;
}

export interface NormalizedText {
  /** What the engine is given. */
  spoken: string;
  /** The whitespace tokens of `spoken`, in order. */
  tokens: SpokenToken[];
}

export const whitespaceTokens = (text: string) => text.split(/\s+/u).filter(Boolean);

/**
 * Text as an engine may be given it, whoever wrote it (an article, a title, a rule's replacement, the punctuation a
 * rule puts back): every square bracket said as a round one, which the engines pause at alike. All three engines read
 * `[[…]]` as phoneme input (espeak-ng's espeakPHONEMES, Piper, Kokoro's phonemizer), which only `phonemeMarkup`
 * writes; text without a single bracket can neither open nor close it, nor make one with a bracket beside it
 * (`NASA[` put back after a rule's `[`, a `[` before a rule's `[[`). Whitespace is kept, so the tokens stay the
 * written text's and the mapping back to written words holds.
 */
export const speakable = (text: string) => text.replace(/\[/gu, '(').replace(/\]/gu, ')');

/** Phoneme input for an engine, the only place it is written: the phonemes (a rule's transcription) between `[[` and `]]`, any bracket of their own left out. */
export const phonemeMarkup = (phonemes: string) => `[[${phonemes.replace(/[[\]]/gu, '')}]]`;

/**
 * English has the full rules (english.ts); Spanish, French, Italian, Portuguese and Hindi their amounts of money, dates
 * and ordinals, and Japanese and Chinese their currency signs and dates (languageRules.ts); the engines read the rest
 * (espeak-ng the numerals of the languages it phonemizes). Other languages are given to the engine as written.
 */
export function normalizeForSpeech(writtenText: string, language: string): NormalizedText {
  const text = speakable(writtenText);
  const written = whitespaceTokens(text);
  const rewrite = cjkRewrite(language);
  if (rewrite) return tokensAsWritten(written.map(rewrite));
  const rules = /^en(?:$|[-_])/i.test(language) ? englishRules(readsDayFirst(language)) : languageRules(language);
  if (!rules) return { ...tokensAsWritten(written), spoken: text };
  const tokens = written.map(splitToken);
  const spoken: SpokenToken[] = [];
  for (let at = 0; at < tokens.length; ) {
    const phrases = readAt(rules, tokens, at);
    if (!phrases) {
      spoken.push({ text: written[at]!, written: at });
      at += 1;
      continue;
    }
    phrases.forEach((phrase, offset) => {
      const words = punctuated(tokens[at + offset]!, phrase);
      spoken.push(...words.map((word) => ({ text: word, written: at + offset })));
    });
    at += phrases.length;
  }
  return { spoken: spoken.map((token) => token.text).join(' '), tokens: spoken };
}

const tokensAsWritten = (texts: string[]): NormalizedText => ({ spoken: texts.join(' '), tokens: texts.map((token, index) => ({ text: token, written: index })) });

const englishRules = (dayFirst: boolean): LanguageRule[] => ENGLISH_RULES.map((rule) => (tokens, at) => rule(tokens, at, dayFirst));

/** The phrases of the first rule that reads the tokens at `at`; null when the token is said as written. */
function readAt(rules: readonly LanguageRule[], tokens: readonly Token[], at: number): string[] | null {
  for (const rule of rules) {
    const phrases = rule(tokens, at);
    if (phrases) return phrases;
  }
  return null;
}

/** A phrase's words with the written token's punctuation around them, which carries the pauses and sentence ends. */
function punctuated({ lead, trail }: Token, phrase: string): string[] {
  const words = phrase.split(' ');
  words[0] = lead + words[0];
  const last = words[words.length - 1]!;
  words[words.length - 1] = last + (last.endsWith('.') && trail.startsWith('.') ? trail.slice(1) : trail); // "a.m." + "."
  return words;
}
