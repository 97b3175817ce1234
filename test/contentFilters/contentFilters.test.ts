// Content filters through HTTP: the resource, its validation, and filters applied to HTML bodies posted directly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, idIn, keyIn } from '../support/cli.ts';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

const FILTERS = '/v1/projects/1/content_filters';

const create = async (body: Record<string, unknown>, path = FILTERS, key?: string) => {
  const reply = await server.request('POST', path, { body, key });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

/** Every filter of project 1 deleted, so that each generation test sees only its own. */
async function clearFilters() {
  for (const filter of (await server.request('GET', `${FILTERS}?pagination[limit]=100`)).body) {
    expect((await server.request('DELETE', `${FILTERS}/${filter.id}`)).status).toBe(204);
  }
}

const spokenTexts = (item: any) => item.segments.filter((segment: any) => segment.content_type === 'text').map((segment: any) => segment.text);

describe('content filter resources', () => {
  it('creates a filter, enabled unless told, and gets and lists it', async () => {
    const created = await create({ type: 'exclude', selector: ' .ad ' });
    expect(created).toEqual({
      id: expect.any(Number),
      project: { id: 1 },
      type: 'exclude',
      selector: '.ad',
      enabled: true,
      created: expect.any(String),
      updated: created.created,
    });
    expect(new Date(created.created).toISOString()).toBe(created.created);
    expect((await server.request('GET', `${FILTERS}/${created.id}`)).body).toEqual(created);
    expect((await server.request('GET', FILTERS)).body).toContainEqual(created);
    const disabled = await create({ type: 'include', selector: 'article.story', enabled: false });
    expect(disabled).toMatchObject({ type: 'include', selector: 'article.story', enabled: false });
  });

  it('updates the fields it is given, and deletes', async () => {
    const created = await create({ type: 'exclude', selector: '#cookie-banner' });
    const path = `${FILTERS}/${created.id}`;
    const updated = await server.request('PUT', path, { body: { selector: 'div.cookies', enabled: false } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toEqual({ ...created, selector: 'div.cookies', enabled: false, updated: expect.any(String) });
    expect((await server.request('GET', path)).body).toEqual(updated.body);

    expect((await server.request('DELETE', path)).status).toBe(204);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const reply = await server.request(method, path, method === 'PUT' ? { body: { enabled: true } } : {});
      expect(reply.status, method).toBe(404);
      expect(reply.body).toEqual({ code: 404, message: 'Not Found' });
    }
    expect((await server.request('GET', `${FILTERS}?pagination[limit]=100`)).body.map((filter: any) => filter.id)).not.toContain(created.id);
    expect((await server.request('GET', `${FILTERS}/not-a-number`)).status).toBe(404);
  });

  it('answers 422 at the field for a bad body, and creates or changes nothing', async () => {
    const before = (await server.request('GET', `${FILTERS}?pagination[limit]=100`)).body;
    const rejects = async (body: unknown, location: string, method = 'POST', path = FILTERS) => {
      const reply = await server.request(method, path, { body });
      expect(reply.status, JSON.stringify(reply.body)).toBe(422);
      expect(reply.body).toMatchObject({ code: 422, message: expect.any(String) });
      expect(reply.body.errors.map((error: any) => error.location), JSON.stringify(body)).toContain(location);
      return reply.body.errors.find((error: any) => error.location === location).message;
    };
    expect(await rejects({ type: 'exclude', selector: 'div[' }, 'selector')).toMatch(/not a valid CSS selector/);
    expect(await rejects({ type: 'exclude', selector: ':nope(' }, 'selector')).toMatch(/not a valid CSS selector/);
    expect(await rejects({ type: 'exclude', selector: 'p::before' }, 'selector')).toMatch(/not a valid CSS selector/);
    expect(await rejects({ type: 'exclude', selector: 'p + p' }, 'selector')).toMatch(/sibling combinators/);
    expect(await rejects({ type: 'include', selector: 'li:nth-child(2)' }, 'selector')).toMatch(/position pseudo-classes/);
    expect(await rejects({ type: 'include', selector: 'div:has(p)' }, 'selector')).toMatch(/:has\(\)/);
    expect(await rejects({ type: 'exclude', selector: ':not(.post .ad)' }, 'selector')).toMatch(/combinator inside a pseudo-class/);
    await rejects({ type: 'exclude', selector: '   ' }, 'selector');
    await rejects({ type: 'exclude', selector: `.${'a'.repeat(1000)}` }, 'selector');
    await rejects({ type: 'exclude', selector: 42 }, 'selector');
    await rejects({ type: 'exclude' }, 'selector');
    await rejects({ selector: '.ad' }, 'type');
    await rejects({ type: 'remove', selector: '.ad' }, 'type');
    await rejects({ type: 'exclude', selector: '.ad', enabled: 'yes' }, 'enabled');
    expect((await server.request('GET', `${FILTERS}?pagination[limit]=100`)).body).toEqual(before);

    const kept = await create({ type: 'exclude', selector: '.promo' });
    await rejects({ selector: 'div[' }, 'selector', 'PUT', `${FILTERS}/${kept.id}`);
    await rejects({ type: 'both' }, 'type', 'PUT', `${FILTERS}/${kept.id}`);
    expect((await server.request('GET', `${FILTERS}/${kept.id}`)).body).toEqual(kept);
    const notJson = await server.request('POST', FILTERS, { rawBody: '{"type":', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
  });

  it("keeps filters inside their project: another project's filter is not found", async () => {
    const made = await cli(server.env, 'projects', 'create', '--organization', '1', '--name', 'Filters elsewhere');
    expect(made.code, made.stderr).toBe(0);
    const projectId = idIn(made.stdout, 'project');
    const projectKey = keyIn(made.stdout);
    const theirPath = `/v1/projects/${projectId}/content_filters`;
    await expect.poll(async () => (await server.request('GET', theirPath, { key: projectKey })).status, { timeout: 10_000 }).toBe(200);

    const theirs = await create({ type: 'exclude', selector: '.theirs' }, theirPath, projectKey);
    expect(theirs.project).toEqual({ id: projectId });
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const reply = await server.request(method, `${FILTERS}/${theirs.id}`, method === 'PUT' ? { body: { enabled: false } } : {});
      expect(reply.status, method).toBe(404);
    }
    expect((await server.request('GET', `${FILTERS}?pagination[limit]=100`)).body.map((filter: any) => filter.id)).not.toContain(theirs.id);
    expect((await server.request('GET', `${theirPath}/${theirs.id}`, { key: projectKey })).body).toEqual(theirs);
    expect((await server.request('GET', FILTERS, { key: projectKey })).status).toBe(404);
    expect((await server.request('GET', FILTERS, { key: null })).status).toBe(401);
  });
});

const PAGE_BODY = [
  '<div id="cookie-banner">We use cookies to improve your visit.</div>',
  '<article class="story"><p>The river rose two metres overnight.</p>',
  '<div class="ad">Buy discount tyres today.</div>',
  '<p>Roads near the bridge are closed.</p></article>',
  '<div class="related">Read more stories like this.</div>',
].join('');

describe('filters on HTML bodies posted directly', () => {
  it('leaves out what exclude filters match, and applies a filter added later at the next regenerate', async () => {
    await clearFilters();
    await create({ type: 'exclude', selector: '.ad' });
    await create({ type: 'exclude', selector: '#cookie-banner' });
    await create({ type: 'exclude', selector: '.story', enabled: false });
    const reply = await server.request('POST', '/v1/projects/1/content', { body: { body: PAGE_BODY } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const item = await settled(server, reply.body.id);
    expect(item.status).toBe('processed');
    expect(spokenTexts(item)).toEqual(['The river rose two metres overnight.', 'Roads near the bridge are closed.', 'Read more stories like this.']);
    // The segments keep their place in the body as posted.
    expect(item.segments.map((segment: any) => segment.xpath)).toEqual(['/article[1]/p[1]', '/article[1]/p[2]', '/div[2]']);

    await create({ type: 'exclude', selector: 'div.related' });
    expect((await server.request('POST', `/v1/projects/1/content/${item.id}/regenerate`)).status).toBeLessThan(300);
    await expect.poll(async () => spokenTexts(await settled(server, item.id)), { timeout: 120_000, interval: 500 }).toEqual([
      'The river rose two metres overnight.',
      'Roads near the bridge are closed.',
    ]);
  });

  it('reads only the parts include filters pick, and the whole body when they pick nothing in it', async () => {
    await clearFilters();
    await create({ type: 'include', selector: 'article.story' });
    await create({ type: 'exclude', selector: '.ad' });
    const reply = await server.request('POST', '/v1/projects/1/content', { body: { title: 'Flood', body: PAGE_BODY } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const item = await settled(server, reply.body.id);
    expect(item.status).toBe('processed');
    expect(spokenTexts(item)).toEqual(['Flood', 'The river rose two metres overnight.', 'Roads near the bridge are closed.']);

    const fragment = await server.request('POST', '/v1/projects/1/content', { body: { body: '<p>The bridge opened again at noon.</p><div class="ad">Tyres.</div>' } });
    const whole = await settled(server, fragment.body.id);
    expect(spokenTexts(whole)).toEqual(['The bridge opened again at noon.']);
    await clearFilters();
  });
});
