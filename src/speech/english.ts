// The English rules of text normalization: how written numerals, symbols, abbreviations and addresses are said.
// docs/text-normalization.md lists them with examples; each rule reads one or more written tokens at a time.
import { cardinal, clock, CURRENCIES, digitByDigit, isNumeral, money, NUMERAL, ordinal, pluralNumber, year } from './englishNumbers.ts';

/** A written whitespace token: the punctuation before and after it, and what is between. */
export interface Token {
  lead: string;
  core: string;
  trail: string;
}

/** One phrase for each written token read, starting at `at`; null when the rule does not apply there. */
type Rule = (tokens: readonly Token[], at: number, dayFirst: boolean) => string[] | null;

// Abbreviations whose dots belong to the word; a dot after any other word is punctuation.
const ABBREVIATIONS: Record<string, string> = {
  'Dr.': 'Doctor',
  'Mr.': 'Mister',
  'Mrs.': 'Missus',
  'Ms.': 'Miz',
  'Prof.': 'Professor',
  'Mt.': 'Mount',
  'Jr.': 'Junior',
  'Sr.': 'Senior',
  'Ave.': 'Avenue',
  'e.g.': 'for example',
  'i.e.': 'that is',
  'etc.': 'et cetera',
  'vs.': 'versus',
  vs: 'versus',
  'approx.': 'approximately',
  '&': 'and',
};
// Words that may end a sentence, whose dot then also ends it ("… and so on, etc. The next").
const MAY_END_SENTENCE = new Set(['etc.', 'St.']);
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTH_ABBREVIATIONS = ['Jan.', 'Feb.', 'Mar.', 'Apr.', 'Jun.', 'Jul.', 'Aug.', 'Sep.', 'Sept.', 'Oct.', 'Nov.', 'Dec.'];
const DOTTED = new Set([...Object.keys(ABBREVIATIONS), 'St.', 'No.', 'a.m.', 'p.m.', 'A.M.', 'P.M.', ...MONTH_ABBREVIATIONS]);

