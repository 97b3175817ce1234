// An event the content projection cannot apply, appended through the event store (not the API), as an old
// release of the service let one in: it is quarantined, the service keeps serving, and it survives a restart.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { withEventStore } from '../support/eventStore.ts';
import { startServer, type TestServer } from '../support/server.ts';

/**
 * Arrays nested 3,700 deep in a structured field (`metadata` is kept as opaque JSON text): JSON and the event store
 * take them; read stores cannot (a deep copy overflows the stack, SQLite and MongoDB refuse the depth).
 */
function deepValue(depth = 3_700) {
  let nested: unknown = 'bottom';
  for (let level = 0; level < depth; level++) nested = [nested];
  return { a: nested };
}

let server: TestServer;
let poisonId: string;
let poisonPosition: number;
beforeAll(async () => {
  server = await startServer();
  const model = await server.request('POST', '/v1/projects/1/content', { body: { title: 'Model', body: '<p>A normal item.</p>' } });
  expect(model.status).toBe(201);
  poisonId = randomUUID();
  poisonPosition = await withEventStore(server.env, async (events) => {
    const [created] = await events.readStream(`content-${model.body.id}`);
    const data = created!.data as { fields: Record<string, unknown> };
    const poison = { ...data, contentId: poisonId, fields: { ...data.fields, title: 'Poison', backgroundTrack: deepValue() } };
    return (await events.appendToStream(`content-${poisonId}`, [{ type: 'ContentCreated', data: poison }], 'no_stream')).position;
  });
});
afterAll(() => server.stop());

const quarantineOf = async (target: TestServer) => (await target.request('GET', '/ready', { key: null })).body.quarantine;

async function createAndReadBack(target: TestServer, title: string) {
  const started = Date.now();
  const created = await target.request('POST', '/v1/projects/1/content', { body: { title, body: `<p>${title}.</p>` } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.title).toBe(title);
  const read = await target.request('GET', `/v1/projects/1/content/${created.body.id}`);
  expect(read.status).toBe(200);
  expect(Date.now() - started).toBeLessThan(5_000);
  return created.body.id as string;
}

describe('an event the content projection cannot apply', () => {
  it('is quarantined and reported by /ready, while writes and reads go on', async () => {
    await expect.poll(async () => (await quarantineOf(server)).count, { timeout: 10_000 }).toBe(1);
    // Every projection goes on past the poison (each at its own pace: on a remote store some are still catching up).
    const caughtUp = async () => ((await server.request('GET', '/ready', { key: null })).body.projections as { lag_seconds: number }[]).every(({ lag_seconds }) => lag_seconds === 0);
    await expect.poll(caughtUp, { timeout: 10_000 }).toBe(true);
    const ready = await server.request('GET', '/ready', { key: null });
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.quarantine.events).toEqual([{ projection: 'contentItems', position: poisonPosition, event_type: 'ContentCreated', since: expect.any(String), failures: 1 }]);
    expect(ready.body.projections.every((projection: { lag_seconds: number }) => projection.lag_seconds === 0)).toBe(true);

    const started = Date.now();
    const project = await server.request('POST', '/v1/projects', { body: { name: 'After the poison' } });
    expect(project.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2_000);
    await createAndReadBack(server, 'Written after the poison');

    const list = await server.request('GET', '/v1/projects/1/content?pagination[limit]=100');
    expect(list.status).toBe(200);
    expect(list.body.map((item: { title: string }) => item.title).sort()).toEqual(['Model', 'Written after the poison']);
    expect((await server.request('GET', `/v1/projects/1/content/${poisonId}`)).status).toBe(404);
  });

  it('is listed by the CLI, and a retry that fails again leaves it quarantined', async () => {
    const listed = await cli(server.env, 'projections', 'quarantine');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('1 event in quarantine:');
    expect(listed.stdout).toContain(`position ${poisonPosition}  contentItems  ContentCreated  content-${poisonId}`);
    // The error is the read store's: a stack overflow copying it in memory, SQLite's or MongoDB's refusal of its depth.
    expect(listed.stdout).toMatch(/1 failure, last: \w*Error: \S/);

    const retried = await cli(server.env, 'projections', 'quarantine', 'retry', String(poisonPosition));
    expect(retried.code).toBe(1);
    expect(retried.stdout).toMatch(new RegExp(`position ${poisonPosition}  contentItems: failed again: \\w*Error: \\S`));
    expect((await quarantineOf(server)).events[0].failures).toBe(2);

    const none = await cli(server.env, 'projections', 'quarantine', 'retry', String(poisonPosition + 1000));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`no event in quarantine at position ${poisonPosition + 1000}`);
  });

  it('does not keep a restarted service on the same data from starting and serving', async () => {
    await server.stop();
    server = await startServer({ dataDir: server.dataDir });
    const quarantine = await quarantineOf(server);
    expect(quarantine.count).toBe(1);
    expect(quarantine.events[0]).toMatchObject({ position: poisonPosition, failures: 2 });
    await createAndReadBack(server, 'Written after the restart');
    const listed = await cli(server.env, 'projections', 'quarantine');
    expect(listed.stdout).toContain('1 event in quarantine:');
  });
});
