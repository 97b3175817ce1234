import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

/** Player requests as a web page sends them: no API key. */
const player = (path: string, headers: Record<string, string> = {}) => server.request('GET', `/v1/projects/1/player/${path}`, { key: null, headers });

const create = async (body: Record<string, unknown>, projectId = 1) => {
  const reply = await server.request('POST', `/v1/projects/${projectId}/content`, { body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

const processed = async (body: Record<string, unknown>) => {
  const item = await settled(server, (await create(body)).id);
  expect(item.status, item.error).toBe('processed');
  return item;
};

const ARTICLE_URL = 'https://news.example.com/2026/03/rivers?ref=home&tag=a b';

let article: any;
let second: any;
let draft: any;
beforeAll(async () => {
  [article, second, draft] = await Promise.all([
    processed({
      title: 'Rivers rise',
      body: '<p data-service-marker="lead">The rivers rose overnight.</p><p>Roads are closed.</p>',
      source_id: 'post-41',
      source_url: ARTICLE_URL,
      author: 'A. Writer',
      image_url: 'https://news.example.com/rivers.jpg',
      language: 'en_GB',
    }),
    processed({ title: 'Second story', body: '<p>Markets were calm.</p>', source_id: 'post-42', source_url: 'https://news.example.com/markets' }),
    processed({ title: 'Draft', body: '<p>Not yet public.</p>', source_id: 'draft-1', published: false }),
  ]);
}, 120_000);

describe('lookups', () => {
  it('answers by content id with everything the web player reads', async () => {
    const reply = await player(`by_content_id/${article.id}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const data = reply.body;
    expect(data).toMatchObject({ language: 'en_GB', playlist: null, ads: [] });
    expect(data.settings).toMatchObject({ theme: expect.stringMatching(/^(light|dark|auto)$/), player_style: 'standard', player_title: 'Default project' });
    for (const name of ['light_theme', 'dark_theme', 'video_theme']) {
      expect(Object.keys(data.settings[name]).sort()).toEqual(['background_color', 'highlight_color', 'icon_color', 'text_color', 'word_highlight_color']);
    }
    expect(data.video_settings.logo_image_position).toBe('top-right');
    expect(data.content).toHaveLength(1);
    const [item] = data.content;
    expect(item).toMatchObject({
      id: article.id,
      title: 'Rivers rise',
      source_id: 'post-41',
      source_url: ARTICLE_URL,
      author: 'A. Writer',
      image_url: 'https://news.example.com/rivers.jpg',
      ads_enabled: true,
      video: [],
      summarization: { audio: [], video: [] },
    });
    expect(item.audio.map((file: any) => file.content_type)).toEqual(['audio/mpeg', 'application/x-mpegURL']);
    for (const file of item.audio) {
      expect(file.url.startsWith(`${server.baseUrl}/media/`)).toBe(true);
      expect(file.duration).toBeGreaterThan(0);
    }
    expect((await fetch(item.audio[0].url)).status).toBe(200);
    expect(item.segments.length).toBeGreaterThanOrEqual(3);
    for (const segment of item.segments) {
      expect(Object.keys(segment).sort()).toEqual(['duration', 'marker', 'md5', 'section', 'start_time', 'text', 'xpath']);
    }
    expect(item.segments.find((segment: any) => segment.marker === 'lead')).toMatchObject({ section: 'body', text: 'The rivers rose overnight.', md5: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it('finds the same item by legacy id, source id and URL-encoded source URL', async () => {
    const expected = (await player(`by_content_id/${article.id}`)).body;
    for (const path of [`by_content_id/${article.legacy_id}`, `by_content_id/${article.id.toUpperCase()}`, 'by_source_id/post-41', `by_source_url/${encodeURIComponent(ARTICLE_URL)}`]) {
      const reply = await player(path);
      expect(reply.status, path).toBe(200);
      expect(reply.body, path).toEqual(expected);
    }
  });

  it('answers an identifiers array in its order, each item once, the initial item first', async () => {
    const identifiers = [{ source_id: 'post-42' }, { content_id: article.id }, { source_url: ARTICLE_URL }, { content_id: 'no-such-item' }];
    const path = `by_identifiers/${encodeURIComponent(JSON.stringify(identifiers))}`;
    const reply = await player(path);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.content.map((item: any) => item.id)).toEqual([second.id, article.id]);
    expect(reply.body.language).toBe('en_US');
    const reordered = await player(`${path}?initial_source_url=${encodeURIComponent(ARTICLE_URL)}`);
    expect(reordered.body.content.map((item: any) => item.id)).toEqual([article.id, second.id]);
    expect(reordered.body.language).toBe('en_GB');
    expect((await player(`${path}?initial_content_id=${second.legacy_id}`)).body.content[0].id).toBe(second.id);
    const numeric = await player(`by_identifiers/${encodeURIComponent(JSON.stringify([{ content_id: article.legacy_id }]))}`);
    expect(numeric.body.content.map((item: any) => item.id)).toEqual([article.id]);
  });

  it('answers 404 when nothing matches, and for playlists that do not exist', async () => {
    for (const path of [
      'by_content_id/00000000-0000-4000-8000-000000000000',
      'by_content_id/99999999',
      'by_source_id/nope',
      `by_source_url/${encodeURIComponent('https://news.example.com/other')}`,
      `by_identifiers/${encodeURIComponent(JSON.stringify([{ playlist_id: 1 }]))}`,
      'by_playlist_id/1',
      'by_something/1',
      'by_content_id/',
    ]) {
      const reply = await player(path);
      expect(reply.status, path).toBe(404);
      expect(reply.body).toEqual({ code: 404, message: 'Not Found' });
      expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    }
    const mixed = await player(`by_identifiers/${encodeURIComponent(JSON.stringify([{ playlist_id: 7 }, { source_id: 'post-42' }]))}`);
    expect(mixed.body.content.map((item: any) => item.id)).toEqual([second.id]);
  });

  it('refuses malformed identifiers in the error shape', async () => {
    const bad = await player(`by_identifiers/${encodeURIComponent('[{"content_id": ')}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 400, message: 'Malformed JSON in identifiers' });
    expect((await player('by_identifiers/%E0%A4%A')).status).toBe(400);
    for (const [json, location] of [
      ['{"content_id": "x"}', 'identifiers'],
      ['[]', 'identifiers'],
      ['[{"content_id": "x", "source_id": "y"}]', 'identifiers.0'],
      ['[{"source_id": "post-42"}, {"title": "x"}]', 'identifiers.1'],
      ['[{"content_id": null}]', 'identifiers.0'],
      ['["post-42"]', 'identifiers.0'],
    ] as const) {
      const reply = await player(`by_identifiers/${encodeURIComponent(json)}`);
      expect(reply.status, json).toBe(422);
      expect(reply.body).toMatchObject({ code: 422, errors: [{ location, message: expect.any(String) }] });
    }
  });

  it('refuses bad query parameters with 422', async () => {
    for (const [query, location] of [
      ['words=maybe', 'words'],
      ['summary=yes', 'summary'],
      ['media_format=podcast', 'media_format'],
    ]) {
      const reply = await player(`by_content_id/${article.id}?${query}`);
      expect(reply.status, query).toBe(422);
      expect(reply.body.errors).toEqual([{ location, message: expect.any(String) }]);
    }
  });

  it('keeps other projects out', async () => {
    const project = (await server.request('POST', '/v1/projects', { body: { name: 'Sports', language: 'fr_FR' } })).body;
    const theirs = await create({ title: 'Match', body: '<p>Le match.</p>', source_id: 'match-1' }, project.id);
    await expect
      .poll(async () => (await server.request('GET', `/v1/projects/${project.id}/content/${theirs.id}`)).body.status, { timeout: 60_000, interval: 250 })
      .toBe('processed');
    const own = await server.request('GET', `/v1/projects/${project.id}/player/by_content_id/${theirs.id}`, { key: null });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ language: 'fr_FR', settings: { player_title: 'Sports' } });
    expect((await player(`by_content_id/${theirs.id}`)).status).toBe(404);
    expect((await player('by_source_id/match-1')).status).toBe(404);
    expect((await server.request('GET', `/v1/projects/${project.id}/player/by_content_id/${article.id}`, { key: null })).status).toBe(404);
    expect((await server.request('GET', `/v1/projects/abc/player/by_content_id/${article.id}`, { key: null })).status).toBe(404);
  });
});

