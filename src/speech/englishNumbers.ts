// How English reads numerals aloud: cardinals, decimals, ordinals, years, amounts of money and clock times.
import { toCardinal, toOrdinal } from 'n2words/en-US';

const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** A numeral as written in English text: optional sign, digits with optional thousands commas, optional decimals. */
export const NUMERAL = String.raw`[-−+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?`;
const WHOLE_NUMERAL = new RegExp(`^${NUMERAL}$`);

export const isNumeral = (text: string) => /\d/.test(text) && WHOLE_NUMERAL.test(text);

export const digitByDigit = (run: string) => [...run].map((digit) => DIGITS[Number(digit)]).join(' ');

/**
 * "-1,250,000.75" → "minus one million two hundred fifty thousand point seven five": the digits after the
 * point are read one by one, as are whole numbers written with a leading zero ("007").
 */
export function cardinal(numeral: string): string {
  const sign = /^[-−]/.test(numeral) ? 'minus ' : numeral.startsWith('+') ? 'plus ' : '';
  const [whole = '', fraction] = numeral.replace(/^[-−+]/, '').replaceAll(',', '').split('.');
  const integer = whole === '' ? '' : /^0\d/.test(whole) ? digitByDigit(whole) : toCardinal(whole);
  const decimals = fraction ? `point ${digitByDigit(fraction)}` : '';
  return sign + [integer, decimals].filter(Boolean).join(' ');
}

/** "21" → "twenty-first" (thousands commas allowed). */
export const ordinal = (numeral: string) => toOrdinal(numeral.replaceAll(',', ''));

/** 1996 → "nineteen ninety-six", 1900 → "nineteen hundred", 2005 → "two thousand five", 1905 → "nineteen oh five". */
export function year(numeral: string): string {
  const value = Number(numeral);
  const [century, rest] = [Math.floor(value / 100), value % 100];
  if (century % 10 === 0 && rest < 10) return toCardinal(value);
  if (rest === 0) return `${toCardinal(century)} hundred`;
  return `${toCardinal(century)} ${rest < 10 ? `oh ${toCardinal(rest)}` : toCardinal(rest)}`;
}

/** The plural of a number's last word: "nineteen ninety" → "nineteen nineties", "two thousand" → "two thousands". */
export const pluralNumber = (words: string) => words.replace(/y$/, 'ie') + 's';

export interface Currency {
  major: [one: string, many: string];
  minor: [one: string, many: string] | null;
}

export const CURRENCIES: Record<string, Currency> = {
  $: { major: ['dollar', 'dollars'], minor: ['cent', 'cents'] },
  '€': { major: ['euro', 'euros'], minor: ['cent', 'cents'] },
  '£': { major: ['pound', 'pounds'], minor: ['penny', 'pence'] },
  '¥': { major: ['yen', 'yen'], minor: null },
};

const counted = (numeral: string, [one, many]: [string, string]) => `${cardinal(numeral)} ${/^[-−+]?1$/.test(numeral) ? one : many}`;

/** "1.50" in pounds → "one pound and fifty pence"; "0.99" in dollars → "ninety-nine cents"; "5.255" → "five point two five five dollars". */
export function money(numeral: string, currency: Currency): string {
  const [whole = '', fraction] = numeral.replace(/^[-−+]/, '').split('.');
  const sign = numeral.length > 0 && /^[-−]/.test(numeral) ? 'minus ' : '';
  if (fraction === undefined || fraction.length !== 2 || !currency.minor) return counted(numeral, currency.major);
  const major = whole !== '' && Number(whole.replaceAll(',', '')) > 0 ? counted(whole, currency.major) : '';
  const minor = Number(fraction) > 0 ? counted(String(Number(fraction)), currency.minor) : '';
  return sign + ([major, minor].filter(Boolean).join(' and ') || counted('0', currency.major));
}

/** 10:05 → "ten oh five"; 10:00 → "ten o'clock", or "ten" before a.m./p.m.; 14:00 → "fourteen hundred". */
export function clock(hours: number, minutes: number, withMeridiem: boolean): string {
  const hour = toCardinal(hours);
  if (minutes === 0) return withMeridiem ? hour : hours >= 1 && hours <= 12 ? `${hour} o'clock` : `${hour} hundred`;
  return `${hour} ${minutes < 10 ? `oh ${toCardinal(minutes)}` : toCardinal(minutes)}`;
}
