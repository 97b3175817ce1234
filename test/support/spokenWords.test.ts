// The speech-quality tests compare what was written with what the recognizer heard as spoken words: however either
// side writes a number, a time, an amount or a unit, the same speech compares equal, and different speech does not.
import { describe, expect, it } from 'vitest';
import { comparedWords, heardPhrase, spokenWords, wordErrorRate } from './recognizer.ts';

const same: Array<[string, string[]]> = [
  ['a time', ['3:45pm', '3:45 PM', '3.45 pm', '3.45pm', '3.45 p.m.', 'three forty-five p.m.', 'Three forty five PM']],
  ['a time on the hour', ['3:00 pm', '3 p.m.', "three o'clock p.m.", '3pm']],
  ['a time with a leading zero', ['3:05', 'three oh five']],
  ['money with a scale', ['$5.2 million', '5.2 million dollars', '$5,200,000', 'five point two million dollars', 'five million two hundred thousand dollars']],
  ['pounds', ['£3.5m', '3.5 million pounds', 'three point five million pounds']],
  ['money with cents', ['$1.50', 'one dollar and fifty cents', '1 dollar and 50 cents']],
  ['a year', ['2027', 'twenty twenty-seven', 'two thousand twenty-seven', 'two thousand and twenty-seven']],
  ['a year with oh', ['1905', 'nineteen oh five']],
  ['a decade', ['1990s', 'nineteen nineties', "1990's"]],
  ['a count', ['1,200 words', '1200 words', 'twelve hundred words', 'one thousand two hundred words', 'a thousand two hundred words']],
  ['a hundred and more', ['105', 'one hundred and five', 'one hundred five']],
  ['a percentage', ['10%', 'ten percent', '10 per cent', 'ten per cent']],
  ['a unit', ['5 km', 'five kilometres', '5 kilometers', 'five kilometers']],
  ['a decimal', ['1.05', 'one point zero five', 'one point oh five']],
  ['morning', ['7 a.m.', '7am', 'seven AM', 'seven a m']],
];

describe('spoken words', () => {
  it.each(same)('read %s the same however it is written', (_, forms) => {
    const [first, ...others] = forms.map(spokenWords);
    for (const [i, other] of others.entries()) expect(other, forms[i + 1]).toEqual(first);
  });

  it.each([
    ['3:45pm', '3:54pm'],
    ['3:45pm', '3.4 to 5 p.m.'],
    ['$5.2 million', '$5.3 million'],
    ['2027', '2072'],
    ['1990s', 'nineteen ninety s'],
    ['twelve', 'twenty'],
    ['I am here', 'I a m here'],
    ['three four', 'thirty-four'],
  ])('tell %s from %s', (written, heard) => {
    expect(spokenWords(heard)).not.toEqual(spokenWords(written));
  });

  it('keep the words around numbers as they are, each word with the token it came from', () => {
    const tokens = 'The late opening now starts at 3:45pm, Dr. Patel said.'.split(' ');
    expect(comparedWords(tokens)).toEqual([
      { word: 'the', owner: 0 },
      { word: 'late', owner: 1 },
      { word: 'opening', owner: 2 },
      { word: 'now', owner: 3 },
      { word: 'starts', owner: 4 },
      { word: 'at', owner: 5 },
      { word: '345', owner: 6 },
      { word: 'p', owner: 6 },
      { word: 'm', owner: 6 },
      { word: 'doctor', owner: 7 },
      { word: 'patel', owner: 8 },
      { word: 'said', owner: 9 },
    ]);
  });

  it('score a transcript that writes the numbers its own way as heard word for word', () => {
    const written = spokenWords('The project will cost $5.2 million and open at 3:45pm in 2027, twelve years after the 1990s plans.');
    const heard = spokenWords('The project will cost five point two million dollars and open at 3.45 p.m. in twenty twenty-seven, 12 years after the nineteen nineties plans.');
    expect(wordErrorRate(written, heard)).toBe(0);
  });

  it('find a phrase whose long words are misheard by a letter or two, but never a number misheard', () => {
    expect(heardPhrase(spokenWords('dockter patel at 3.45 pm'), spokenWords('doctor Patel at three forty-five p.m.'))).toBe(true);
    expect(heardPhrase(spokenWords('doctor patel at 3.46 pm'), spokenWords('doctor Patel at three forty-five p.m.'))).toBe(false);
    expect(heardPhrase(spokenWords('it cost $5.3 million'), spokenWords('five point two million dollars'))).toBe(false);
  });
});