describe('visibility', () => {
  it('hides unpublished items unless their preview token is given', async () => {
    expect(draft.published).toBe(false);
    expect((await player(`by_content_id/${draft.id}`)).status).toBe(404);
    expect((await player(`by_content_id/${draft.id}?preview_token=wrong`)).status).toBe(404);
    expect((await player(`by_content_id/${draft.id}?preview_token=${article.preview_token}`)).status).toBe(404);
    const previewed = await player(`by_content_id/${draft.id}?preview_token=${draft.preview_token}&preview_page=true`);
    expect(previewed.status).toBe(200);
    expect(previewed.body.content[0].id).toBe(draft.id);
    expect(previewed.headers.get('cache-control')).toBe('private, no-cache');
    // A token shows its own item only.
    const both = encodeURIComponent(JSON.stringify([{ content_id: draft.id }, { content_id: article.id }]));
    expect((await player(`by_identifiers/${both}`)).body.content.map((item: any) => item.id)).toEqual([article.id]);
    expect((await player(`by_identifiers/${both}?preview_token=${draft.preview_token}`)).body.content.map((item: any) => item.id)).toEqual([draft.id, article.id]);
  });

  it('hides items that are not processed', async () => {
    const skipped = await settled(server, (await create({ body: '<p>   </p>', title_enabled: false, published: true, source_id: 'empty-1' })).id);
    expect(skipped.status).toBe('skipped');
    expect((await player(`by_content_id/${skipped.id}`)).status).toBe(404);
    expect((await player('by_source_id/empty-1')).status).toBe(404);
  });

  it('follows publishing changes at once', async () => {
    const item = await processed({ body: '<p>Soon withdrawn.</p>' });
    expect((await player(`by_content_id/${item.id}`)).status).toBe(200);
    await server.request('PUT', `/v1/projects/1/content/${item.id}`, { body: { published: false } });
    expect((await player(`by_content_id/${item.id}`)).status).toBe(404);
    await server.request('PUT', `/v1/projects/1/content/${item.id}`, { body: { published: true } });
    expect((await player(`by_content_id/${item.id}`)).status).toBe(200);
    await server.request('DELETE', `/v1/projects/1/content/${item.id}`);
    expect((await player(`by_content_id/${item.id}`)).status).toBe(404);
  });
});

