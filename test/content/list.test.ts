import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
const ids: Record<string, string> = {};
let createdBetween = '';

beforeAll(async () => {
  server = await startServer();
  const make = async (name: string, extra: Record<string, unknown>) => {
    const reply = await server.request('POST', '/v1/projects/1/content', {
      body: { title: `Title ${name}`, body: `<p>Body of ${name}</p>`, source_id: name, source_url: `https://example.com/${name}`, ...extra },
    });
    expect(reply.status).toBe(201);
    ids[name] = reply.body.id;
  };
  await make('alpha', { published: true, publish_date: '2026-01-10T00:00:00Z', title: 'Alpha (special) [chars]' });
  await make('bravo', { published: false, video_published: true, publish_date: '2026-02-10T00:00:00Z', body: '<p>Needle in a haystack</p>' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  createdBetween = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 20));
  await make('charlie', { published: true, publish_date: '2026-03-10T00:00:00Z' });
  await make('delta', { published: false });
  await server.request('PUT', '/v1/projects/1/content/delta', { body: { title: 'Delta updated' } });
});
afterAll(() => server.stop());

const list = async (query: string) => {
  const reply = await server.request('GET', `/v1/projects/1/content${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body as { source_id: string }[]).map((item) => item.source_id);
};

describe('list content', () => {
  it('returns a bare array, newest first by default', async () => {
    expect(await list('')).toEqual(['delta', 'charlie', 'bravo', 'alpha']);
  });

  it('orders by each field in both directions', async () => {
    expect(await list('?order[by]=created&order[dir]=asc')).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
    expect(await list('?order[by]=publish_date&order[dir]=asc')).toEqual(['delta', 'alpha', 'bravo', 'charlie']);
    expect(await list('?order[by]=publish_date&order[dir]=desc')).toEqual(['charlie', 'bravo', 'alpha', 'delta']);
    expect(await list('?order[by]=published&order[dir]=desc')).toEqual(['charlie', 'alpha', 'delta', 'bravo']);
    expect(await list('?order[by]=published&order[dir]=asc')).toEqual(['bravo', 'delta', 'alpha', 'charlie']);
    expect(await list('?order[by]=status&order[dir]=asc')).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
    expect(await list('?order[by]=duration&order[dir]=desc')).toEqual(['delta', 'charlie', 'bravo', 'alpha']);
  });

  it('pages with pagination[limit] and pagination[offset]', async () => {
    expect(await list('?pagination[limit]=2')).toEqual(['delta', 'charlie']);
    expect(await list('?pagination[limit]=2&pagination[offset]=2')).toEqual(['bravo', 'alpha']);
    expect(await list('?pagination[limit]=2&pagination[offset]=4')).toEqual([]);
  });

  it('filters by every field the spec names', async () => {
    expect(await list(`?filter[id]=${ids.bravo}`)).toEqual(['bravo']);
    expect(await list('?filter[source_id]=charlie')).toEqual(['charlie']);
    expect(await list(`?filter[source_url]=${encodeURIComponent('https://example.com/alpha')}`)).toEqual(['alpha']);
    expect(await list(`?filter[title]=${encodeURIComponent('(special) [')}`)).toEqual(['alpha']);
    expect(await list('?filter[title]=DELTA')).toEqual(['delta']);
    expect(await list('?filter[body]=needle')).toEqual(['bravo']);
    expect(await list('?filter[published]=true')).toEqual(['charlie', 'alpha']);
    expect(await list('?filter[published]=false')).toEqual(['delta', 'bravo']);
    expect(await list('?filter[video_published]=true')).toEqual(['bravo']);
    expect(await list('?filter[statuses][]=queued&filter[statuses][]=error')).toEqual(['delta', 'charlie', 'bravo', 'alpha']);
    expect(await list('?filter[statuses][]=processed')).toEqual([]);
    expect(await list(`?filter[created][to]=${createdBetween}`)).toEqual(['bravo', 'alpha']);
    expect(await list(`?filter[created][from]=${createdBetween}`)).toEqual(['delta', 'charlie']);
    expect(await list(`?filter[updated][from]=${createdBetween}`)).toEqual(['delta', 'charlie']);
    expect(await list('?filter[publish_date][from]=2026-02-01&filter[publish_date][to]=2026-03-31T00:00:00Z')).toEqual(['charlie', 'bravo']);
    expect(await list('?filter[published]=true&filter[publish_date][to]=2026-02-01')).toEqual(['alpha']);
  });

  it('searches titles and bodies for whole words in order, the last as a prefix, whatever the case, accents and punctuation', async () => {
    const search = (field: string, text: string) => list(`?filter[${field}]=${encodeURIComponent(text)}`);
    expect(await search('title', 'title ch')).toEqual(['charlie']);
    expect(await search('title', 'ÀLPHA SPÉCIAL')).toEqual(['alpha']);
    expect(await search('title', 'special chars')).toEqual(['alpha']);
    expect(await search('title', 'lpha')).toEqual([]);
    expect(await search('title', 'updated delta')).toEqual([]);
    expect(await search('title', '[ ]')).toEqual([]);
    expect(await search('body', 'needle in a hay')).toEqual(['bravo']);
    expect(await search('body', 'haystack needle')).toEqual([]);
    // Bodies are HTML: their tags are no words.
    expect(await search('body', 'p')).toEqual([]);
    expect(await search('body', 'body of')).toEqual(['delta', 'charlie', 'alpha']);
    expect(await list(`?filter[body]=of&filter[title]=title&order[by]=created&order[dir]=asc`)).toEqual(['charlie']);
  });

  it.each([
    ['?pagination[limit]=0', 'pagination[limit]', 'must be greater than or equal to 1'],
    ['?pagination[limit]=101', 'pagination[limit]', 'must be less than or equal to 100'],
    ['?pagination[offset]=-1', 'pagination[offset]', 'must be a whole number'],
    ['?order[by]=title', 'order[by]', 'must be one of: created, publish_date, duration, published, status'],
    ['?order[dir]=up', 'order[dir]', 'must be one of: asc, desc'],
    ['?filter[published]=maybe', 'filter[published]', 'must be one of: 0, 1, true, false'],
    ['?filter[statuses][]=done', 'filter[statuses][].0', 'must be one of: draft, queued, processing, processed, skipped, error'],
    ['?filter[created][from]=yesterday', 'filter[created][from]', 'must be an ISO 8601 date-time'],
  ])('rejects %s with 422', async (query, location, message) => {
    const reply = await server.request('GET', `/v1/projects/1/content${query}`);
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toContainEqual({ location, message });
  });
});
