import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

/** Player requests as a web page sends them: no API key. */
const player = async (path: string) => {
  const reply = await server.request('GET', `/v1/projects/1/player/${path}`, { key: null });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const adIds = async (path: string) => (await player(path)).ads.map((ad: any) => ad.id).sort((a: number, b: number) => a - b);
const both = (first: any, second: any) => `by_identifiers/${encodeURIComponent(JSON.stringify([{ content_id: first.id }, { content_id: second.id }]))}`;

const processed = async (body: Record<string, unknown>) => {
  const reply = await server.request('POST', '/v1/projects/1/content', { body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const item = await settled(server, reply.body.id);
  expect(item.status, item.error).toBe('processed');
  return item;
};

const createAd = async (body: Record<string, unknown>) => {
  const reply = await server.request('POST', '/v1/projects/1/ads', { body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

const AUDIO = 'https://ads.example.com/spring-sale.mp3';
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const HOUR = 3_600_000;

let withAds: any;
let withoutAds: any;
beforeAll(async () => {
  [withAds, withoutAds] = await Promise.all([
    processed({ title: 'With ads', body: '<p>Sponsored news.</p>' }),
    processed({ title: 'Without ads', body: '<p>Quiet news.</p>', ads_enabled: false }),
  ]);
}, 120_000);

describe('ads in player data', () => {
  let running: any;
  let vast: any;
  let disabled: any;
  beforeAll(async () => {
    [running, vast, disabled] = await Promise.all([
      createAd({ type: 'custom', media_url: AUDIO, title: 'Spring sale', click_through_url: 'https://shop.example.com/', starts_at: at(-HOUR), ends_at: at(HOUR) }),
      createAd({ type: 'vast', placement: 'mid-roll', vast_url: 'https://adserver.example.com/vast.xml' }),
      createAd({ type: 'custom', media_url: AUDIO, enabled: false }),
      createAd({ type: 'custom', media_url: AUDIO, starts_at: at(HOUR) }),
      createAd({ type: 'custom', media_url: AUDIO, starts_at: at(-2 * HOUR), ends_at: at(-HOUR) }),
    ]);
  });

  it('carries the enabled ads whose time range covers now, as the web player reads them', async () => {
    const data = await player(`by_content_id/${withAds.id}`);
    expect(data.ads.map((ad: any) => ad.id).sort()).toEqual([running.id, vast.id].sort());
    expect(data.ads.find((ad: any) => ad.id === running.id)).toMatchObject({
      type: 'custom',
      placement: 'pre-roll',
      vast_url: null,
      title: 'Spring sale',
      click_through_url: 'https://shop.example.com/',
      media_url: AUDIO,
      media: [{ content_type: 'audio/mpeg', url: AUDIO }],
      audio: [{ content_type: 'audio/mpeg', url: AUDIO }],
      video: [],
      theme: null,
      dark_theme: null,
      light_theme: null,
    });
    expect(data.ads.find((ad: any) => ad.id === vast.id)).toMatchObject({
      type: 'vast',
      placement: 'mid-roll',
      vast_url: 'https://adserver.example.com/vast.xml',
      media_url: null,
      media: [],
      audio: [],
      video: [],
    });
  });

  it('carries none when the first item has ads turned off', async () => {
    expect((await player(`by_content_id/${withoutAds.id}`)).ads).toEqual([]);
    expect((await player(both(withoutAds, withAds))).ads).toEqual([]);
    expect(await adIds(both(withAds, withoutAds))).toEqual([running.id, vast.id].sort((a, b) => a - b));
    const initial = await player(`${both(withoutAds, withAds)}?initial_content_id=${withAds.id}`);
    expect(initial.content[0].id).toBe(withAds.id);
    expect(initial.ads).toHaveLength(2);
  });

  it('follows ads being turned on, off and deleted at once', async () => {
    const path = `by_content_id/${withAds.id}`;
    expect(await adIds(path)).not.toContain(disabled.id);
    expect((await server.request('PUT', `/v1/projects/1/ads/${disabled.id}`, { body: { enabled: true } })).status).toBe(200);
    expect(await adIds(path)).toContain(disabled.id);
    expect((await server.request('PUT', `/v1/projects/1/ads/${running.id}`, { body: { enabled: false } })).status).toBe(200);
    expect(await adIds(path)).not.toContain(running.id);
    expect((await server.request('DELETE', `/v1/projects/1/ads/${disabled.id}`)).status).toBe(204);
    expect(await adIds(path)).toEqual([vast.id]);
  });

  it('is not served from cache past an ad start or end', async () => {
    const path = `by_content_id/${withAds.id}?words=true`;
    const [starting, ending] = await Promise.all([
      createAd({ type: 'custom', media_url: AUDIO, starts_at: at(3_000) }),
      createAd({ type: 'custom', media_url: AUDIO, ends_at: at(3_000) }),
    ]);
    const before = await adIds(path);
    expect(before).toContain(ending.id);
    expect(before).not.toContain(starting.id);
    // No event happens meanwhile: only time passes.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const after = await adIds(path);
    expect(after).toContain(starting.id);
    expect(after).not.toContain(ending.id);
  });
});