describe('cached answers', () => {
  it('stay the same through unrelated changes and follow changes of their own documents', async () => {
    const path = `by_content_id/${second.id}`;
    const etag = (await player(path)).headers.get('etag');
    await server.request('PUT', `/v1/projects/1/content/${article.id}`, { body: { author: 'Someone else' } });
    await server.request('PUT', '/v1/projects/1/embed_settings', { body: {} });
    expect((await player(path)).headers.get('etag')).toBe(etag);
    await server.request('PUT', `/v1/projects/1/content/${second.id}`, { body: { author: 'New author' } });
    const changed = await player(path);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.content[0].author).toBe('New author');
  });

  it('show the newest visible item of a source URL, including one added later', async () => {
    const url = 'https://news.example.com/live-blog';
    const first = await processed({ body: '<p>First version.</p>', source_url: url });
    const path = `by_source_url/${encodeURIComponent(url)}`;
    expect((await player(path)).body.content[0].id).toBe(first.id);
    const hidden = await processed({ body: '<p>Hidden version.</p>', source_url: url, published: false });
    expect((await player(path)).body.content[0].id).toBe(first.id);
    await server.request('PUT', `/v1/projects/1/content/${hidden.id}`, { body: { published: true } });
    expect((await player(path)).body.content[0].id).toBe(hidden.id);
  });
});

describe('options', () => {
  it('adds word timings with words=true', async () => {
    const reply = await player(`by_content_id/${article.id}?words=true`);
    const spoken = reply.body.content[0].segments;
    for (const segment of spoken) {
      expect(segment.words.length).toBeGreaterThan(0);
      for (const word of segment.words) {
        expect(Object.keys(word).sort()).toEqual(['duration', 'start_time', 'text']);
        // Counted from the segment's start, as the web player reads them.
        expect(word.start_time).toBeGreaterThanOrEqual(0);
        expect(word.start_time).toBeLessThanOrEqual(segment.duration);
      }
    }
    expect((await player(`by_content_id/${article.id}?words=false`)).body.content[0].segments[0].words).toBeUndefined();
  });

  it('answers the summary variant with summary=true', async () => {
    const item = await processed({ title: 'With summary', summary: 'A short summary of it.', summary_enabled: true, body: '<p>The full article text here.</p>' });
    const full = (await player(`by_content_id/${item.id}`)).body.content[0];
    expect(full.audio.every((file: any) => file.variant === 'article')).toBe(true);
    expect(full.summarization.audio.map((file: any) => [file.content_type, file.variant])).toEqual([
      ['audio/mpeg', 'summary'],
      ['application/x-mpegURL', 'summary'],
    ]);
    const summary = (await player(`by_content_id/${item.id}?summary=true`)).body.content[0];
    expect(summary.audio).toEqual(full.summarization.audio);
    expect(summary.segments.map((segment: any) => segment.section)).toContain('summary');
    expect(summary.segments.map((segment: any) => segment.text).join(' ')).toContain('A short summary of it.');
    expect(summary.segments.some((segment: any) => segment.text?.includes('full article'))).toBe(false);
    // An item without a summary has nothing to play as one.
    expect((await player(`by_content_id/${article.id}?summary=true`)).status).toBe(404);
  });

  it('shows video players only items published for video', async () => {
    const videoItem = await processed({ body: '<p>Seen on video.</p>', video_published: true });
    expect((await player(`by_content_id/${article.id}?media_format=video`)).status).toBe(404);
    const reply = await player(`by_content_id/${videoItem.id}?media_format=video&video_size=landscape`);
    expect(reply.status).toBe(200);
    expect(reply.body.content[0]).toMatchObject({ id: videoItem.id, video: [] });
    expect(reply.body.content[0].audio.length).toBeGreaterThan(0);
    expect((await player(`by_content_id/${article.id}?media_format=audio`)).status).toBe(200);
  });

  it('echoes the access tier and takes the x-service-checksum header', async () => {
    expect((await server.request('POST', '/v1/projects/1/access_tiers', { body: { name: 'premium' } })).status).toBe(201);
    const reply = await player(`by_content_id/${article.id}?access_tier=premium`, { 'x-service-checksum': 'abc123', 'X-Referer': 'https://news.example.com/a', 'X-Import': 'true' });
    expect(reply.status).toBe(200);
    expect(reply.body.settings.access_tier).toBe('premium');
    expect((await player(`by_content_id/${article.id}`)).body.settings.access_tier).toBeNull();
  });
});

