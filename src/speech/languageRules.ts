// Text normalization beyond English: amounts of money, numeric dates and ordinals in Spanish, French, Italian,
// Portuguese and Hindi, whose numerals espeak-ng reads itself (with Kokoro's voices too, which it phonemizes), and
// currency signs and numeric dates inside Japanese and Chinese words, whose numerals their G2P reads (OpenJTalk;
// misaki's cn2an). docs/voices.md says what each language has and lacks.
import { toOrdinal as frenchOrdinal } from 'n2words/fr-FR';
import { toOrdinal as italianOrdinal } from 'n2words/it-IT';
import { toOrdinal as portugueseOrdinal } from 'n2words/pt-PT';
import { toOrdinal as spanishOrdinal } from 'n2words/es-ES';
import type { Token } from './english.ts';

/** One phrase for each written token read, starting at `at`; null when the rule does not apply there. */
export type LanguageRule = (tokens: readonly Token[], at: number) => string[] | null;

type Words = [one: string, many: string];
interface Currency {
  major: Words;
  minor: Words | null;
}

interface Language {
  /** `,` where the decimals follow a comma (5,2) and thousands are grouped by dots or spaces; `.` as in English. */
  decimal: ',' | '.';
  currencies: Record<string, Currency>;
  /** Said for an amount of exactly one, before the currency ("un euro", not "uno euro"). */
  one: string;
  /** Between the units and the cents ("doce euros con cincuenta céntimos"). */
  and: string;
  /** Words of scale after an amount, each with the word that joins it to the currency ("millones de euros", "mil euros"). */
  scales: Record<string, string>;
  /** `de` before a vowel is `d'` ("millions d'euros"). */
  elides?: boolean;
  months: readonly string[];
  date(day: number, month: string, year: string): string;
  /** "1.º", "2ª", "3e" → the ordinal in words; null when the token is none. */
  ordinal(core: string): string | null;
}

const feminine = (words: string) => words.replace(/o\b/gu, 'a');

/** Ordinals written with º or ª (masculine, feminine), after an optional dot: Spanish, Italian and Portuguese. */
const indicatorOrdinal = (toOrdinal: (value: number) => string, apocope: Record<string, string> = {}) => (core: string) => {
  const match = /^(\d{1,4})\.?(º|ª|er)$/u.exec(core);
  if (!match) return null;
  const words = toOrdinal(Number(match[1]));
  if (match[2] === 'ª') return feminine(words);
  if (match[2] === 'er') return apocope[words.split(' ').at(-1)!] ? words.replace(/\S+$/u, (last) => apocope[last]!) : null;
  return words;
};

const SPANISH: Language = {
  decimal: ',',
  currencies: {
    '€': { major: ['euro', 'euros'], minor: ['céntimo', 'céntimos'] },
    $: { major: ['dólar', 'dólares'], minor: ['centavo', 'centavos'] },
    US$: { major: ['dólar', 'dólares'], minor: ['centavo', 'centavos'] },
    '£': { major: ['libra', 'libras'], minor: ['penique', 'peniques'] },
    '¥': { major: ['yen', 'yenes'], minor: null },
    R$: { major: ['real', 'reales'], minor: ['centavo', 'centavos'] },
    '₹': { major: ['rupia', 'rupias'], minor: null },
  },
  one: 'un',
  and: 'con',
  scales: { mil: '', millón: 'de', millones: 'de', billón: 'de', billones: 'de' },
  months: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
  date: (day, month, year) => `${day} de ${month} de ${year}`,
  ordinal: indicatorOrdinal(spanishOrdinal, { primero: 'primer', tercero: 'tercer' }),
};

/** In Mexico, Argentina, Colombia and Chile `$` is the peso. */
const SPANISH_PESO: Language = { ...SPANISH, currencies: { ...SPANISH.currencies, $: { major: ['peso', 'pesos'], minor: ['centavo', 'centavos'] } } };

