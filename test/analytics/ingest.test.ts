// The player events endpoint: CORS as browsers need it, every refusal clear and harmless, durable at 200, and the
// NDJSON import of historical events (rejected lines reported, a second import adding nothing).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { eventually, listen, playerEvent, post } from './support.ts';

let server: TestServer;
let item: string;
const LIMIT = 400;

const impressions = async (expected: number) =>
  (await eventually<any[]>(server, `/v1/projects/1/content/${item}/analytics?aggregation=all`, (body) => body[0]?.player_impressions.total === expected))[0].player_impressions.total;

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_ANALYTICS: String(LIMIT) } });
  const created = await server.request('POST', '/v1/projects/1/content', { body: { title: 'Harbour news', body: 'Boats came in.' } });
  item = created.body.id;
  expect((await post(server, playerEvent({ content_id: item }))).status).toBe(200);
  expect(await impressions(1)).toBe(1);
});
afterAll(() => server.stop());

describe('the player events endpoint', () => {
  it('answers the preflight and the post for any origin, exactly 200, also for a sendBeacon text/plain body', async () => {
    const preflight = await fetch(`${server.baseUrl}/v1/analytics/events`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://news.example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    const posted = await post(server, playerEvent({ content_id: item }), { origin: 'https://news.example.com' });
    expect([posted.status, posted.body, posted.headers.get('access-control-allow-origin')]).toEqual([200, { accepted: 1 }, '*']);
    const beacon = await post(server, [playerEvent({ content_id: item })], { 'content-type': 'text/plain;charset=UTF-8' });
    expect([beacon.status, beacon.body]).toEqual([200, { accepted: 1 }]);
    // As every route: the caller's request id echoed (a new one otherwise, also in an error's body), a query ignored.
    const named = await server.request('POST', '/v1/analytics/events?from=player', { body: playerEvent({ content_id: item }), key: null, headers: { 'x-request-id': 'beacon-7' } });
    expect([named.status, named.headers.get('x-request-id'), named.headers.get('content-type')]).toEqual([200, 'beacon-7', 'application/json; charset=utf-8']);
    const refused = await server.request('POST', '/v1/analytics/events', { key: null, rawBody: '{' });
    // (The test server's `request` checks that an error body's request_id is its X-Request-Id.)
    expect([refused.status, refused.body.code]).toEqual([400, 400]);
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
    expect(await impressions(4)).toBe(4);
  });

  it('refuses what is not a valid batch of events with a clear 4xx, keeping none of it and the figures as they were', async () => {
    const good = playerEvent({ content_id: item });
    const refusals: [unknown, number, string][] = [
      ['{"event_type": "load",', 400, 'Malformed JSON'],
      [[good, { ...good, event_type: 'pause' }], 422, '[1].event_type'],
      [[good, { ...good, content_id: 'not-a-uuid' }], 422, '[1].content_id'],
      [[{ ...good, project_id: '1' }], 422, '[0].project_id'],
      [[{ ...good, project_id: 424242 }], 422, '[0].project_id'],
      [[{ ...good, content_id: randomUUID() }], 422, '[0].content_id'],
      [[{ ...good, listen_length_percent: 150 }], 422, '[0].listen_length_percent'],
      [[{ ...good, listen_session_id: null }], 422, '[0].listen_session_id'],
      [[{ ...good, media_type: 'ad', ad_id: null }], 422, '[0].ad_id'],
      [[], 422, 'body'],
      [Array.from({ length: 1_001 }, () => good), 422, 'body'],
      [Array.from({ length: 10_000 }, () => good), 413, 'Request body too large: at most 1048576 bytes'],
      ['"load"', 422, '[0]'],
    ];
    for (const [body, status, where] of refusals) {
      const reply = await server.request('POST', '/v1/analytics/events', { key: null, ...(typeof body === 'string' ? { rawBody: body } : { body }) });
      expect(reply.status, JSON.stringify(body).slice(0, 200)).toBe(status);
      expect(reply.headers.get('access-control-allow-origin')).toBe('*');
      if (status === 422) expect(reply.body.errors.map((error: { location: string }) => error.location).join(' '), JSON.stringify(reply.body)).toContain(where);
      else expect(reply.body.message).toBe(where);
    }
    const huge = await server.request('POST', '/v1/analytics/events', { key: null, rawBody: `[${' '.repeat(2 * 1024 * 1024)}]` });
    expect(huge.status).toBe(413);
    const wrongType = await server.request('POST', '/v1/analytics/events', { key: null, rawBody: JSON.stringify(good), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(wrongType.status).toBe(415);
    expect((await server.request('GET', '/v1/analytics/events', { key: null })).status).toBe(405);
    // A valid event after them all: only it counts.
    expect((await post(server, good)).status).toBe(200);
    expect(await impressions(5)).toBe(5);
  });

  it('loses none of the events it answered 200 for when the process is killed right after', async () => {
    const sent = Array.from({ length: 150 }, () => playerEvent({ content_id: item }));
    const replies = await Promise.all(sent.map((event) => post(server, event)));
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    await server.stop('SIGKILL');
    server = await startServer({ dataDir: server.dataDir, env: { RATE_LIMIT_ANALYTICS: String(LIMIT) } });
    expect(await impressions(155)).toBe(155);
  });

  it('limits each client address, answering 429 with Retry-After and the CORS header', async () => {
    let reply;
    for (let sent = 0; sent <= LIMIT; sent += 1) {
      reply = await server.request('POST', '/v1/analytics/events', { key: null, rawBody: '{', headers: { 'x-forwarded-for': '203.0.113.9' } });
      if (reply.status === 429) break;
    }
    expect(reply!.status).toBe(429);
    expect(Number(reply!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(reply!.headers.get('access-control-allow-origin')).toBe('*');
    // Another address is not held back.
    expect((await post(server, playerEvent({ content_id: item }), { 'x-forwarded-for': '203.0.113.10' })).status).toBe(200);
  });
});

describe('importing historical events', () => {
  it('stores the valid lines, reports the others by number and reason, and adds nothing the second time', async () => {
    const at = '2026-03-10T09:30:00Z';
    const lines = [
      ...listen({ content_id: item, created_at: at, local_storage_id: randomUUID() }, 20).map((event) => JSON.stringify(event)),
      '{"not json',
      JSON.stringify(playerEvent({ content_id: item, created_at: 'yesterday' })),
      JSON.stringify(playerEvent({ content_id: item, project_id: 31337, created_at: at })),
      JSON.stringify(playerEvent({ content_id: item, event_type: 'seek', created_at: at })),
      'x'.repeat(70_000),
      '',
    ];
    const file = path.join(server.dataDir, 'history.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const first = await cli(server.env, 'analytics', 'import', file);
    expect(first.stdout).toContain('4 events accepted (4 stored now, 0 stored by an earlier import of this file), 5 lines rejected');
    expect(first.stdout).toContain('line 5: not JSON');
    expect(first.stdout).toMatch(/line 6: created_at: /);
    expect(first.stdout).toContain("line 7: project_id: is not a project of this service");
    expect(first.stdout).toMatch(/line 8: event_type: /);
    expect(first.stdout).toContain('line 9: longer than 65536 bytes');
    expect(first.stderr).toMatch(/import \[#+\] [\d,]+ \/ [\d,]+ lines, [\d,]+ lines\/s, done/);
    expect(first.code).toBe(1);
    const day = await eventually<any[]>(server, `/v1/projects/1/content/${item}/analytics?start_date=2026-03-10&end_date=2026-03-10`, (body) => body[0]?.listens.total === 1);
    expect([day[0].start, day[0].player_impressions.total, day[0].listens.total, day[0].listen_time.total]).toEqual(['2026-03-10T00:00:00Z', 1, 1, 12]);
    const second = await cli(server.env, 'analytics', 'import', file);
    expect(second.stdout).toContain('4 events accepted (0 stored now, 4 stored by an earlier import of this file)');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const again = (await server.request('GET', `/v1/projects/1/content/${item}/analytics?start_date=2026-03-10&end_date=2026-03-10`)).body;
    expect(again).toEqual(day);
  });

  it("counts imported events in the project's own days: 23:50 and 00:10 in Kolkata are two days", async () => {
    const created = await server.request('POST', '/v1/projects', { body: { name: 'Mumbai desk', time_zone: 'Asia/Kolkata' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const project = created.body.id;
    const story = await server.request('POST', `/v1/projects/${project}/content`, { body: { title: 'Monsoon', body: 'Rain came early.' } });
    const event = (at: string) => JSON.stringify(playerEvent({ project_id: project, content_id: story.body.id, created_at: at }));
    const file = path.join(server.dataDir, 'kolkata.ndjson');
    writeFileSync(file, [event('2026-06-01T18:20:00Z'), event('2026-06-01T18:40:00Z')].join('\n'));
    expect((await cli(server.env, 'analytics', 'import', file)).code).toBe(0);
    const days = await eventually<any[]>(server, `/v1/projects/${project}/analytics?start_date=2026-06-01&end_date=2026-06-02`, (body) => body[1]?.player_impressions.total === 1);
    expect(days.map((record) => [record.start, record.player_impressions.total])).toEqual([
      ['2026-06-01T00:00:00+05:30', 1],
      ['2026-06-02T00:00:00+05:30', 1],
    ]);
    const hours = (await server.request('GET', `/v1/projects/${project}/analytics?aggregation=hour&start_date=2026-06-01&end_date=2026-06-01`)).body;
    expect(hours.at(-1)).toMatchObject({ start: '2026-06-01T23:00:00+05:30', player_impressions: { total: 1 } });
  });
});