describe('HTTP', () => {
  it('answers CORS preflight for any origin', async () => {
    const reply = await server.request('OPTIONS', `/v1/projects/1/player/by_content_id/${article.id}`, {
      key: null,
      headers: { origin: 'https://blog.example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-referer,x-import,x-service-checksum' },
    });
    expect(reply.status).toBe(204);
    expect(reply.body).toBeNull();
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(reply.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    const allowed = reply.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['x-referer', 'x-import', 'x-service-checksum', 'content-type']));
    expect(Number(reply.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  it('answers GET with CORS, a strong ETag and public caching, and 304 when unchanged', async () => {
    const first = await player(`by_content_id/${article.id}`, { origin: 'https://blog.example.org' });
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await player(`by_content_id/${article.id}`)).headers.get('etag')).toBe(etag);

    const response = await fetch(`${server.baseUrl}/v1/projects/1/player/by_content_id/${article.id}`, { headers: { 'if-none-match': etag } });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe('');
    expect(response.headers.get('etag')).toBe(etag);
    expect((await player(`by_content_id/${article.id}`, { 'if-none-match': '"other"' })).status).toBe(200);
    expect((await player(`by_content_id/${article.id}?words=true`)).headers.get('etag')).not.toBe(etag);
  });

  it('refuses other methods', async () => {
    const reply = await server.request('POST', `/v1/projects/1/player/by_content_id/${article.id}`, { key: null, body: {} });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toContain('GET');
  });
});

describe('settings in player data', () => {
  it('carries the project settings and changes (with a new ETag) when they change', async () => {
    const before = await player(`by_content_id/${article.id}`);
    const put = await server.request('PUT', '/v1/projects/1/player_settings', {
      body: { theme: 'dark', dark_theme: { highlight_color: '#123456' }, intro_url: 'https://cdn.example.com/intro.mp3', intro_outro_enabled: true, player_title: 'The Daily' },
    });
    expect(put.status).toBe(200);
    await server.request('PUT', '/v1/projects/1/video_settings', { body: { logo_image_position: 'top-left' } });
    const after = await player(`by_content_id/${article.id}`);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(after.body.settings).toMatchObject({
      theme: 'dark',
      dark_theme: { highlight_color: '#123456' },
      player_title: 'The Daily',
      intros_outros: [{ placement: 'pre-roll', audio: [{ url: 'https://cdn.example.com/intro.mp3', content_type: 'audio/mpeg' }], video: [] }],
    });
    expect(after.body.video_settings.logo_image_position).toBe('top-left');
  });

  it('follows the embed settings', async () => {
    const path = `by_content_id/${article.id}`;
    await server.request('PUT', '/v1/projects/1/embed_settings', { body: { allowed_domains: ['example.com'] } });
    expect((await player(path, { origin: 'https://news.example.com' })).status).toBe(200);
    expect((await player(path, { origin: 'https://news.example.com' })).headers.get('vary')).toContain('Origin');
    expect((await player(path, { origin: 'https://evil.test' })).status).toBe(404);
    expect((await player(path, { origin: 'https://notexample.com' })).status).toBe(404);
    await server.request('PUT', '/v1/projects/1/embed_settings', { body: { allowed_domains: [], enabled: false } });
    expect((await player(path)).status).toBe(404);
    await server.request('PUT', '/v1/projects/1/embed_settings', { body: { enabled: true, default_media_format: 'video' } });
    expect((await player(path)).status).toBe(404);
    expect((await player(`${path}?media_format=audio`)).status).toBe(200);
    await server.request('PUT', '/v1/projects/1/embed_settings', { body: { default_media_format: 'audio' } });
    expect((await player(path)).status).toBe(200);
  });
});