const FRENCH: Language = {
  decimal: ',',
  currencies: {
    '€': { major: ['euro', 'euros'], minor: ['centime', 'centimes'] },
    $: { major: ['dollar', 'dollars'], minor: ['cent', 'cents'] },
    US$: { major: ['dollar', 'dollars'], minor: ['cent', 'cents'] },
    '£': { major: ['livre', 'livres'], minor: ['penny', 'pence'] },
    '¥': { major: ['yen', 'yens'], minor: null },
  },
  one: 'un',
  and: 'et',
  scales: { million: 'de', millions: 'de', milliard: 'de', milliards: 'de' },
  elides: true,
  months: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  date: (day, month, year) => `${day === 1 ? 'premier' : day} ${month} ${year}`,
  ordinal(core) {
    const match = /^(\d{1,4})(er|re|ère|e|ème|è)$/u.exec(core);
    if (!match) return null;
    if (match[1] === '1') return match[2] === 'er' ? 'premier' : match[2] === 're' || match[2] === 'ère' ? 'première' : null;
    return match[2] === 'er' || match[2] === 're' || match[2] === 'ère' ? null : frenchOrdinal(Number(match[1]));
  },
};

const ITALIAN: Language = {
  decimal: ',',
  currencies: {
    '€': { major: ['euro', 'euro'], minor: ['centesimo', 'centesimi'] },
    $: { major: ['dollaro', 'dollari'], minor: ['centesimo', 'centesimi'] },
    US$: { major: ['dollaro', 'dollari'], minor: ['centesimo', 'centesimi'] },
    '£': { major: ['sterlina', 'sterline'], minor: ['penny', 'pence'] },
    '¥': { major: ['yen', 'yen'], minor: null },
  },
  one: 'un',
  and: 'e',
  scales: { mila: '', milione: 'di', milioni: 'di', miliardo: 'di', miliardi: 'di' },
  months: ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'],
  date: (day, month, year) => `${day === 1 ? 'primo' : day} ${month} ${year}`,
  ordinal: indicatorOrdinal(italianOrdinal),
};

const PORTUGUESE: Language = {
  decimal: ',',
  currencies: {
    R$: { major: ['real', 'reais'], minor: ['centavo', 'centavos'] },
    '€': { major: ['euro', 'euros'], minor: ['cêntimo', 'cêntimos'] },
    $: { major: ['dólar', 'dólares'], minor: ['centavo', 'centavos'] },
    US$: { major: ['dólar', 'dólares'], minor: ['centavo', 'centavos'] },
    '£': { major: ['libra', 'libras'], minor: ['centavo', 'centavos'] },
    '¥': { major: ['iene', 'ienes'], minor: null },
  },
  one: 'um',
  and: 'e',
  scales: { mil: '', milhão: 'de', milhões: 'de', bilhão: 'de', bilhões: 'de' },
  months: ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'],
  date: (day, month, year) => `${day === 1 ? 'primeiro' : day} de ${month} de ${year}`,
  ordinal: indicatorOrdinal(portugueseOrdinal),
};

const HINDI: Language = {
  decimal: '.',
  currencies: {
    '₹': { major: ['रुपया', 'रुपये'], minor: ['पैसा', 'पैसे'] },
    $: { major: ['डॉलर', 'डॉलर'], minor: ['सेंट', 'सेंट'] },
    US$: { major: ['डॉलर', 'डॉलर'], minor: ['सेंट', 'सेंट'] },
    '€': { major: ['यूरो', 'यूरो'], minor: null },
    '£': { major: ['पाउंड', 'पाउंड'], minor: null },
  },
  one: 'एक',
  and: '',
  scales: { हज़ार: '', हजार: '', लाख: '', करोड़: '', अरब: '' },
  months: ['जनवरी', 'फ़रवरी', 'मार्च', 'अप्रैल', 'मई', 'जून', 'जुलाई', 'अगस्त', 'सितंबर', 'अक्टूबर', 'नवंबर', 'दिसंबर'],
  date: (day, month, year) => `${day} ${month} ${year}`,
  ordinal: () => null,
};

const SYMBOL = String.raw`(US\$|R\$|[$€£¥₹])`;
const NUMERALS = {
  ',': String.raw`[-−+]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?`,
  '.': String.raw`[-−+]?(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?`,
};

interface Amount {
  numeral: string;
  currency: Currency;
  scale: string | null;
}

