// A project's content_total_count and content_updated, kept by the projection, through creates, updates, deletes and a rebuild.
import { afterAll, describe, expect, it } from 'vitest';
import { newDataDir, serverEnv, startServer, type TestServer } from '../support/server.ts';
import { cli } from '../support/cli.ts';

const dataDir = newDataDir();
let server: TestServer | undefined;
afterAll(() => server?.stop());

interface Item {
  id: string;
  updated: string;
}

/** What the project shows, by its own route and in the project list, which must agree. */
async function statsOf(running: TestServer) {
  const project = await running.request('GET', '/v1/projects/1');
  expect(project.status).toBe(200);
  const listed = (await running.request('GET', '/v1/projects')).body.find((p: { id: number }) => p.id === 1);
  expect(listed).toMatchObject({ content_total_count: project.body.content_total_count, content_updated: project.body.content_updated });
  return { total: project.body.content_total_count as number, updated: project.body.content_updated as string | null };
}

/** The same numbers counted from the items themselves. */
async function counted(running: TestServer) {
  const items = (await running.request('GET', '/v1/projects/1/content?pagination[limit]=100&segments=none')).body as Item[];
  const newest = items.map((item) => item.updated).sort().at(-1) ?? null;
  return { total: items.length, updated: newest };
}

describe('project content statistics', () => {
  it('follow creates, updates, deletes and batch deletes, and a rebuild gives the same', async () => {
    server = await startServer({ dataDir });
    expect(await statsOf(server)).toEqual({ total: 0, updated: null });

    const ids: string[] = [];
    for (const title of ['Council budget', 'Harbour reopens', 'Rail strike', 'School year', 'Market day']) {
      const created = await server.request('POST', '/v1/projects/1/content', { body: { title, body: `<p>${title}.</p>` } });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    expect(await statsOf(server)).toEqual({ total: 5, updated: (await counted(server)).updated });

    // The oldest item becomes the newest update, then leaves: the newest update falls back to the next one.
    const touched = await server.request('PUT', `/v1/projects/1/content/${ids[0]}`, { body: { title: 'Council budget, amended' } });
    expect(await statsOf(server)).toEqual({ total: 5, updated: touched.body.updated });
    expect((await server.request('DELETE', `/v1/projects/1/content/${ids[0]}`)).status).toBe(204);
    const afterDelete = await statsOf(server);
    expect(afterDelete).toEqual(await counted(server));
    expect(afterDelete.total).toBe(4);
    expect(afterDelete.updated! < touched.body.updated).toBe(true);

    const batch = await server.request('POST', '/v1/projects/1/content/batch_delete', { body: { ids: [ids[4], ids[3], ids[0], 'no-such-item'] } });
    expect(batch.status).toBe(204);
    expect(await statsOf(server)).toEqual({ total: 2, updated: (await counted(server)).updated });
    const before = await statsOf(server);
    await server.stop();
    server = undefined;

    const rebuilt = await cli(serverEnv(dataDir), 'projections', 'rebuild', 'contentItems');
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    server = await startServer({ dataDir });
    expect(await statsOf(server)).toEqual(before);

    await server.request('POST', '/v1/projects/1/content', { body: { title: 'After the rebuild', body: '<p>Later.</p>' } });
    expect(await statsOf(server)).toEqual(await counted(server));
    expect((await statsOf(server)).total).toBe(3);
  }, 120_000);
});
