// Word text, the form titles and bodies are searched in: ASCII text takes a pass over its bytes, other text the
// regular expressions over Unicode letters; both must give the same words.
import { describe, expect, it } from 'vitest';
import { searchTextOf, wordText, wordsOf } from '../../src/content/search.ts';

/** Word text by its definition: each word preceded by one space. */
const defined = (text: string) => wordsOf(text).map((word) => ` ${word}`).join('');

describe('wordText', () => {
  it('lowers letters and makes each run of other characters one space before a word', () => {
    expect(wordText('The Council\'s budget: 2024/25 PLAN!')).toBe(' the council s budget 2024 25 plan');
    expect(wordText('  lead and trail  ')).toBe(' lead and trail');
    expect(wordText('tab\tnew\nline')).toBe(' tab new line');
    expect(wordText('')).toBe('');
    expect(wordText(' ...\t ')).toBe('');
    expect(wordText('A1b2--C3')).toBe(' a1b2 c3');
  });

  it('drops diacritics and parts words at any character other than a letter or a digit', () => {
    expect(wordText('Élections — Zürich’s café')).toBe(' elections zurich s cafe');
    expect(wordText('東京 2024')).toBe(' 東京 2024');
  });

  it('gives every ASCII text the words of its definition, one text after another (its buffer is reused)', () => {
    const characters = 'aZ09 \t\n.,;:-_/\\\'"<>&#@!?()[]{}~`^|+=*%$';
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 2_000; n++) {
      const length = Math.floor(random() * (n % 100 === 0 ? 20_000 : 200));
      let text = '';
      for (let i = 0; i < length; i++) text += characters[Math.floor(random() * characters.length)];
      expect(wordText(text), JSON.stringify(text.slice(0, 80))).toBe(defined(text));
    }
  });

  it('makes the search text of a title and an HTML body', () => {
    expect(searchTextOf({ title: 'Budget Vote', body: '<p>Council <b>approves</b> the&nbsp;plan &amp; more</p>' })).toEqual({
      title: ' budget vote',
      body: ' council approves the plan more',
    });
  });
});