const LEAD = /^[("'“‘[{«¿¡]+/u;
const TRAIL = /[.,;:!?)"'”’\]}»…]+$/u;

export function splitToken(written: string): Token {
  const lead = LEAD.exec(written)?.[0] ?? '';
  const rest = written.slice(lead.length);
  let trail = TRAIL.exec(rest)?.[0] ?? '';
  let core = rest.slice(0, rest.length - trail.length);
  if (trail.startsWith('.') && DOTTED.has(`${core}.`)) [core, trail] = [`${core}.`, trail.slice(1)];
  if (core === '' && lead === '') [core, trail] = [trail, ''];
  return { lead, core, trail };
}

const MONTH_NUMBERS = new Map([
  ...MONTHS.map((month, index) => [month, index + 1] as const),
  ...MONTH_ABBREVIATIONS.map((short) => [short, MONTHS.findIndex((month) => month.startsWith(short.slice(0, -1))) + 1] as const),
]);
/** "Sept." or "September" → 9; null for anything else. */
const monthOf = (word: string | undefined) => (word === undefined ? null : (MONTH_NUMBERS.get(word) ?? null));

// Unit symbols after a number (case matters: "m" is metres, "M" is not a unit here).
const UNITS: Record<string, [one: string, many: string]> = {
  '%': ['percent', 'percent'],
  '°': ['degree', 'degrees'],
  '°C': ['degree Celsius', 'degrees Celsius'],
  '°F': ['degree Fahrenheit', 'degrees Fahrenheit'],
  km: ['kilometer', 'kilometers'],
  m: ['meter', 'meters'],
  cm: ['centimeter', 'centimeters'],
  mm: ['millimeter', 'millimeters'],
  mi: ['mile', 'miles'],
  ft: ['foot', 'feet'],
  kg: ['kilogram', 'kilograms'],
  g: ['gram', 'grams'],
  mg: ['milligram', 'milligrams'],
  lb: ['pound', 'pounds'],
  lbs: ['pound', 'pounds'],
  oz: ['ounce', 'ounces'],
  l: ['liter', 'liters'],
  L: ['liter', 'liters'],
  ml: ['milliliter', 'milliliters'],
  mph: ['mile per hour', 'miles per hour'],
  'km/h': ['kilometer per hour', 'kilometers per hour'],
  kph: ['kilometer per hour', 'kilometers per hour'],
  ms: ['millisecond', 'milliseconds'],
  KB: ['kilobyte', 'kilobytes'],
  kB: ['kilobyte', 'kilobytes'],
  MB: ['megabyte', 'megabytes'],
  GB: ['gigabyte', 'gigabytes'],
  TB: ['terabyte', 'terabytes'],
  Hz: ['hertz', 'hertz'],
  kHz: ['kilohertz', 'kilohertz'],
  MHz: ['megahertz', 'megahertz'],
  GHz: ['gigahertz', 'gigahertz'],
  W: ['watt', 'watts'],
  kW: ['kilowatt', 'kilowatts'],
  MW: ['megawatt', 'megawatts'],
  kWh: ['kilowatt hour', 'kilowatt hours'],
};
const unitWord = (numeral: string, [one, many]: [string, string]) => (/^[-−+]?1$/.test(numeral) ? one : many);

const SCALES: Record<string, string> = { thousand: 'thousand', million: 'million', billion: 'billion', trillion: 'trillion' };
const SCALE_SUFFIXES: Record<string, string> = { k: 'thousand', K: 'thousand', m: 'million', M: 'million', bn: 'billion', b: 'billion', B: 'billion', tn: 'trillion' };

const MERIDIEM: Record<string, string> = { am: 'a.m.', pm: 'p.m.', 'a.m.': 'a.m.', 'p.m.': 'p.m.' };
const meridiemOf = (word: string | undefined) => (word === undefined ? undefined : MERIDIEM[word.toLowerCase()]);

const TLDS = 'com|org|net|edu|gov|io|co|uk|us|eu|de|fr|info|news|app|dev|ai|ca|au|ie|nz|tv';
const WEB_ADDRESS = new RegExp(String.raw`^(?:https?://\S+|www\.\S+|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:${TLDS})(?:/\S*)?)$`, 'i');
const EMAIL = /^[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i;
const SAID: Record<string, string> = { '.': 'dot', '/': 'slash', '-': 'dash', _: 'underscore', '+': 'plus', '~': 'tilde', ':': 'colon', '@': 'at' };

/** "example.com/a-b" → "example dot com slash a dash b". */
const spell = (address: string) =>
  address
    .split(/([./\-_+~:@])/)
    .filter(Boolean)
    .map((part) => SAID[part] ?? part)
    .join(' ');

// Edited English writes counts of a thousand and more with a separator ("1,996"): four bare digits are a year.
const isYear = (digits: string) => /^(1\d{3}|20\d\d)$/.test(digits);
const startsUpper = (token: Token | undefined) => token !== undefined && /^\p{Lu}/u.test(token.core);
const endsSentence = (token: Token | undefined) => token === undefined || /[.!?]/.test(token.trail);

const webAddress: Rule = (tokens, at) => {
  const { core } = tokens[at]!;
  if (EMAIL.test(core)) return [spell(core)];
  if (!WEB_ADDRESS.test(core) || !/[a-z]/i.test(core)) return null;
  // A listener needs the host and the path; the scheme, "www." and query strings are left unsaid.
  const address = core.replace(/^https?:\/\//i, '').replace(/^www\./i, '').split(/[?#]/)[0]!.replace(/\/+$/, '');
  return address === '' ? null : [spell(address)];
};

const AMOUNT = new RegExp(`^([-−]?)(?:([$€£¥])(${NUMERAL})|(${NUMERAL})([$€£¥]))([kKmMbB]|bn|tn)?$`);
const currency: Rule = (tokens, at) => {
  const token = tokens[at]!;
  const match = AMOUNT.exec(token.core);
  if (!match || !/\d/.test(token.core)) return null;
  const [, sign = '', before, beforeAmount, afterAmount, after, suffix] = match;
  const unit = CURRENCIES[before ?? after ?? '']!;
  const amount = sign + (beforeAmount ?? afterAmount ?? '');
  if (suffix) return [`${cardinal(amount)} ${SCALE_SUFFIXES[suffix]} ${unit.major[1]}`];
  const scale = SCALES[tokens[at + 1]?.core ?? ''];
  if (scale && token.trail === '') return [cardinal(amount), `${scale} ${unit.major[1]}`];
  return [money(amount, unit)];
};

const clockTime: Rule = (tokens, at) => {
  const match = /^(\d{1,2})(?::(\d{2}))?(am|pm|a\.m\.|p\.m\.)?$/i.exec(tokens[at]!.core);
  if (!match) return null;
  const [, hours = '', minutes, attached] = match;
  const following = tokens[at]!.trail === '' && tokens[at + 1]?.lead === '' ? meridiemOf(tokens[at + 1]!.core) : undefined;
  const meridiem = attached ? meridiemOf(attached) : following;
  if (minutes === undefined && !meridiem) return null;
  if (Number(hours) > (meridiem ? 12 : 23) || Number(minutes ?? 0) > 59 || (meridiem && Number(hours) === 0)) return null;
  const time = clock(Number(hours), Number(minutes ?? 0), meridiem !== undefined);
  if (attached) return [`${time} ${meridiem}`];
  return following ? [time, meridiem!] : [time];
};

/** "March 3, 2024", "3 March 2024", "Sept. 21st": the day as an ordinal, the year as a year. */
const writtenDate: Rule = (tokens, at) => {
  const dayOf = (token: Token | undefined) => {
    const match = token && /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(token.core);
    return match && Number(match[1]) >= 1 && Number(match[1]) <= 31 ? match[1]! : null;
  };
  const yearAfter = (index: number) => (/^\d{4}$/.test(tokens[index]?.core ?? '') && !/[.!?]/.test(tokens[index - 1]!.trail) ? [year(tokens[index]!.core)] : []);
  const first = tokens[at]!;
  const month = monthOf(first.core);
  if (month !== null) {
    const day = first.trail === '' ? dayOf(tokens[at + 1]) : null;
    if (day === null) return null;
    return [MONTHS[month - 1]!, ordinal(day), ...yearAfter(at + 2)];
  }
  const day = dayOf(first);
  const following = tokens[at + 1];
  if (day === null || first.trail !== '' || following?.lead !== '' || monthOf(following.core) === null) return null;
  return [`the ${ordinal(day)} of`, MONTHS[monthOf(following.core)! - 1]!, ...yearAfter(at + 2)];
};

/** "3/14/2024" (month first in American English, day first elsewhere) and "2024-03-14". */
const numericDate: Rule = (tokens, at, dayFirst) => {
  const { core } = tokens[at]!;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(core);
  const slashed = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(core);
  if (!iso && !slashed) return null;
  const [y, m, d] = iso ? [iso[1]!, Number(iso[2]), Number(iso[3])] : dayFirst ? [slashed![3]!, Number(slashed![2]), Number(slashed![1])] : [slashed![3]!, Number(slashed![1]), Number(slashed![2])];
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const month = MONTHS[m - 1]!;
  return [dayFirst ? `the ${ordinal(String(d))} of ${month} ${year(y)}` : `${month} ${ordinal(String(d))}, ${year(y)}`];
};

const abbreviation: Rule = (tokens, at) => {
  const { core } = tokens[at]!;
  const next = tokens[at + 1];
  if (core === 'No.') return next && tokens[at]!.trail === '' && isNumeral(next.core) ? ['number'] : null;
  if (/^#\d+$/.test(core)) return [`number ${cardinal(core.slice(1))}`];
  const saint = core === 'St.' && startsUpper(next) && !(startsUpper(tokens[at - 1]) && !endsSentence(tokens[at - 2]));
  const said = core === 'St.' ? (saint ? 'Saint' : 'Street') : ABBREVIATIONS[core];
  if (said === undefined) return null;
  // Its dot was taken as part of the word; said again where the word ends the sentence too.
  const ends = MAY_END_SENTENCE.has(core) && !saint && (next === undefined || startsUpper(next));
  return [ends ? `${said}.` : said];
};

const range: Rule = (tokens, at) => {
  const match = /^(\d+)(?:–|-)(\d+)$/.exec(tokens[at]!.core);
  if (!match) return null;
  const [, from = '', to = ''] = match;
  // With a hyphen only years ("1990-1995"): "555-1234" is a telephone number, not a range.
  if (!tokens[at]!.core.includes('–') && !(isYear(from) && isYear(to) && Number(to) > Number(from))) return null;
  const read = (digits: string) => (isYear(digits) ? year(digits) : cardinal(digits));
  return [`${read(from)} to ${read(to)}`];
};

const MEASURE = new RegExp(`^(${NUMERAL})(\\D.*)$`);
const numberWithUnit: Rule = (tokens, at) => {
  const token = tokens[at]!;
  const attached = MEASURE.exec(token.core);
  const unitAttached = attached && /\d/.test(attached[1]!) ? UNITS[attached[2]!] : undefined;
  if (unitAttached) return [`${cardinal(attached![1]!)} ${unitWord(attached![1]!, unitAttached)}`];
  const unit = UNITS[tokens[at + 1]?.core ?? ''];
  if (!unit || !isNumeral(token.core) || token.trail !== '' || tokens[at + 1]!.lead !== '') return null;
  return [cardinal(token.core), unitWord(token.core, unit)];
};

const numeral: Rule = (tokens, at) => {
  const { core } = tokens[at]!;
  const ordinalMatch = /^(\d{1,3}(?:,\d{3})+|\d+)(st|nd|rd|th)$/i.exec(core);
  if (ordinalMatch) return Number(ordinalMatch[1]!.replaceAll(',', '')) > 0 ? [ordinal(ordinalMatch[1]!)] : null;
  if (/^(?:1\d|20)\d0s$/.test(core)) return [pluralNumber(year(core.slice(0, 4)))];
  if (isYear(core)) return [year(core)];
  if (/^0\d+$/.test(core)) return [digitByDigit(core)];
  return isNumeral(core) ? [cardinal(core)] : null;
};

// In order: the first rule that applies at a token reads it (and maybe the tokens after it).
export const ENGLISH_RULES: readonly Rule[] = [webAddress, currency, numericDate, writtenDate, clockTime, abbreviation, range, numberWithUnit, numeral];

/** American English says the month first ("3/14/2024"); every other English says the day first. */
export const readsDayFirst = (languageCode: string) => !['en', 'en_us'].includes(languageCode.toLowerCase().replace('-', '_'));
