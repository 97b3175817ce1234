import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

// `auto_segment_updates_enabled` left out of a create: true for `auto_segment` items (publishing plugins never send
// it and expect an edited post to be narrated again), false for the types whose segments or audio the client gives.
let server: TestServer;
let voice: number;

beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
  voice = (await server.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=en_US')).body[0].id;
}, 60_000);
afterAll(() => server.stop());

const create = async (body: Record<string, unknown>) => {
  const reply = await server.request('POST', '/v1/projects/1/content', { body: { title_enabled: false, body_voice_id: voice, ...body } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

describe('auto_segment_updates_enabled', () => {
  it('defaults to true for auto_segment items, to false for manual ones, and keeps what a create sends', async () => {
    expect((await create({ body: '<p>Left out.</p>' })).auto_segment_updates_enabled).toBe(true);
    expect((await create({ body: '<p>Null.</p>', auto_segment_updates_enabled: null })).auto_segment_updates_enabled).toBe(true);
    expect((await create({ body: '<p>Asked not to.</p>', auto_segment_updates_enabled: false })).auto_segment_updates_enabled).toBe(false);
    const manual = await create({ type: 'manual_segment', segments: [{ content_type: 'text', text: 'Given by hand.' }] });
    expect(manual.auto_segment_updates_enabled).toBe(false);
    const listed = (await server.request('GET', `/v1/projects/1/content/${manual.id}`)).body;
    expect(listed.auto_segment_updates_enabled).toBe(false);
  });

  it('narrates an edited item created without it again, and one created with false not', async () => {
    const [defaulted, declined] = await Promise.all([create({ body: '<p>First version.</p>' }), create({ body: '<p>First version.</p>', auto_segment_updates_enabled: false })]);
    const before = await Promise.all([settled(server, defaulted.id), settled(server, declined.id)]);
    expect(before.map((item) => item.status)).toEqual(['processed', 'processed']);
    for (const item of [defaulted, declined]) {
      const reply = await server.request('PUT', `/v1/projects/1/content/${item.id}`, { body: { body: '<p>First version.</p><p>A new paragraph.</p>' } });
      expect(reply.status).toBe(200);
    }
    const [again, kept] = await Promise.all([settled(server, defaulted.id), settled(server, declined.id)]);
    expect(again.status).toBe('processed');
    expect(again.segments.map((segment: any) => segment.text)).toEqual(['First version.', 'A new paragraph.']);
    expect(again.audio[0].url).toContain(`/${defaulted.id}/2/`);
    expect(kept.segments.map((segment: any) => segment.text)).toEqual(['First version.']);
    expect(kept.audio[0].url).toBe(before[1].audio[0].url);
  }, 120_000);
});
