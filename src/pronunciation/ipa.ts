// IPA transcriptions turned into espeak-ng phoneme mnemonics, the notation espeak-ng's `[[...]]` input takes.
//
// espeak-ng's inline phonemes are not IPA: each voice has a phoneme table with ASCII names (`T` for θ, `@` for ə,
// `eI` for the vowel of "say"). This table follows the English one (espeak-ng's phsource/ph_english), which most
// European voices share for these sounds; a transcription for another language is spoken with the nearest English
// phonemes. Piper takes IPA in `[[...]]` itself and needs none of this.

/** Longest symbols first when converting: a diphthong or a long vowel before its first letter. */
const TABLE = (
  [
    // Diphthongs and r-coloured vowels.
    ['eɪ', 'eI'], ['aɪ', 'aI'], ['ɔɪ', 'OI'], ['aʊ', 'aU'], ['oʊ', 'oU'], ['əʊ', 'oU'],
    ['ɪə', 'i@'], ['eə', 'e@'], ['ɛə', 'e@'], ['ʊə', 'U@'], ['ɑɹ', 'A@'], ['ɔɹ', 'O@'], ['ɛɹ', 'e@'], ['ɪɹ', 'i@'],
    // Long vowels.
    ['iː', 'i:'], ['uː', 'u:'], ['ɑː', 'A:'], ['ɔː', 'O:'], ['ɜː', '3:'],
    // Affricates.
    ['tʃ', 'tS'], ['dʒ', 'dZ'], ['t͡ʃ', 'tS'], ['d͡ʒ', 'dZ'],
    // Short vowels.
    ['i', 'i'], ['ɪ', 'I'], ['e', 'E'], ['ɛ', 'E'], ['æ', 'a'], ['a', 'a'], ['ɐ', 'a#'], ['ɑ', 'A:'], ['ɒ', '0'], ['ɔ', 'O:'],
    ['o', 'oU'], ['ʊ', 'U'], ['u', 'u:'], ['ʌ', 'V'], ['ɜ', '3:'], ['ɝ', '3:'], ['ə', '@'], ['ɚ', '3'], ['ᵻ', 'I2'],
    // Consonants.
    ['p', 'p'], ['b', 'b'], ['t', 't'], ['d', 'd'], ['k', 'k'], ['ɡ', 'g'], ['g', 'g'], ['f', 'f'], ['v', 'v'], ['θ', 'T'], ['ð', 'D'],
    ['s', 's'], ['z', 'z'], ['ʃ', 'S'], ['ʒ', 'Z'], ['h', 'h'], ['x', 'x'], ['m', 'm'], ['n', 'n'], ['ŋ', 'N'], ['l', 'l'], ['ɫ', 'l'],
    ['ɹ', 'r'], ['r', 'r'], ['ɾ', 't'], ['j', 'j'], ['w', 'w'], ['ʔ', '?'],
    // Stress, length and breaks.
    ['ˈ', "'"], ['ˌ', ','], ['ː', ':'], ['.', ''], [' ', ' '],
  ] as [string, string][]
).sort((a, b) => b[0].length - a[0].length);

/** Slashes or brackets around a transcription (`/təˈmɑːtəʊ/`) are dropped. */
const bare = (ipa: string) => ipa.normalize('NFC').trim().replace(/^[/[]+|[/\]]+$/g, '');

/** The characters of a transcription this table cannot say (empty when it can say all of it). */
export function unknownIpaSymbols(ipa: string): string[] {
  const unknown = new Set<string>();
  const text = bare(ipa);
  for (let at = 0; at < text.length; ) {
    const entry = TABLE.find(([symbol]) => text.startsWith(symbol, at));
    if (!entry) unknown.add(text[at]!);
    at += entry ? entry[0].length : 1;
  }
  return [...unknown];
}

/** `təˈmɑːtəʊ` → `t@'mA:toU`; symbols outside the table are left out (rules are checked with unknownIpaSymbols first). */
export function ipaToEspeak(ipa: string): string {
  const text = bare(ipa);
  let out = '';
  for (let at = 0; at < text.length; ) {
    const entry = TABLE.find(([symbol]) => text.startsWith(symbol, at));
    out += entry?.[1] ?? '';
    at += entry ? entry[0].length : 1;
  }
  return out;
}

const VOWEL = /[iyɨʉɯuɪʏʊeøɘɵɤoəɛœɜɞʌɔæɐaɶɑɒɚɝᵻ]/u;

/**
 * The transcription as Piper takes it: IPA without the slashes or brackets around it, each stress mark moved to
 * just before its syllable's vowel. Piper's phonemizer writes stress there ("tˈʌnəl"); given the dictionaries' way,
 * before the syllable's first consonant ("ˈtʌnəl"), the voice says an extra vowel (heard as "it's an all").
 */
export function ipaForPiper(ipa: string): string {
  let out = '';
  let stress = '';
  for (const char of bare(ipa)) {
    if (char === 'ˈ' || char === 'ˌ') stress += char;
    else {
      if (stress && (VOWEL.test(char) || char === ' ')) {
        out += stress;
        stress = '';
      }
      out += char;
    }
  }
  return out;
}
