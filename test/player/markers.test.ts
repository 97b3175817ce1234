// What the real web player needs from segments: a marker on every one, stable across regenerations, and word times within their segment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// The title and three paragraphs carry no marker; two paragraphs say the same words.
const ARTICLE = {
  title: 'Rivers rise again',
  body: [
    '<p>The river rose overnight after three days of rain in the hills.</p>',
    '<p data-service-marker="kept">Volunteers filled sandbags outside the library before dawn.</p>',
    '<p data-beyondwords-marker="theirs">Trains to the coast ran more than an hour late.</p>',
    '<p>Read more on our live page.</p>',
    '<p>Read more on our live page.</p>',
  ].join(''),
};

let server: TestServer;
let item: any;
let player: any;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
  const created = await server.request('POST', '/v1/projects/1/content', { body: ARTICLE });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  item = await settled(server, created.body.id);
  expect(item.status, item.error).toBe('processed');
  player = (await server.request('GET', `/v1/projects/1/player/by_content_id/${item.id}?words=true`, { key: null })).body.content[0];
}, 120_000);
afterAll(() => server.stop());

const markers = (segments: any[]) => segments.map((segment) => segment.marker);

/** The first ContentProcessed fact of the item as stored, read with the operator CLI. */
let stored: Promise<any> | undefined;
const storedFact = () =>
  (stored ??= cli(server.env, 'events', `content-${item.id}`).then((stream) => {
    expect(stream.code, stream.stderr).toBe(0);
    return stream.stdout.trim().split('\n').map((line) => JSON.parse(line)).find((event) => event.type === 'ContentProcessed');
  }));

describe('segment markers', () => {
  it('are on every segment of player data: the given ones, ours or the original maker\'s, and a UUID for the rest', () => {
    expect(player.segments.map((segment: any) => segment.section)).toEqual(['title', 'body', 'body', 'body', 'body', 'body']);
    const [title, first, kept, theirs, readMore, readMoreAgain] = markers(player.segments);
    expect([kept, theirs]).toEqual(['kept', 'theirs']);
    for (const generated of [title, first, readMore, readMoreAgain]) expect(generated).toMatch(UUID);
    expect(new Set(markers(player.segments)).size).toBe(player.segments.length);
  });

  it('are the same in content responses, in every segment detail', async () => {
    const partial = await server.request('GET', `/v1/projects/1/content/${item.id}`);
    expect(markers(partial.body.segments)).toEqual(markers(player.segments));
    expect(markers(item.segments)).toEqual(markers(player.segments));
  });

  it('are derived when answering, so items stored without them get them too', async () => {
    const processed = await storedFact();
    expect(markers(processed.data.media.segments)).toEqual([null, null, 'kept', 'theirs', null, null]);
  });

  it('stay the same when the same text is generated again', async () => {
    const regenerated = await server.request('POST', `/v1/projects/1/content/${item.id}/regenerate`);
    expect(regenerated.status).toBe(200);
    const again = await settled(server, item.id);
    expect(again.status, again.error).toBe('processed');
    expect(again.audio[0].url).toContain(`/${item.id}/2/`);
    const data = await server.request('GET', `/v1/projects/1/player/by_content_id/${item.id}?words=true`, { key: null });
    expect(markers(data.body.content[0].segments)).toEqual(markers(player.segments));
  }, 120_000);
});

describe('word times', () => {
  const check = (segments: any[]) => {
    expect(segments.length).toBeGreaterThan(1);
    for (const segment of segments) {
      expect(segment.words.length).toBeGreaterThan(0);
      let previous = -1;
      for (const word of segment.words) {
        expect(word.start_time, `${word.text} in "${segment.text}"`).toBeGreaterThanOrEqual(0);
        expect(word.start_time, `${word.text} in "${segment.text}"`).toBeLessThanOrEqual(segment.duration);
        expect(word.start_time + word.duration).toBeLessThanOrEqual(segment.duration);
        expect(word.start_time).toBeGreaterThan(previous);
        previous = word.start_time;
      }
      // Counted from the segment's start: each segment's first word starts at once, wherever the segment sits.
      expect(segment.words[0].start_time).toBeLessThan(100);
    }
    expect(segments.at(-1).start_time).toBeGreaterThan(segments.at(-1).duration);
  };

  it('count from their segment\'s start in player data', () => check(player.segments));

  it('count from their segment\'s start in content responses, the same as in player data', () => {
    check(item.segments);
    expect(item.segments.map((segment: any) => segment.words)).toEqual(player.segments.map((segment: any) => segment.words));
  });

  it('are stored counted from the start of the audio, the fact generation recorded', async () => {
    const processed = await storedFact();
    const last = processed.data.media.segments.at(-1);
    expect(last.words[0].start_time).toBeGreaterThanOrEqual(last.start_time);
  });
});
