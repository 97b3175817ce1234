import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { fixture, startFeedServer, type FeedServer } from './feedServer.ts';

let server: TestServer;
let feeds: FeedServer;
beforeAll(async () => {
  [server, feeds] = await Promise.all([startServer({ env: { FETCH_ALLOW_PRIVATE: 'true', FEED_MAX_BYTES: '200000', FEED_FETCH_TIMEOUT_MS: '1500' } }), startFeedServer()]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), feeds?.close()]);
});

const RSS = 'application/rss+xml; charset=UTF-8';

const createImport = async (body: Record<string, unknown>) => {
  const reply = await server.request('POST', '/v1/projects/1/rss_feed_imports', { body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

const run = async (id: number) => {
  const reply = await server.request('POST', `/v1/projects/1/rss_feed_imports/${id}/run`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};

const items = async () => {
  const reply = await server.request('GET', '/v1/projects/1/content?pagination[limit]=100');
  expect(reply.status).toBe(200);
  return reply.body as any[];
};
const itemOf = async (sourceId: string) => (await items()).find((item) => item.source_id === sourceId);

describe('feed imports as a resource', () => {
  it('creates one with defaults, gets, lists, updates and deletes it', async () => {
    const created = await createImport({ url: 'https://news.example.com/feed/' });
    expect(created).toEqual({
      id: expect.any(Number),
      url: 'https://news.example.com/feed/',
      enabled: true,
      field_map: { body: null, source_id: null, title: null, source_url: null, summary: null, author: null, image_url: null, publish_date: null },
      fetch_full_article: false,
      publish: true,
      request_headers: {},
      last_run: null,
      created: expect.any(String),
      updated: created.created,
    });
    expect((await server.request('GET', `/v1/projects/1/rss_feed_imports/${created.id}`)).body).toEqual(created);
    expect((await server.request('GET', '/v1/projects/1/rss_feed_imports')).body).toContainEqual(created);
    const updated = await server.request('PUT', `/v1/projects/1/rss_feed_imports/${created.id}`, {
      body: { enabled: false, field_map: { body: 'description' }, request_headers: { Authorization: 'Bearer abc' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ enabled: false, field_map: { body: 'description', title: null }, request_headers: { Authorization: 'Bearer abc' } });
    expect((await server.request('DELETE', `/v1/projects/1/rss_feed_imports/${created.id}`)).status).toBe(204);
    expect((await server.request('GET', `/v1/projects/1/rss_feed_imports/${created.id}`)).status).toBe(404);
    expect((await server.request('POST', `/v1/projects/1/rss_feed_imports/${created.id}/run`)).status).toBe(404);
  });

  it('refuses bad bodies with a 422 at the field, creating nothing', async () => {
    const before = (await server.request('GET', '/v1/projects/1/rss_feed_imports')).body.length;
    const cases: [unknown, string][] = [
      [{}, 'url'],
      [{ url: 'file:///etc/passwd' }, 'url'],
      [{ url: 'https://a.example/feed', field_map: { body: 'script' } }, 'field_map.body'],
      [{ url: 'https://a.example/feed', field_map: { colour: 'title' } }, 'field_map'],
      [{ url: 'https://a.example/feed', request_headers: { 'Bad Header': 'x' } }, 'request_headers.Bad Header'],
      [{ url: 'https://a.example/feed', request_headers: { 'X-Token': 'a\r\nHost: evil' } }, 'request_headers.X-Token'],
      [{ url: 'https://a.example/feed', request_headers: { 'If-None-Match': '"x"' } }, 'request_headers.If-None-Match'],
      [{ url: 'https://a.example/feed', publish: 'yes' }, 'publish'],
    ];
    for (const [body, location] of cases) {
      const reply = await server.request('POST', '/v1/projects/1/rss_feed_imports', { body });
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(reply.body.code).toBe(422);
      expect(reply.body.errors.map((error: { location: string }) => error.location)).toContain(location);
    }
    expect((await server.request('POST', '/v1/projects/1/rss_feed_imports', { rawBody: '[1,2' })).status).toBe(400);
    expect((await server.request('GET', '/v1/projects/1/rss_feed_imports')).body.length).toBe(before);
    expect((await server.request('POST', '/v1/projects/1/rss_feed_imports/abc/run')).status).toBe(404);
    expect((await server.request('POST', '/v1/projects/1/rss_feed_imports', { body: { url: 'https://a.example/f' }, key: 'wrong_key_0123456789' })).status).toBe(401);
  });
});

describe('running an import', () => {
  it('imports a WordPress feed, then asks again conditionally and imports nothing, then updates an edited entry', async () => {
    const wordpress = fixture('wordpress.rss.xml');
    feeds.publish('/wp/feed/', { body: wordpress, type: RSS, etag: '"v1"', lastModified: 'Tue, 04 Nov 2025 09:12:44 GMT' });
    const created = await createImport({ url: `${feeds.base}/wp/feed/`, request_headers: { 'X-Feed-Token': 'secret-1' } });

    const first = await run(created.id);
    expect(first).toEqual({ imported: 2, updated: 0, skipped: 0, errors: [] });
    const river = await itemOf('https://gazette.example.com/?p=1042');
    expect(river).toMatchObject({
      title: 'River rises after three days of rain',
      body: '<p>The river rose overnight after three days of rain.</p>\n<p>The old bridge is closed until the water falls.</p>',
      source_url: 'https://gazette.example.com/2025/11/04/river-rises/',
      author: 'Maria Lopez',
      publish_date: '2025-11-04T09:12:44.000Z',
      published: true,
    });
    const afterFirst = (await server.request('GET', `/v1/projects/1/rss_feed_imports/${created.id}`)).body;
    expect(afterFirst.last_run).toEqual({ started: expect.any(String), finished: expect.any(String), imported: 2, updated: 0, skipped: 0, errors: [] });
    expect(feeds.requests.at(-1)!.headers['x-feed-token']).toBe('secret-1');

    expect(await run(created.id)).toEqual({ imported: 0, updated: 0, skipped: 0, errors: [] });
    const conditional = feeds.requests.at(-1)!;
    expect(conditional.headers['if-none-match']).toBe('"v1"');
    expect(conditional.headers['if-modified-since']).toBe('Tue, 04 Nov 2025 09:12:44 GMT');

    feeds.publish('/wp/feed/', {
      body: wordpress.replace('The old bridge is closed until the water falls.', 'The old bridge opens again tomorrow.'),
      type: RSS,
      etag: '"v2"',
    });
    expect(await run(created.id)).toEqual({ imported: 0, updated: 1, skipped: 1, errors: [] });
    expect((await itemOf('https://gazette.example.com/?p=1042')).body).toContain('The old bridge opens again tomorrow.');
    expect((await items()).filter((item) => item.source_id?.startsWith('https://gazette.example.com/?p=')).length).toBe(2);
  });

  it('imports Atom and JSON Feed 1.1 with their own defaults', async () => {
    feeds.publish('/atom.xml', { body: fixture('blog.atom.xml'), type: 'application/atom+xml' });
    feeds.publish('/feed.json', { body: fixture('podcast-notes.json'), type: 'application/feed+json' });
    const atom = await createImport({ url: `${feeds.base}/atom.xml`, publish: false });
    const json = await createImport({ url: `${feeds.base}/feed.json` });
    expect(await run(atom.id)).toEqual({ imported: 2, updated: 0, skipped: 0, errors: [] });
    expect(await run(json.id)).toEqual({ imported: 2, updated: 0, skipped: 0, errors: [] });
    expect(await itemOf('https://notes.example.org/2025/10/14/quiet-week')).toMatchObject({
      title: 'A week without incidents',
      body: '<p>Nothing broke this week. We used the time to write tests.</p>',
      summary: 'Nothing broke, so we wrote tests.',
      source_url: 'https://notes.example.org/2025/10/14/quiet-week.html',
      author: 'Jon Berg',
      publish_date: '2025-10-14T08:00:00.000Z',
      published: false,
    });
    expect(await itemOf('https://fieldnotes.example.net/2025/birds-return')).toMatchObject({
      title: 'The swallows are back',
      body: '<p>The first swallows came back to the barn this morning.</p>',
      summary: 'Swallows return to the barn.',
      image_url: 'https://fieldnotes.example.net/images/swallows.jpg',
      author: 'Ana Silva',
      publish_date: '2025-04-02T12:15:00.000Z',
    });
    expect((await itemOf('https://fieldnotes.example.net/2025/first-frost')).body).toBe('The first frost came early this year. The garden is covered in white.');
    // No validators were answered: the second run reads the feed and finds every entry unchanged.
    expect(await run(json.id)).toEqual({ imported: 0, updated: 0, skipped: 2, errors: [] });
  });

  it('honours the field map: a partial map merges with the defaults of the format', async () => {
    feeds.publish('/mapped/feed/', { body: fixture('wordpress.rss.xml').replaceAll('gazette.example.com', 'mapped.example.com'), type: RSS });
    const created = await createImport({ url: `${feeds.base}/mapped/feed/`, field_map: { body: 'description', source_id: 'link', author: null } });
    expect(await run(created.id)).toEqual({ imported: 2, updated: 0, skipped: 0, errors: [] });
    expect(await itemOf('https://mapped.example.com/2025/11/03/market-hall-reopens/')).toMatchObject({
      title: 'Market hall reopens on Saturday',
      // The body is HTML: the entity WordPress wrote inside CDATA stays as it is.
      body: 'After a year of repairs the market hall opens its doors again. [&#8230;]',
      author: 'Tom Baker',
    });
  });

  it('with fetch_full_article, never takes the body from the feed, and needs a link to the page', async () => {
    const feed = fixture('wordpress.rss.xml')
      .replaceAll('gazette.example.com', 'full.example.com')
      .replace('<link>https://full.example.com/2025/11/03/market-hall-reopens/</link>', '');
    feeds.publish('/full/feed/', { body: feed, type: RSS });
    const created = await createImport({ url: `${feeds.base}/full/feed/`, fetch_full_article: true });
    const outcome = await run(created.id);
    expect(outcome.errors).toContainEqual({ item: 'https://full.example.com/?p=1039', message: "the entry has no link to its article's page" });
    expect(await itemOf('https://full.example.com/?p=1039')).toBeUndefined();
    // The other entry's item, once made, has its page to extract and none of the feed's body.
    expect((await itemOf('https://full.example.com/?p=1042'))?.body ?? null).toBeNull();
  });

  it('answers 409 while a run of the same import is under way', async () => {
    feeds.publish('/slow-feed', { body: fixture('wordpress.rss.xml').replaceAll('gazette.example.com', 'slow.example.com'), type: RSS, delayMs: 1_000 });
    const created = await createImport({ url: `${feeds.base}/slow-feed` });
    const [a, b] = await Promise.all([
      server.request('POST', `/v1/projects/1/rss_feed_imports/${created.id}/run`),
      server.request('POST', `/v1/projects/1/rss_feed_imports/${created.id}/run`),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await items()).filter((item) => item.source_id?.startsWith('https://slow.example.com/')).length).toBe(2);
  });
});

describe('charsets', () => {
  it('reads a Latin-1 feed by its XML declaration', async () => {
    const latin1 = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>Caf\u00e9</title>' +
        '<item><title>Cr\u00e8me br\u00fbl\u00e9e au caf\u00e9</title><guid>latin-1</guid><link>https://cafe.example.fr/creme</link><description>&lt;p&gt;D\u00e9licieux.&lt;/p&gt;</description></item></channel></rss>',
      'latin1',
    );
    feeds.publish('/latin1.xml', { body: latin1, type: 'application/rss+xml' });
    const created = await createImport({ url: `${feeds.base}/latin1.xml` });
    expect(await run(created.id)).toEqual({ imported: 1, updated: 0, skipped: 0, errors: [] });
    expect(await itemOf('latin-1')).toMatchObject({ title: 'Crème brûlée au café', body: '<p>Délicieux.</p>' });
  });
});

describe('test of an unsaved import', () => {
  it('answers the entries it would import and creates nothing', async () => {
    feeds.publish('/preview.json', { body: fixture('podcast-notes.json').replaceAll('fieldnotes.example.net', 'preview.example.net'), type: 'application/feed+json' });
    const before = (await items()).length;
    const importsBefore = (await server.request('GET', '/v1/projects/1/rss_feed_imports')).body.length;
    const reply = await server.request('POST', '/v1/projects/1/rss_feed_imports/test', { body: { url: `${feeds.base}/preview.json`, field_map: { source_url: 'external_url' } } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({
      items: [
        { source_id: 'https://preview.example.net/2025/birds-return', title: 'The swallows are back', source_url: null, publish_date: '2025-04-02T12:15:00.000Z' },
        { source_id: 'https://preview.example.net/2025/first-frost', title: 'First frost of the season', source_url: 'https://weather.example.net/frost-2025', publish_date: '2025-10-30T06:00:00.000Z' },
      ],
    });
    expect((await items()).length).toBe(before);
    expect((await server.request('GET', '/v1/projects/1/rss_feed_imports')).body.length).toBe(importsBefore);
  });

  it('answers 422 for a body that is not an import', async () => {
    const reply = await server.request('POST', '/v1/projects/1/rss_feed_imports/test', { body: { url: 'ftp://x.example/feed' } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors[0].location).toBe('url');
  });
});

describe('hostile feeds', () => {
  const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE rss [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<rss version="2.0"><channel><title>&lol9;</title><item><title>&lol9;</title><guid>laughs-1</guid><description>&lol9;</description></item></channel></rss>`;

  const cases: { name: string; feed: () => { body: string | Buffer; type: string; status?: number; location?: string; endless?: boolean }; message: RegExp }[] = [
    { name: 'a billion laughs', feed: () => ({ body: billionLaughs, type: RSS }), message: /declares XML entities/ },
    {
      name: 'an external entity naming a local file',
      feed: () => ({ body: `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><rss version="2.0"><channel><title>x</title><item><guid>xxe-1</guid><description>&xxe;</description></item></channel></rss>`, type: RSS }),
      message: /declares XML entities/,
    },
    {
      name: 'an external entity naming a private address',
      feed: () => ({ body: `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "${feeds.base}/secret">]><rss version="2.0"><channel><title>x</title><item><guid>xxe-2</guid><description>&xxe;</description></item></channel></rss>`, type: RSS }),
      message: /declares XML entities/,
    },
    { name: 'a feed past FEED_MAX_BYTES', feed: () => ({ body: Buffer.alloc(300_000, 'a'), type: RSS }), message: /larger than 200000 bytes/ },
    { name: 'an answer that never ends', feed: () => ({ body: '<rss version="2.0"><channel>', type: RSS, endless: true }), message: /no answer within 1500 ms/ },
    { name: 'malformed XML', feed: () => ({ body: '<rss version="2.0"><channel><item><title>a</item></channel>', type: RSS }), message: /malformed/ },
    { name: 'a web page', feed: () => ({ body: '<!doctype html><html><body><p>Hello</p></body></html>', type: 'text/html' }), message: /not an RSS 2.0, Atom or JSON Feed document/ },
    { name: 'an error answer', feed: () => ({ body: 'gone', type: 'text/plain', status: 410 }), message: /answered HTTP 410/ },
    { name: 'a redirect to a cloud metadata address', feed: () => ({ body: '', type: 'text/plain', status: 302, location: 'http://169.254.169.254/latest/meta-data/' }), message: /cloud metadata address/ },
  ];

  it.each(cases.map((c, index) => [c.name, index] as const))('%s: an error in last_run, a 422 from test, nothing created', async (_name, index) => {
    const { feed, message } = cases[index]!;
    const pathname = `/hostile/${index}`;
    feeds.publish(pathname, feed());
    const before = (await items()).length;
    const created = await createImport({ url: `${feeds.base}${pathname}` });
    const outcome = await run(created.id);
    expect(outcome).toMatchObject({ imported: 0, updated: 0, skipped: 0, errors: [{ item: null, message: expect.stringMatching(message) }] });
    expect((await server.request('GET', `/v1/projects/1/rss_feed_imports/${created.id}`)).body.last_run.errors).toEqual(outcome.errors);
    const tested = await server.request('POST', '/v1/projects/1/rss_feed_imports/test', { body: { url: `${feeds.base}${pathname}` } });
    expect(tested.status).toBe(422);
    expect(tested.body.errors).toEqual([{ location: 'url', message: expect.stringMatching(message) }]);
    expect((await items()).length).toBe(before);
    expect(feeds.requests.some((request) => request.path === '/secret')).toBe(false);
  });

  it('records a bad entry as an error of its own and imports the others', async () => {
    const feed = fixture('wordpress.rss.xml')
      .replaceAll('gazette.example.com', 'partial.example.com')
      .replace('<link>https://partial.example.com/2025/11/03/market-hall-reopens/</link>', '<link>javascript:alert(1)</link>');
    feeds.publish('/partial/feed/', { body: feed, type: RSS, etag: '"broken"' });
    const created = await createImport({ url: `${feeds.base}/partial/feed/` });
    const outcome = await run(created.id);
    expect(outcome).toMatchObject({ imported: 1, updated: 0, skipped: 0, errors: [{ item: 'https://partial.example.com/?p=1039', message: expect.stringMatching(/source_url/) }] });
    expect(await itemOf('https://partial.example.com/?p=1039')).toBeUndefined();
    // Once the publisher mends the entry, the next run (which asks without validators after an error) imports it.
    feeds.publish('/partial/feed/', { body: fixture('wordpress.rss.xml').replaceAll('gazette.example.com', 'partial.example.com'), type: RSS, etag: '"mended"' });
    expect(await run(created.id)).toEqual({ imported: 1, updated: 0, skipped: 1, errors: [] });
    expect(feeds.requests.at(-1)!.headers['if-none-match']).toBeUndefined();
  });
});
