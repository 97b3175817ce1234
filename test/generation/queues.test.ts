// A new item is narrated before a backlog of bulk work (regenerations) queued ahead of it, on the in-process runner
// and, with TEST_TEMPORAL_ADDRESS, on Temporal (the bulk task queue); the backlog is still all narrated, once each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longArticleHtml } from '../fixtures/longArticle.ts';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

const CONTENT = '/v1/projects/1/content';
const BACKLOG = 8;

let server: TestServer;
let voice: string;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true', GENERATION_CONCURRENCY: '2', GENERATION_BULK_CONCURRENCY: '1' } });
  // espeak-ng speaks fast, so the backlog's length is its narrations' encoding, not a neural engine's queue.
  const voices = (await server.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=en_GB')).body;
  voice = voices[0].id;
});
afterAll(() => server.stop());

const create = async (title: string, body: string) => {
  const created = await server.request('POST', CONTENT, { body: { title, body, title_voice_id: voice, body_voice_id: voice, summary_enabled: false } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
};
const statusOf = async (id: string) => (await server.request('GET', `${CONTENT}/${id}`)).body as { status: string; generation?: number };

describe('an interactive create and a backlog of bulk work', () => {
  it('narrates the new item while most of the regenerations queued before it still wait, then all of them', async () => {
    const ids: string[] = [];
    for (let n = 0; n < BACKLOG; n++) ids.push(await create(`Backlog ${n}`, longArticleHtml(500)));
    for (const id of ids) expect((await settled(server, id, 300_000)).status).toBe('processed');

    for (const id of ids) expect((await server.request('POST', `${CONTENT}/${id}/regenerate`)).status).toBe(200);
    const fresh = await create('Just in', '<p>The bridge reopened this morning after a week of repairs.</p>');
    const done = await settled(server, fresh, 120_000);
    expect(done.status, done.error).toBe('processed');
    const waiting = (await Promise.all(ids.map(statusOf))).filter((item) => item.status === 'queued' || item.status === 'processing');
    // In arrival order (the old runner) the new item came after every regeneration; now at most the one or two
    // bulk narrations under way when it came finished first.
    expect(waiting.length).toBeGreaterThanOrEqual(BACKLOG - 3);

    for (const id of ids) {
      const item = await settled(server, id, 300_000);
      expect(item.status, item.error).toBe('processed');
      expect(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url).toContain(`/${id}/2/`);
    }
  }, 900_000);
});
