import { describe, expect, it } from 'vitest';
import { normalizeForSpeech } from '../../src/speech/normalize.ts';

const say = (text: string, language = 'en_US') => normalizeForSpeech(text, language).spoken;

describe('normalizeForSpeech in English', () => {
  it.each([
    // numbers
    ['1,250,000 people', 'one million two hundred fifty thousand people'],
    ['-4.25 on average', 'minus four point two five on average'],
    ['0.05 and 007', 'zero point zero five and zero zero seven'],
    ['the 21st and 2nd', 'the twenty-first and second'],
    ['the 1,000th visitor', 'the one thousandth visitor'],
    // years, decades, ranges
    ['In 1996 and 1905,', 'In nineteen ninety-six and nineteen oh five,'],
    ['1900, 2000, 2005, 2010, 1066', 'nineteen hundred, two thousand, two thousand five, twenty ten, ten sixty-six'],
    ['the 1990s and 2000s', 'the nineteen nineties and two thousands'],
    ['1990-1995 and pages 10–20', 'nineteen ninety to nineteen ninety-five and pages ten to twenty'],
    ['call 555-1234', 'call 555-1234'],
    // dates
    ['On March 3, 2024 we', 'On March third, twenty twenty-four we'],
    ['Sept. 21st, 2001', 'September twenty-first, two thousand one'],
    ['3 March 2024', 'the third of March twenty twenty-four'],
    ['on 3/14/2024.', 'on March fourteenth, twenty twenty-four.'],
    ['on 2024-03-14', 'on March fourteenth, twenty twenty-four'],
    ['May I?', 'May I?'],
    // times
    ['at 10:30 am,', 'at ten thirty a.m.,'],
    ['at 14:05 and 14:00', 'at fourteen oh five and fourteen hundred'],
    ['at 9am. Then', 'at nine a.m. Then'],
    ['at 10 p.m. and 7:00', 'at ten p.m. and seven o\'clock'],
    // money
    ['$5.2 million', 'five point two million dollars'],
    ['$3bn and €30', 'three billion dollars and thirty euros'],
    ['£1.50, $0.99, $1.00, $1', 'one pound and fifty pence, ninety-nine cents, one dollar, one dollar'],
    ['-$5 and ¥500', 'minus five dollars and five hundred yen'],
    // percentages and units
    ['up 3.5% (or 12 %)', 'up three point five percent (or twelve percent)'],
    ['20°C, 5 km, 3 kg, 100 mph, 1 mile, 5km.', 'twenty degrees Celsius, five kilometers, three kilograms, one hundred miles per hour, one mile, five kilometers.'],
    ['1 kg and 1500 km', 'one kilogram and one thousand five hundred kilometers'],
    // abbreviations
    ['Dr. Smith met Mr. Jones', 'Doctor Smith met Mister Jones'],
    ['on Main St. in St. Louis', 'on Main Street in Saint Louis'],
    ['e.g., apples, pears etc. Then vs. them & us', 'for example, apples, pears et cetera. Then versus them and us'],
    ['No. 5 and #1. No.', 'number five and number one. No.'],
    // addresses
    ['from https://example.com/a today.', 'from example dot com slash a today.'],
    ['visit www.example.co.uk/news/?ref=1 or bbc.com', 'visit example dot co dot uk slash news or bbc dot com'],
    ['Write to first.last@example.org.', 'Write to first dot last at example dot org.'],
    // left as written
    ['Node.js, U.S. and “quoted” — text…', 'Node.js, U.S. and “quoted” — text…'],
  ])('%s → %s', (written, spoken) => {
    expect(say(written)).toBe(spoken);
  });

  it('reads numeric dates day first outside American English', () => {
    expect(say('on 3/4/2024', 'en_GB')).toBe('on the third of April twenty twenty-four');
    expect(say('on 3/4/2024', 'en')).toBe('on March fourth, twenty twenty-four');
  });

  it('maps every spoken token to the written token it came from, in order', () => {
    const { spoken, tokens } = normalizeForSpeech('Raised $5.2 million, up 3.5%.', 'en_US');
    expect(tokens.map((token) => token.text).join(' ')).toBe(spoken);
    expect(tokens).toEqual([
      { text: 'Raised', written: 0 },
      { text: 'five', written: 1 },
      { text: 'point', written: 1 },
      { text: 'two', written: 1 },
      { text: 'million', written: 2 },
      { text: 'dollars,', written: 2 },
      { text: 'up', written: 3 },
      { text: 'three', written: 4 },
      { text: 'point', written: 4 },
      { text: 'five', written: 4 },
      { text: 'percent.', written: 4 },
    ]);
  });
});

describe('normalizeForSpeech in other languages', () => {
  it('gives the text as written, each token its own', () => {
    const text = 'Am 3.4.2024 kostet es 5,20 €.';
    expect(normalizeForSpeech(text, 'de')).toEqual({
      spoken: text,
      tokens: ['Am', '3.4.2024', 'kostet', 'es', '5,20', '€.'].map((token, written) => ({ text: token, written })),
    });
  });
});

describe('phoneme brackets in an article', () => {
  it('are never given to an engine as phoneme input, in any language, and keep the written tokens', () => {
    for (const language of ['en_US', 'fr']) {
      const { spoken, tokens } = normalizeForSpeech('See [[wiki]] and [[[x]]] here [ [', language);
      expect(spoken).toBe('See ((wiki)) and (((x))) here ( (');
      expect(tokens.map((token) => token.written)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    }
  });

  it('are said as round ones inside numbers, amounts and dates, which are still read', () => {
    expect(normalizeForSpeech('It cost [[$5]] on [[3 March]], [[12%]].', 'en_US').spoken).toBe('It cost ((five dollars)) on ((the third of March)), ((twelve percent)).');
  });
});
