import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

// What players highlight: the written whitespace tokens without the punctuation around them.
const displayedTokens = (text: string) => text.split(/\s+/).filter(Boolean).map((token) => token.replace(/^\p{P}+|\p{P}+$/gu, '') || token);

describe('an item with numbers, money and an address', () => {
  it('times every written word as written, in order, within its segment', async () => {
    const body = '<p>The fund raised $5.2 million on the 21st, up 3.5% from https://example.com/a since 1996.</p>';
    const created = await server.request('POST', '/v1/projects/1/content', { body: { title: 'Results for March 3, 2024', body, language: 'en_US' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const item = await settled(server, created.body.id);
    expect(item.status, item.error).toBe('processed');

    const [title, paragraph] = item.segments;
    expect(paragraph.text).toBe('The fund raised $5.2 million on the 21st, up 3.5% from https://example.com/a since 1996.');
    expect(paragraph.words.map((word: any) => word.text)).toEqual([
      'The', 'fund', 'raised', '$5.2', 'million', 'on', 'the', '21st', 'up', '3.5', 'from', 'https://example.com/a', 'since', '1996',
    ]);
    for (const segment of [title, paragraph]) {
      expect(segment.words.map((word: any) => word.text)).toEqual(displayedTokens(segment.text));
      let previousEnd = 0;
      for (const word of segment.words) {
        expect(word.start_time).toBeGreaterThanOrEqual(previousEnd);
        expect(word.duration).toBeGreaterThan(0);
        previousEnd = word.start_time + word.duration;
      }
      expect(previousEnd).toBeLessThanOrEqual(segment.duration);
    }
    // A written token's time spans all the words it was said as.
    const duration = (text: string) => paragraph.words.find((word: any) => word.text === text).duration;
    expect(duration('https://example.com/a')).toBeGreaterThan(2 * duration('fund'));
    expect(duration('$5.2')).toBeGreaterThan(2 * duration('the'));
  }, 120_000);
});