/** "12,50" with the euro → "12 euros con 50 céntimos"; "1" → "un euro"; "5,2" → "5,2 euros" (espeak-ng reads the digits). */
function moneyWords({ numeral, currency, scale }: Amount, language: Language): { number: string; rest: string } {
  const [whole = '', fraction] = numeral.split(language.decimal);
  const count = (digits: string, [one, many]: Words) => (/^[-−+]?0*1$/.test(digits) ? { number: language.one, rest: one } : { number: digits, rest: many });
  if (scale !== null) {
    const join = language.scales[scale.toLowerCase()] ?? '';
    const plural = currency.major[1];
    const joined = join === 'de' && language.elides && /^[aeiouéè]/iu.test(plural) ? `d'${plural}` : [join, plural].filter(Boolean).join(' ');
    return { number: numeral, rest: `${scale} ${joined}` };
  }
  if (fraction?.length === 2 && currency.minor && Number(fraction) > 0) {
    const cents = count(String(Number(fraction)), currency.minor);
    if (/^0*$/.test(whole)) return { number: cents.number, rest: cents.rest };
    const units = count(whole, currency.major);
    return { number: units.number, rest: [units.rest, language.and, cents.number, cents.rest].filter(Boolean).join(' ') };
  }
  if (fraction !== undefined && /^0+$/.test(fraction)) return count(whole, currency.major);
  return fraction === undefined ? count(whole, currency.major) : { number: numeral, rest: currency.major[1] };
}

/** The scale word and what joins it to the currency, each the phrase of its own written token ("millones", "de dólares"). */
const splitScale = (rest: string) => {
  const [scaleWord = '', ...joined] = rest.split(' ');
  return [scaleWord, joined.join(' ')];
};

/**
 * Amounts of money: the sign before or after the number, joined to it or apart (`$5,2`, `12,50€`, `12,50 €`, `R$ 12,50`),
 * with a scale word after the number (`$5,2 millones`, `5 mil €`, `R$ 1,5 bilhão`). Each written token gets its part.
 */
function money(language: Language): LanguageRule {
  const numeral = NUMERALS[language.decimal];
  const signFirst = new RegExp(`^${SYMBOL}(${numeral})$`, 'u');
  const signLast = new RegExp(`^(${numeral})${SYMBOL}$`, 'u');
  const bareNumeral = new RegExp(`^(?=.*\\d)${numeral}$`, 'u');
  const currencyOf = (sign: string | undefined) => (sign === undefined ? undefined : language.currencies[sign]);
  return (tokens, at) => {
    const token = tokens[at]!;
    // Tokens read together: nothing but a space between them.
    const joined = (index: number) => tokens[index] !== undefined && tokens[index - 1]!.trail === '' && tokens[index]!.lead === '';
    const scaleAt = (index: number) => (joined(index) && tokens[index]!.core.toLowerCase() in language.scales ? tokens[index]!.core : null);
    const signAt = (index: number) => (joined(index) ? currencyOf(tokens[index]!.core) : undefined);
    const words = (numeralText: string, currency: Currency, scale: string | null) => moneyWords({ numeral: numeralText, currency, scale }, language);

    const first = signFirst.exec(token.core);
    if (first && currencyOf(first[1])) {
      const scale = scaleAt(at + 1);
      const { number, rest } = words(first[2]!, currencyOf(first[1])!, scale);
      return scale ? [number, rest] : [`${number} ${rest}`];
    }
    const last = signLast.exec(token.core);
    if (last && currencyOf(last[2])) {
      const { number, rest } = words(last[1]!, currencyOf(last[2])!, null);
      return [`${number} ${rest}`];
    }
    if (bareNumeral.test(token.core)) {
      const after = signAt(at + 1);
      if (after) {
        const { number, rest } = words(token.core, after, null);
        return [number, rest];
      }
      const scale = scaleAt(at + 1);
      const afterScale = scale ? signAt(at + 2) : undefined;
      if (!scale || !afterScale) return null;
      const { number, rest } = words(token.core, afterScale, scale);
      return [number, ...splitScale(rest)];
    }
    const before = currencyOf(token.core);
    if (before && joined(at + 1) && bareNumeral.test(tokens[at + 1]!.core)) {
      const scale = scaleAt(at + 2);
      const { number, rest } = words(tokens[at + 1]!.core, before, scale);
      return scale ? [number, ...splitScale(rest)] : [number, rest];
    }
    return null;
  };
}

