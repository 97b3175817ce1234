import { describe, expect, it } from 'vitest';
import { align, timePiperWords, type TimedPhoneme } from '../../src/media/engines/piperTimings.ts';

// Phonemes as Piper reports them, one code point each, every one lasting 10 samples; at 1,000 samples a
// second, the phoneme at index i of the string starts at 10·i ms.
const RATE = 1000;
const spokenOf = (phonemes: string): TimedPhoneme[] => [...phonemes].map((phoneme) => [phoneme, 10]);
const at = (phonemes: string, from: string) => 10 * [...phonemes.slice(0, phonemes.indexOf(from))].length;

describe('Piper word timings', () => {
  it('start each word at its first phoneme, or at the stress mark before it, and run to the next word', () => {
    const spoken = '^ðə kwˈɪk fˈɑːks.$';
    const words = timePiperWords('The quick fox.', ['ðə', 'kwˈɪk', 'fˈɑːks.'], spokenOf(spoken), RATE, 170);
    expect(words).toEqual([
      { text: 'The', start_time: 10, duration: at(spoken, 'k') - 10 },
      { text: 'quick', start_time: at(spoken, 'k'), duration: at(spoken, 'fˈ') - at(spoken, 'k') },
      { text: 'fox', start_time: at(spoken, 'fˈ'), duration: 170 - at(spoken, 'fˈ') },
    ]);
  });

  it('time a number the phonemizer says as several words as one written word', () => {
    const spoken = '^ˈɪn nˈaɪntiːnhˈʌndɹɪd nˈaɪnti sˈɪks, hiː lˈɛft.$';
    const words = timePiperWords('In 1996, he left.', ['ˈɪn', 'nˈaɪntiːnhˈʌndɹɪd nˈaɪnti sˈɪks, ', 'hiː', 'lˈɛft.'], spokenOf(spoken), RATE, 480);
    expect(words.map((word) => [word.text, word.start_time])).toEqual([
      ['In', at(spoken, 'ˈɪn')],
      ['1996', at(spoken, 'nˈaɪntiːn')],
      ['he', at(spoken, 'hiː')],
      ['left', at(spoken, 'lˈɛft')],
    ]);
  });

  it('find words the phonemizer joined or said differently in context', () => {
    // "of the" spoken as one word, "the" before a vowel said "ðɪ" rather than "ðə" on its own.
    const spoken = '^ʌvðɪ ˈæpəl.$';
    const words = timePiperWords('of the apple.', ['ʌv', 'ðə', 'ˈæpəl.'], spokenOf(spoken), RATE, 130);
    expect(words.map((word) => [word.text, word.start_time])).toEqual([
      ['of', at(spoken, 'ʌ')],
      ['the', at(spoken, 'ð')],
      ['apple', at(spoken, 'ˈæ')],
    ]);
  });

  it('leave tokens that are not spoken out, also at the start', () => {
    const spoken = '^jˈɛs nˈoʊ.$';
    const words = timePiperWords('— Yes — no.', ['', 'jˈɛs', '', 'nˈoʊ.'], spokenOf(spoken), RATE, 100);
    expect(words.map((word) => word.text)).toEqual(['Yes', 'no']);
  });

  it('give a word that matches nothing spoken a share of the word before it', () => {
    const spoken = '^wˈʌn tˈuː.$';
    const words = timePiperWords('one xyzzy two.', ['wˈʌn', 'ɛksˈɪzi', 'tˈuː.'], spokenOf(spoken), RATE, 110);
    expect(words.map((word) => word.text)).toEqual(['one', 'xyzzy', 'two']);
    expect(words[1]!.start_time).toBe(words[0]!.start_time + words[0]!.duration);
  });
});

describe('the alignment', () => {
  it('pairs equal and substituted sounds in order, skipping inserted and deleted ones', () => {
    expect(align([...'kat'], [...'kaat'])).toEqual([
      [0, 0],
      [1, 1],
      [2, 3],
    ]);
    expect(align([...'abc'], [])).toEqual([]);
  });

  it('stays linear on long strings and finds the identity', () => {
    const long = [...'ðəkwɪkbɹaʊnfɑːks'.repeat(400)];
    const pairs = align(long, long);
    expect(pairs).toHaveLength(long.length);
    expect(pairs.every(([i, j]) => i === j)).toBe(true);
  });
});
