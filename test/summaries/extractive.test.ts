// The extractive summarizer: sentences of the article, in its order, within the token limit, offline.
import { describe, expect, it } from 'vitest';
import { extractiveSummary, sentencesOfText } from '../../src/infrastructure/summarizer/extractive.ts';
import { estimateTokens } from '../../src/infrastructure/summarizer/port.ts';

const ARTICLE = [
  'The city council approved a new flood barrier for the river district on Tuesday.',
  'The barrier will protect four hundred homes that flooded twice in the last decade.',
  'Work on the flood barrier starts in spring and should end before the autumn storms.',
  'Residents of the river district asked for the barrier after the floods of 2024.',
  'The mayor said the council would pay for the barrier from its reserve fund.',
  'A local bakery also celebrated its fiftieth anniversary this week.',
].join(' ');

describe('the extractive summarizer', () => {
  it('answers whole sentences of the article, in its order, within the token limit', () => {
    const sentences = sentencesOfText(ARTICLE);
    expect(sentences).toHaveLength(6);
    for (const limit of [20, 40, 80]) {
      const summary = extractiveSummary(ARTICLE, limit);
      expect(estimateTokens(summary), `limit ${limit}`).toBeLessThanOrEqual(limit);
      const chosen = sentencesOfText(summary);
      expect(chosen.length).toBeGreaterThan(0);
      for (const sentence of chosen) expect(sentences).toContain(sentence);
      const positions = chosen.map((sentence) => sentences.indexOf(sentence));
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
  });

  it('prefers the sentences the article is about to one off its subject', () => {
    const summary = extractiveSummary(ARTICLE, 40);
    expect(summary).toContain('flood barrier');
    expect(summary).not.toContain('bakery');
  });

  it('cuts the best sentence at a word when no sentence fits, and answers nothing for no text', () => {
    const summary = extractiveSummary(ARTICLE, 5);
    expect(estimateTokens(summary)).toBeLessThanOrEqual(5);
    expect(summary.length).toBeGreaterThan(0);
    expect(ARTICLE).toContain(summary);
    expect(extractiveSummary('', 100)).toBe('');
  });

  it('takes paragraphs apart and keeps a summary within 2000 characters', () => {
    const long = Array.from({ length: 80 }, (_, index) => `Paragraph ${index} says the river barrier protects homes in district ${index}.`).join('\n\n');
    const summary = extractiveSummary(long, 3000);
    expect(summary.length).toBeLessThanOrEqual(2000);
    expect(estimateTokens(summary)).toBeLessThanOrEqual(3000);
  });
});