/** Day-first numeric dates (28/11/2026, 28.11.2026, 28-11-2026) and ISO ones (2026-11-28), with the month's name. */
function numericDate(core: string): { day: number; month: number; year: string } | null {
  const dayFirst = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/u.exec(core);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(core);
  const [day, month, year] = dayFirst ? [Number(dayFirst[1]), Number(dayFirst[3]), dayFirst[4]!] : iso ? [Number(iso[3]), Number(iso[2]), iso[1]!] : [0, 0, ''];
  return day >= 1 && day <= 31 && month >= 1 && month <= 12 ? { day, month, year } : null;
}

const date =
  (language: Language): LanguageRule =>
  (tokens, at) => {
    const found = numericDate(tokens[at]!.core);
    return found ? [language.date(found.day, language.months[found.month - 1]!, found.year)] : null;
  };

const ordinal =
  (language: Language): LanguageRule =>
  (tokens, at) => {
    const words = language.ordinal(tokens[at]!.core);
    return words ? [words] : null;
  };

const rulesOf = (language: Language): readonly LanguageRule[] => [money(language), date(language), ordinal(language)];

const PESO_REGIONS = new Set(['MX', 'AR', 'CO', 'CL']);

/** The token rules of a language code (`es_MX`, `fr`), or null for a language without any. */
export function languageRules(code: string): readonly LanguageRule[] | null {
  const [base = '', region = ''] = code.split(/[-_]/u);
  switch (base.toLowerCase()) {
    case 'es':
      return rulesOf(PESO_REGIONS.has(region.toUpperCase()) ? SPANISH_PESO : SPANISH);
    case 'fr':
      return rulesOf(FRENCH);
    case 'it':
      return rulesOf(ITALIAN);
    case 'pt':
      return rulesOf(PORTUGUESE);
    case 'hi':
      return rulesOf(HINDI);
    default:
      return null;
  }
}

const CJK_CURRENCIES: Record<string, Record<string, string>> = {
  ja: { $: 'ドル', US$: 'ドル', '＄': 'ドル', '€': 'ユーロ', '£': 'ポンド', '¥': '円', '￥': '円' },
  zh: { $: '美元', US$: '美元', '＄': '美元', '€': '欧元', '£': '英镑', '¥': '元', '￥': '元' },
};

/**
 * Japanese and Chinese words are not separated by spaces, so each whitespace token is rewritten where it stands: a
 * currency sign before an amount becomes the currency's name after it (`$5.2亿` → `5.2亿美元`: OpenJTalk says the sign
 * as a symbol, cn2an leaves it), a numeric date gets 年, 月 and 日 (`2026/11/28` → `2026年11月28日`: cn2an reads the
 * dashes of `2026-11-28` as minus signs, OpenJTalk the slashes as slashes), and in Chinese thousands commas go
 * (`1,000元` → `1000元`: cn2an reads `1,000` as 一,零; OpenJTalk reads `1,000円` right, so Japanese keeps them). Null
 * for other languages. A token left as it was keeps its words timed one by one (src/speech/writtenTimings.ts).
 */
export function cjkRewrite(code: string): ((token: string) => string) | null {
  const language = code.split(/[-_]/u)[0]!.toLowerCase();
  const names = CJK_CURRENCIES[language];
  if (!names) return null;
  return (token) => {
    const grouped = language === 'zh' ? token.replace(/(\d)[,，](?=\d{3}(?!\d))/gu, '$1') : token;
    return grouped
      .replace(/(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})(?!\d)/gu, (whole, year: string, month: string, day: string) =>
        Number(month) >= 1 && Number(month) <= 12 && Number(day) >= 1 && Number(day) <= 31 ? `${year}年${Number(month)}月${Number(day)}日` : whole,
      )
      .replace(/(US\$|[$＄€£¥￥])\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)([十百千万億亿兆]*)/gu, (_, sign: string, amount: string, scale: string) => `${amount}${scale}${names[sign]}`);
  };
}
