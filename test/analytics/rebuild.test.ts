// Backfills: the analytics rebuilt from the stored player events while the service serves and takes new events give
// the live figures.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWithin } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { generateTraffic } from '../../bench/traffic.ts';
import { eventually, playerEvent, post } from './support.ts';

let server: TestServer;
let items: string[];
let quiet: string;
const SESSIONS = 3_000;
const start = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
const range = `start_date=${start}&end_date=today`;

/** Every figure a publisher can read of the project: per day, per item, per ad. */
const figures = async () => ({
  days: (await server.request('GET', `/v1/projects/1/analytics?${range}`)).body,
  top: (await server.request('GET', `/v1/projects/1/content/analytics?${range}&pagination[limit]=100`)).body,
  ads: (await server.request('GET', `/v1/projects/1/ads/analytics?${range}`)).body,
});

const longCli = (...args: string[]) => cliWithin(240_000, { ...server.env }, ...args);

beforeAll(async () => {
  server = await startServer();
  items = [];
  for (const title of ['Tides', 'Storms', 'Harvest', 'Elections', 'Quiet']) {
    items.push((await server.request('POST', '/v1/projects/1/content', { body: { title, body: `${title} today.` } })).body.id);
  }
  quiet = items.pop()!;
  const ad = await server.request('POST', '/v1/projects/1/ads', { body: { type: 'custom', media_url: 'https://ads.example.com/b.mp3', title: 'Bakery' } });
  const file = path.join(server.dataDir, 'traffic.ndjson');
  const events = generateTraffic({ projectId: 1, contentIds: items, adIds: [ad.body.id], sessions: SESSIONS, from: new Date(Date.now() - 30 * 86_400_000), to: new Date(), seed: 27 });
  writeFileSync(file, [...events].map((event) => JSON.stringify(event)).join('\n'));
  const imported = await longCli('analytics', 'import', file);
  expect(imported.code, imported.stderr).toBe(0);
  await eventually<any[]>(server, `/v1/projects/1/analytics?aggregation=all&${range}`, (body) => body[0]?.player_impressions.total === SESSIONS, 60_000);
}, 120_000);
afterAll(() => server.stop());

describe('analytics backfills', () => {
  it('rebuild from the raw events into shadows, swapped in while new events arrive, equal to the live figures', async () => {
    const before = await figures();
    expect(before.top.length).toBe(4);
    expect(before.days.reduce((sum: number, day: any) => sum + day.listens.total, 0)).toBeGreaterThan(SESSIONS / 5);
    let writing = true;
    let posted = 0;
    const writer = (async () => {
      while (writing) {
        expect((await post(server, playerEvent({ content_id: quiet }))).status).toBe(200);
        posted += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    // On two threads, each counting 2,000 player events at a time: every step after a thread's first reads what its
    // steps before wrote, and the projects' figures are the sums of both threads' counts.
    const rebuilt = await cliWithin(240_000, { ...server.env, ANALYTICS_REBUILD_EVENTS: '2000' }, 'analytics', 'rebuild', '--threads', '2');
    writing = false;
    await writer;
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toMatch(/rebuild \[#+\] [\d,]+ \/ [\d,]+ events, [\d,]+ events\/s, done/);
    expect(rebuilt.stderr).toContain('counting on 2 threads');
    expect(rebuilt.stderr).not.toContain('counting on one thread');
    expect(rebuilt.stdout).toMatch(/analytics: rebuilt to position \d+ \(\d+ analyticsRollups, \d+ analyticsListens\)/);
    const loaded = /analytics: ([\d,]+) player events loaded in bulk; served from the rebuilt read model [\d.]+ s after the start \([\d,]+ player events\/s\)/.exec(rebuilt.stdout);
    expect(Number(loaded?.[1]?.replaceAll(',', ''))).toBeGreaterThan(SESSIONS);
    expect(posted).toBeGreaterThan(0);
    const quietRow = (top: any[]) => top.find((row) => row.content.id === quiet);
    const after = await eventually<any[]>(server, `/v1/projects/1/content/analytics?${range}&pagination[limit]=100`, (top) => quietRow(top)?.player_impressions.total === posted);
    expect(quietRow(after).player_impressions.total).toBe(posted);
    const now = await figures();
    expect(now.top.filter((row: any) => row.content.id !== quiet)).toEqual(before.top);
    expect(now.ads).toEqual(before.ads);
    const withoutQuiet = (days: any[]) => days.map((day) => ({ ...day, player_impressions: null, listen_rate: null }));
    expect(withoutQuiet(now.days)).toEqual(withoutQuiet(before.days));
  });

  it('rebuild of some days counts them again in the time zone the project has now, and keeps the others as they were', async () => {
    const dayBefore = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    const daily = async () => (await server.request('GET', `/v1/projects/1/analytics?start_date=${dayBefore(22)}&end_date=${dayBefore(3)}`)).body.map(({ start, ...figures }: any) => figures);
    const before = await daily();
    expect(before).toHaveLength(20);
    // Counted in UTC days until now; in Kolkata's, 5.5 hours ahead, the same events fall on other days.
    expect((await server.request('PUT', '/v1/projects/1', { body: { time_zone: 'Asia/Kolkata' } })).status).toBe(200);
    const refused = await longCli('analytics', 'rebuild', '--from', dayBefore(9));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--from and --to go together');
    // Some days on three threads; then all on one: the same counts.
    const ranged = await longCli('analytics', 'rebuild', '--from', dayBefore(9), '--to', dayBefore(3), '--threads', '3');
    expect(ranged.code, ranged.stderr).toBe(0);
    expect(ranged.stderr).toContain('counting on 3 threads');
    const some = await daily();
    const whole = await longCli('analytics', 'rebuild', '--threads', '1');
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).not.toContain('counting on');
    const all = await daily();
    expect(all.slice(0, 13)).not.toEqual(before.slice(0, 13));
    // The 13 days before --from as they were; the 7 from --from to --to as a whole rebuild counts them.
    expect(some.slice(0, 13)).toEqual(before.slice(0, 13));
    expect(some.slice(13)).toEqual(all.slice(13));
  });
});
