// The words a written text and a recognizer's transcript are compared by: both read aloud by the service's own text
// normalization (src/speech/, n2words), then every run of number words written as its value, so that how either
// side writes a number, a time, an amount or a unit does not count: "3:45pm", "3.45 pm" and "three forty-five p.m."
// all become "345 p m"; "$5.2 million", "5.2 million dollars" and "five million two hundred thousand dollars" all
// become "5200000 dollars"; "2027", "twenty twenty-seven" and "two thousand twenty-seven" all become "2027".
import { normalizeForSpeech } from '../../src/speech/normalize.ts';

/** A word as compared: lower case, no punctuation; `owner` is the index of the written (or heard) token it comes from. */
export interface ComparedWord {
  word: string;
  owner: number;
}

const UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const TEENS = ['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
/** Units a transcript may spell the other way, and words it may write apart. */
const SPELLINGS: Record<string, string[]> = {
  kilometres: ['kilometers'],
  kilometre: ['kilometer'],
  metres: ['meters'],
  metre: ['meter'],
  centimetres: ['centimeters'],
  millimetres: ['millimeters'],
  litres: ['liters'],
  litre: ['liter'],
  pm: ['p', 'm'],
  oclock: [],
};

/** The value of one number word below a hundred ("forty"), else undefined. */
function smallValue(word: string): number | undefined {
  const unit = UNITS.indexOf(word);
  if (unit >= 0) return unit;
  const teen = TEENS.indexOf(word);
  if (teen >= 0) return 10 + teen;
  const tens = TENS.indexOf(word);
  return tens >= 0 ? 20 + 10 * tens : undefined;
}

/** A digit after "point", said as a word ("oh" too). */
const digitOf = (word: string) => (word === 'oh' ? '0' : UNITS.includes(word) ? String(UNITS.indexOf(word)) : undefined);

/** A number read from words, as far as English lets one number go on ("three forty" is two). */
interface NumberRun {
  /** Value of the scales done ("two thousand" of "two thousand five"). */
  total: number;
  /** Value below the next scale ("five"). */
  part: number;
  /** The last scale said (a later one must be smaller: "million ... thousand"). */
  scale: number;
  /** What the last word was, which decides what may follow it. */
  last: 'unit' | 'teen' | 'tens' | 'hundred' | 'scale' | 'decimal' | 'oh';
  /** Digits after "point", read one by one. */
  decimals: string;
  /** Said with a leading "oh" ("oh five" of "nineteen oh five"): two digits, a time's minutes or a year's end. */
  padded: boolean;
  /** "nineties": the plural of the number's last word. */
  plural: boolean;
  owner: number;
}

const lastOf = (value: number): NumberRun['last'] => (value < 10 ? 'unit' : value < 20 ? 'teen' : 'tens');
const newRun = (value: number, owner: number, padded = false): NumberRun => ({
  total: 0,
  part: value,
  scale: Infinity,
  last: padded ? 'oh' : lastOf(value),
  decimals: '',
  padded,
  plural: false,
  owner,
});
const render = (run: NumberRun) => {
  const whole = String(run.total + run.part);
  return `${run.padded ? whole.padStart(2, '0') : whole}${run.decimals ? `.${run.decimals}` : ''}${run.plural ? 's' : ''}`;
};

/** Whether `word` (of `value` when below a hundred) goes on with the number rather than starting one of its own. */
function continues(run: NumberRun, word: string, value: number | undefined): boolean {
  if (run.plural) return false;
  if (word === 'hundred') return run.part > 0 && run.part < 100 && ['unit', 'teen', 'tens'].includes(run.last);
  if (word in SCALES) return run.part > 0 && SCALES[word]! < run.scale && run.last !== 'oh';
  if (value === undefined) return false;
  if (value < 10) return value > 0 && ['tens', 'hundred', 'scale'].includes(run.last);
  return ['hundred', 'scale'].includes(run.last);
}

/** Applies a word `continues` accepted. */
function extend(run: NumberRun, word: string, value: number | undefined): void {
  if (word === 'hundred') {
    run.part *= 100;
    run.last = 'hundred';
  } else if (word in SCALES) {
    // "3.5 million": the decimals are part of the amount.
    run.total += Number(((run.part + (run.decimals ? Number(`0.${run.decimals}`) : 0)) * SCALES[word]!).toPrecision(12));
    run.part = 0;
    run.decimals = '';
    run.scale = SCALES[word]!;
    run.last = 'scale';
  } else {
    run.part += value!;
    run.last = lastOf(value!);
  }
}

/** "nineties" → "ninety"; undefined when the word is no plural of a number word. */
function singularNumber(word: string): string | undefined {
  const singular = word.replace(/ies$/, 'y').replace(/s$/, '');
  return singular !== word && smallValue(singular) !== undefined ? singular : undefined;
}

/**
 * Runs of number words as their values: within a run as English reads one number ("one hundred and five" 105, "a
 * thousand" 1000, "twelve hundred" 1200, "three point four" 3.4, "five point two million" 5200000), then two numbers
 * read as a pair made one ("twenty twenty seven" 2027, "three forty five" 345, "nineteen oh five" 1905), the way
 * years and clock times are said.
 */
function numbersAsValues(words: readonly ComparedWord[]): ComparedWord[] {
  const out: Array<ComparedWord | NumberRun> = [];
  let run: NumberRun | null = null;
  for (let at = 0; at < words.length; at += 1) {
    const { word, owner } = words[at]!;
    const next = words[at + 1]?.word ?? '';
    const singular = singularNumber(word);
    const said = singular ?? word;
    const value = smallValue(said);
    if (run && !run.plural) {
      if (said === 'and' && ['hundred', 'scale'].includes(run.last) && smallValue(next) !== undefined) continue;
      if (said === 'point' && digitOf(next) !== undefined && !run.decimals && ['unit', 'teen', 'tens'].includes(run.last)) {
        run.last = 'decimal';
        for (; digitOf(words[at + 1]?.word ?? '') !== undefined; at += 1) run.decimals += digitOf(words[at + 1]!.word);
        continue;
      }
      if ((said === 'oh' || said === 'zero') && (smallValue(next) ?? 10) < 10 && run.last !== 'decimal') {
        out.push((run = newRun(smallValue(next)!, owner, true)));
        at += 1;
        continue;
      }
    }
    if (run && continues(run, said, value)) extend(run, said, value);
    else if (said === 'a' && (next === 'hundred' || next in SCALES)) {
      out.push((run = newRun(1, owner)));
      continue;
    } else if (value !== undefined) out.push((run = newRun(value, owner)));
    else {
      out.push({ word, owner });
      run = null;
      continue;
    }
    if (singular !== undefined) run.plural = true;
  }
  return pairsJoined(out).map((entry) => ('word' in entry ? entry : { word: render(entry), owner: entry.owner }));
}

/** Two numbers read as a pair, a whole one below a hundred then one of two digits, made one ("nineteen ninety"). */
function pairsJoined(entries: Array<ComparedWord | NumberRun>): Array<ComparedWord | NumberRun> {
  const out: Array<ComparedWord | NumberRun> = [];
  for (const entry of entries) {
    const before = out.at(-1);
    const pairs = before && !('word' in before) && !('word' in entry) && before.total === 0 && before.part > 0 && before.part < 100 && !before.decimals && !before.plural && !before.padded;
    if (pairs && entry.total === 0 && !entry.decimals && (entry.padded || (entry.part >= 10 && entry.part < 100))) {
      before.part = before.part * 100 + entry.part;
      before.plural = entry.plural;
      before.last = entry.last;
      continue;
    }
    out.push(entry);
  }
  return out;
}

/**
 * What a recognizer writes its own way, made what the normalization reads: a time with a dot ("3.45 pm", "3.45pm")
 * as a time with a colon. Token for token, so each keeps its index.
 */
function recognizerSpellings(tokens: readonly string[]): string[] {
  return tokens.map((token, at) => {
    const meridiem = /^(\d{1,2})\.(\d{2})([ap]\.?m\b\.?.*)?$/i.exec(token);
    if (!meridiem) return token;
    const followed = meridiem[3] !== undefined || /^[ap]\.?m\b\.?/i.test(tokens[at + 1] ?? '');
    return followed ? `${meridiem[1]}:${meridiem[2]}${meridiem[3] ?? ''}` : token;
  });
}

/**
 * The words a text is compared by: read the way the service reads it (its own text normalization, so "$5.2 million"
 * and "5.2 million dollars" compare equal), lower case, without punctuation, hyphenated words split
 * ("twenty-seven"), units in one spelling, and every number as its value (`numbersAsValues`). Each keeps the index
 * of the whitespace token of `tokens` it came from.
 */
export function comparedWords(tokens: readonly string[]): ComparedWord[] {
  const spoken = normalizeForSpeech(recognizerSpellings(tokens).join(' '), 'en').tokens;
  const words = spoken.flatMap(({ text, written }) =>
    text
      .toLowerCase()
      .replace(/['’]/gu, '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .map((word) => ({ word, owner: written })),
  );
  const spelled = words.flatMap((entry, at) => {
    if (entry.word === 'per' && words[at + 1]?.word === 'cent') return [{ word: 'percent', owner: entry.owner }];
    if (entry.word === 'cent' && words[at - 1]?.word === 'per') return [];
    // "am" is a word of its own unless a number comes before it.
    if (entry.word === 'am' && at > 0 && (smallValue(words[at - 1]!.word) !== undefined || words[at - 1]!.word === 'oclock')) return ['a', 'm'].map((word) => ({ word, owner: entry.owner }));
    return (SPELLINGS[entry.word] ?? [entry.word]).map((word) => ({ word, owner: entry.owner }));
  });
  return numbersAsValues(spelled);
}

/** The compared words of a text alone. */
export const spokenWords = (text: string) => comparedWords(text.split(/\s+/u).filter(Boolean)).map((word) => word.word);
