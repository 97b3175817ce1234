// Figures of every analytics operation from events posted in the player's exact shape, against hand-computed values.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReadStore } from '../../src/composition.ts';
import { loadConfig } from '../../src/config.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { byDevice, eventually, listen, playerEvent, post } from './support.ts';

let server: TestServer;
let itemA: string;
let itemB: string;
let adId: number;
const L1 = randomUUID();
const L2 = randomUUID();
const L3 = randomUUID();
const today = new Date().toISOString().slice(0, 10);

const createItem = async (title: string, sourceId: string) => {
  const reply = await server.request('POST', '/v1/projects/1/content', { body: { title, body: 'A short story.', source_id: sourceId } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
};

const one = async (path: string, impressions: number) => {
  const records = await eventually<any[]>(server, path, (body) => body[0]?.player_impressions?.total === impressions);
  expect(records).toHaveLength(1);
  return records[0];
};

beforeAll(async () => {
  server = await startServer();
  itemA = await createItem('The river', 'river-1');
  itemB = await createItem('The hill', 'hill-2');
  const ad = await server.request('POST', '/v1/projects/1/ads', { body: { type: 'custom', media_url: 'https://ads.example.com/a.mp3', title: 'Spring sale' } });
  adId = ad.body.id;
  const s1 = listen({ content_id: itemA, device_type: 'desktop', local_storage_id: L1 }, 30);
  const s2 = listen({ content_id: itemA, device_type: 'phone', local_storage_id: L1 }, 100);
  const s3 = [playerEvent({ content_id: itemA, device_type: 'tablet', media_variant: 'summary', media_format: 'video' })];
  const s4 = listen({ content_id: itemA, device_type: 'android', local_storage_id: L2, access_tier: 'premium' }, 50);
  const s5 = listen({ content_id: itemB, device_type: 'desktop', local_storage_id: L3 }, 0);
  const ads = [
    playerEvent({ media_type: 'ad', ad_id: adId, content_id: itemA, listen_session_id: s1[0]!.listen_session_id, device_type: 'desktop' }),
    playerEvent({ media_type: 'ad', ad_id: adId, content_id: itemA, listen_session_id: s1[0]!.listen_session_id, device_type: 'desktop', event_type: 'ad_link_click' }),
    playerEvent({ media_type: 'ad', ad_id: adId, content_id: itemA, listen_session_id: s2[0]!.listen_session_id, device_type: 'phone' }),
  ];
  // One request a session, as one player; then the same sends again (a retried beacon): they count once.
  for (const events of [s1, s2, s3, s4, s5, ads]) expect((await post(server, events)).status).toBe(200);
  expect((await post(server, [s1[0]!, s1[3]!, ads[1]!])).status).toBe(200);
});
afterAll(() => server.stop());

describe('the analytics operations', () => {
  it("counts an item's impressions, listens, listeners, time and retention, per device", async () => {
    const record = await one(`/v1/projects/1/content/${itemA}/analytics?aggregation=all`, 4);
    expect(record).toEqual({
      start: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/),
      player_impressions: { ...byDevice(4, { desktop: 1, tablet: 1, mobile_web: 1, android: 1 }), andriod: 1 },
      listens: byDevice(3, { desktop: 1, mobile_web: 1, android: 1 }),
      listen_rate: byDevice(0.75, { desktop: 1, mobile_web: 1, android: 1 }),
      unique_listeners: byDevice(2, { desktop: 1, mobile_web: 1, android: 1 }),
      listen_time: byDevice(108, { desktop: 18, mobile_web: 60, android: 30 }),
      avg_listen_time: byDevice(36, { desktop: 18, mobile_web: 60, android: 30 }),
      avg_listen_duration: byDevice(60, { desktop: 30, mobile_web: 100, android: 50 }),
      listener_retention: {
        total: [100, 100, 100, 67, 67, 33, 33, 33, 33, 33],
        desktop: [100, 100, 100, 0, 0, 0, 0, 0, 0, 0],
        tablet: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        mobile_web: [100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
        ios: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        android: [100, 100, 100, 100, 100, 0, 0, 0, 0, 0],
      },
    });
    // The same item by its source id.
    expect((await server.request('GET', '/v1/projects/1/content/river-1/analytics?aggregation=all')).body).toEqual([record]);
  });

  it('filters by variant, format and access tier, and answers only the metrics asked for', async () => {
    const base = `/v1/projects/1/content/${itemA}/analytics?aggregation=all`;
    const summary = (await server.request('GET', `${base}&media_variants[]=summary`)).body[0];
    expect(summary.player_impressions.total).toBe(1);
    expect(summary.listens.total).toBe(0);
    expect(summary.listen_rate.total).toBe(0);
    const video = (await server.request('GET', `${base}&media_formats[]=video`)).body[0];
    expect(video.player_impressions).toEqual({ ...byDevice(1, { tablet: 1 }), andriod: 0 });
    const premium = (await server.request('GET', `${base}&access_tiers[]=premium`)).body[0];
    expect([premium.player_impressions.total, premium.listens.total, premium.listen_time.total]).toEqual([1, 1, 30]);
    const none = (await server.request('GET', `${base}&access_tiers[]=none`)).body[0];
    expect(none.player_impressions.total).toBe(3);
    const some = (await server.request('GET', `${base}&metrics[]=listens&metrics[]=listen_time`)).body[0];
    expect(some.listens.total).toBe(3);
    expect(some.listen_time.total).toBe(108);
    for (const metric of ['player_impressions', 'listen_rate', 'unique_listeners', 'avg_listen_time', 'avg_listen_duration', 'listener_retention']) expect(some[metric]).toBeNull();
  });

  it("answers a project's and the organization's figures over all their content, and ranks projects", async () => {
    const project = await one('/v1/projects/1/analytics?aggregation=all', 5);
    expect([project.listens.total, project.unique_listeners.total, project.listen_time.total, project.listen_rate.total]).toEqual([4, 3, 108, 0.8]);
    const organization = await one('/v1/organization/analytics?aggregation=all', 5);
    expect(organization.listens).toEqual(project.listens);
    const projects = (await server.request('GET', '/v1/projects/analytics')).body;
    expect(projects[0]).toMatchObject({ project: { id: 1, name: expect.any(String) }, listens: { total: 4 } });
  });

  it('ranks content by listens, paged', async () => {
    const rows = (await server.request('GET', '/v1/projects/1/content/analytics')).body;
    expect(rows.map((row: any) => [row.content, row.listens.total])).toEqual([
      [{ id: itemA, title: 'The river', source_id: 'river-1' }, 3],
      [{ id: itemB, title: 'The hill', source_id: 'hill-2' }, 1],
    ]);
    const second = (await server.request('GET', '/v1/projects/1/content/analytics?pagination[limit]=1&pagination[offset]=1')).body;
    expect(second.map((row: any) => row.content.id)).toEqual([itemB]);
  });

  it("counts an ad's impressions and clicks, once each per session", async () => {
    const rows = (await server.request('GET', '/v1/projects/1/ads/analytics')).body;
    expect(rows).toEqual([
      {
        ad: { id: adId, title: 'Spring sale' },
        impressions: byDevice(2, { desktop: 1, mobile_web: 1 }),
        clicks: byDevice(1, { desktop: 1 }),
        click_through_rate: byDevice(0.5, { desktop: 1 }),
      },
    ]);
    const records = (await server.request('GET', `/v1/projects/1/ads/${adId}/analytics?aggregation=all`)).body;
    expect(records).toEqual([{ start: expect.any(String), impressions: rows[0].impressions, clicks: rows[0].clicks, click_through_rate: rows[0].click_through_rate }]);
  });

  it("gives a record per period up to today's partial one, hours only for ranges of 7 days or less", async () => {
    const start = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const days = (await server.request('GET', `/v1/projects/1/content/${itemA}/analytics?aggregation=day&start_date=${start}&end_date=today`)).body;
    expect(days.map((day: any) => [day.start.slice(0, 10), day.player_impressions.total])).toEqual([
      [start, 0],
      [new Date(Date.now() - 86_400_000).toISOString().slice(0, 10), 0],
      [today, 4],
    ]);
    const hours = (await server.request('GET', `/v1/projects/1/analytics?aggregation=hour&start_date=${today}&end_date=${today}`)).body;
    expect(hours).toHaveLength(24);
    expect(hours[new Date().getUTCHours()].player_impressions.total).toBe(5);
    const eightDays = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    const refused = await server.request('GET', `/v1/projects/1/analytics?aggregation=hour&start_date=${eightDays}&end_date=today`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ location: 'aggregation', message: 'hour is only for ranges of 7 days or less' }]);
    const backwards = await server.request('GET', `/v1/projects/1/analytics?start_date=${today}&end_date=${start}`);
    expect(backwards.status).toBe(422);
    expect((await server.request('GET', '/v1/projects/1/analytics?aggregation=fortnight')).status).toBe(422);
    expect((await server.request('GET', '/v1/projects/1/analytics?start_date=2026-02-30')).status).toBe(422);
  });

  it("answers a day from its summary as from its cells, and from the cells where a day has no summary", async () => {
    const start = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const range = `start_date=${start}&end_date=today`;
    const daily = `/v1/projects/1/content/${itemA}/analytics?aggregation=day&${range}`;
    const days = (await server.request('GET', daily)).body;
    // Every cell asked for by name: the figures are summed from the cells, as they are over the whole range.
    const fromCells = (await server.request('GET', `${daily}&media_variants[]=article&media_variants[]=summary`)).body;
    const [whole] = (await server.request('GET', `/v1/projects/1/content/${itemA}/analytics?aggregation=all&${range}`)).body;
    expect(days).toEqual(fromCells);
    expect({ ...days.at(-1), start: whole.start }).toEqual(whole);
    expect(days.at(-1).unique_listeners).toEqual(byDevice(2, { desktop: 1, mobile_web: 1, android: 1 }));

    // A day counted before summaries were kept.
    const loaded = loadConfig(server.env);
    if (!loaded.ok) throw new Error(loaded.message);
    const read = await openReadStore(loaded.config);
    try {
      const rollups = read.collection('analyticsRollups');
      const summaries = await rollups.find({ scope: 'content', subject: itemA, grain: 'summary' });
      expect(summaries).toHaveLength(1);
      await rollups.deleteOne(summaries[0]!._id);
      expect((await server.request('GET', daily)).body).toEqual(days);
    } finally {
      await read.close();
    }
  });

  it('answers the same figures through GraphQL, with the same validation', async () => {
    const query = `query ($id: ID!) {
      contentAnalytics(project_id: 1, id: $id, query: { aggregation: "all", media_variants: ["article"] }) {
        start player_impressions { total desktop andriod } listens { total mobile_web } listener_retention { total }
      }
      topContentAnalytics(project_id: 1, pagination: { limit: 1 }) { content { id title } listens { total } }
      adsAnalytics(project_id: 1) { ad { id } clicks { total } click_through_rate { total } }
    }`;
    const reply = await server.request('POST', '/graphql', { body: { query, variables: { id: itemA } } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const rest = (await server.request('GET', `/v1/projects/1/content/${itemA}/analytics?aggregation=all&media_variants[]=article`)).body[0];
    expect(reply.body.data).toEqual({
      contentAnalytics: [
        {
          start: rest.start,
          player_impressions: { total: rest.player_impressions.total, desktop: rest.player_impressions.desktop, andriod: rest.player_impressions.andriod },
          listens: { total: 3, mobile_web: 1 },
          listener_retention: { total: rest.listener_retention.total },
        },
      ],
      topContentAnalytics: [{ content: { id: itemA, title: 'The river' }, listens: { total: 3 } }],
      adsAnalytics: [{ ad: { id: adId }, clicks: { total: 1 }, click_through_rate: { total: 0.5 } }],
    });
    const refused = await server.request('POST', '/graphql', { body: { query: '{ projectAnalytics(project_id: 1, query: { aggregation: "hour", start_date: "2026-01-01", end_date: "2026-01-31" }) { start } }' } });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID', status: 422, errors: [{ location: 'aggregation', message: 'hour is only for ranges of 7 days or less' }] });
  });

  it('keeps each key to what it may reach', async () => {
    const created = await server.request('POST', '/v1/projects', { body: { name: 'Other desk' } });
    expect(created.status).toBe(201);
    const other = created.body.id;
    expect((await server.request('GET', `/v1/projects/${other}/content/${itemA}/analytics`)).status).toBe(404);
    expect((await server.request('GET', '/v1/projects/99999/analytics')).status).toBe(404);
    expect((await server.request('GET', `/v1/projects/1/ads/999999/analytics`)).status).toBe(404);
    expect((await server.request('GET', '/v1/organization/analytics', { key: 'wrong' })).status).toBe(401);
  });
});
