// How well a narration in a language other than English is heard: the written text and the recognizer's transcript
// brought to one form, then compared by words (word error rate) or, for Japanese and Chinese, which are written
// without spaces, by characters (character error rate). Both sides get the same treatment: Unicode NFKC, lower case,
// punctuation dropped, a number's digit groups joined ("3.200", "3 200", "3,200") and every number written as its
// words in the language (n2words), so that how either side writes a number does not count. Hindi is compared on a
// phonetic form (hindiSounds, soundsErrorRate), since Whisper base writes what it hears in Hindi in Urdu's script.
import { toCardinal as de } from 'n2words/de-DE';
import { toCardinal as es } from 'n2words/es-ES';
import { toCardinal as fr } from 'n2words/fr-FR';
import { toCardinal as hi } from 'n2words/hi-IN';
import { toCardinal as it } from 'n2words/it-IT';
import { toCardinal as ja } from 'n2words/ja-JP';
import { toCardinal as pt } from 'n2words/pt-PT';
import { toCardinal as ru } from 'n2words/ru-RU';
import { toCardinal as zh } from 'n2words/zh-Hans-CN';
import { runTool } from '../../src/media/tool.ts';
import { align, whisperLanguage } from './recognizer.ts';

/** A number in words, per language (Brazilian Portuguese shares its numbers with Portugal's below sixteen). */
const NUMBER_WORDS: Record<string, (value: string) => string> = {
  de,
  es,
  fr,
  hi,
  it,
  ja,
  pt,
  ru,
  // As said: 十四, not n2words' 一十四.
  zh: (value) => zh(value, { formal: false }).replace(/^一十/, '十'),
};

/** Languages compared by characters rather than words. */
export const BY_CHARACTER = new Set(['ja', 'zh']);

/**
 * A text as compared: NFKC, lower case, numbers as words, every run of other than letters, marks and digits a space.
 * A Chinese year is read digit by digit ("2024年": 二零二四年), and so written as its digits' words.
 */
export function comparedText(text: string, language: string): string {
  const code = whisperLanguage(language);
  const words = NUMBER_WORDS[code];
  let compared = text.normalize('NFKC').toLowerCase();
  if (code === 'zh') compared = compared.replace(/(\d{4})年/g, (_, year: string) => `${[...year].map((digit) => (digit === '0' ? '零' : NUMBER_WORDS.zh!(digit))).join('')}年`);
  // "3.200", "3 200" and "3,200" are 3200 (the paragraphs compared hold no decimals).
  compared = compared.replace(/\d{1,3}(?:[., \u00a0\u202f]\d{3})+(?!\d)/g, (grouped) => grouped.replace(/\D/g, ''));
  if (words) compared = compared.replace(/\d+/g, (digits) => ` ${words(digits)} `);
  return compared
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

/** Edits (substitutions, deletions, insertions) over the length of the reference. */
export function errorRate(reference: readonly string[], heard: readonly string[]): number {
  const errors = align(reference, heard).filter(([i, j]) => i === null || j === null || reference[i] !== heard[j]).length;
  return errors / reference.length;
}

const IPA_VOWELS = /[aeiouyəɛɔɪʊæʌɑɒɐøœɨʉɯɤɘɵɜɞ]/gu;
/** Sounds the two scripts write alike, or that espeak-ng's Hindi and Urdu rules say differently for the same letter. */
const SAME_SOUND: Array<[RegExp, string]> = [
  [/[ɾɽr]/gu, 'r'],
  [/[ʐʒzɟ]/gu, 'z'],
  [/[ʂʃ]/gu, 'ʃ'],
  [/[ɡɣ]/gu, 'g'],
  [/[qx]/gu, 'k'],
  [/f/gu, 'p'],
  [/[wʋ]/gu, 'v'],
  [/[hɦ]/gu, ''],
];

/**
 * Hindi as sounds, whatever its script: espeak-ng says the text (its `hi` rules for Devanagari, `ur` for Urdu's
 * Arabic script) in IPA, and each word keeps only its consonants, with the sounds the two languages' spellings write
 * alike merged (ज and ज़ too: Hindi writes both ज) and doubled ones single. The vowels go because Urdu's script leaves
 * short vowels unwritten, so espeak-ng guesses them, and h because Urdu writes a final vowel with the letter he.
 * What is left tells words apart (मार्च mrc, योजना jzn, साल sl) but not vowel length or aspiration.
 */
export async function hindiSounds(text: string): Promise<string[]> {
  const voice = /\p{Script=Arabic}/u.test(text) ? 'ur' : 'hi';
  const run = await runTool('espeak-ng', ['-q', '--ipa', '-v', voice, text]);
  if (run.code !== 0) throw new Error(`espeak-ng ${voice}: ${run.stderr}`);
  return run.stdout
    .toString()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .split(/\s+/)
    .map((word) => {
      let sounds = word.replace(/[ˈˌːˑʰʲ.'‿-]/gu, '').replace(/\([a-z]+\)/gu, '').replace(IPA_VOWELS, '');
      for (const [sound, as] of SAME_SOUND) sounds = sounds.replace(sound, as);
      return sounds.replace(/(.)\1+/gu, '$1');
    })
    .filter(Boolean);
}

/**
 * Written words not heard, by their sounds and whatever the word boundaries: Urdu's spelling joins and splits words
 * where Hindi's does not (साल तक: سالتک, चलेगा: چلے گا). The sounds of all heard words, run together, are aligned with
 * those of the written words; a written word counts as heard when each of its sounds is aligned with the same sound
 * and nothing heard is inserted inside it or right after it; the error rate is the share of written words not heard.
 */
export function soundsErrorRate(written: readonly string[], heard: readonly string[]): number {
  const owner = written.flatMap((word, index) => [...word].map(() => index));
  const reference = written.flatMap((word) => [...word]);
  const sounds = heard.flatMap((word) => [...word]);
  const missed = new Set<number>();
  let last = 0;
  for (const [i, j] of align(reference, sounds)) {
    if (i === null) missed.add(last);
    else {
      last = owner[i]!;
      if (j === null || reference[i] !== sounds[j]) missed.add(last);
    }
  }
  return missed.size / written.length;
}

export interface Heard {
  /** Word error rate, or character error rate for Japanese and Chinese. */
  rate: number;
  measure: 'word' | 'character';
  /** The two sides as compared. */
  reference: string[];
  heard: string[];
}

/** How much of the written text the heard text carries, in the language's measure. */
export async function heardInLanguage(written: string, heard: string, language: string): Promise<Heard> {
  const code = whisperLanguage(language);
  if (BY_CHARACTER.has(code)) {
    const [reference, recognized] = [written, heard].map((text) => [...comparedText(text, code).replace(/ /g, '')]);
    return { rate: errorRate(reference!, recognized!), measure: 'character', reference: reference!, heard: recognized! };
  }
  if (code === 'hi') {
    const [reference, recognized] = await Promise.all([hindiSounds(written), hindiSounds(heard)]);
    return { rate: soundsErrorRate(reference, recognized), measure: 'word', reference, heard: recognized };
  }
  const [reference, recognized] = [comparedText(written, code).split(' '), comparedText(heard, code).split(' ')];
  return { rate: errorRate(reference, recognized), measure: 'word', reference, heard: recognized };
}
