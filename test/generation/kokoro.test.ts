import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDurationMs } from '../../src/media/probe.ts';
import { download, expectSpokenWords, settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'kokoro-generation-'));

// Runs once, in the embedded run: the real-server run (TEST_MONGODB_URL set) changes only where events and read
// models are kept, and the same Kokoro narration would be made again.
describe.skipIf(process.env.TEST_MONGODB_URL)('with Kokoro installed (npm run setup)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
  });
  afterAll(() => server.stop());

  it('says so at start, and narrates an item with an American and a British Kokoro voice: every written word timed in order inside its segment', async () => {
    expect(server.output()).toMatch(/speech: Kokoro voices Heart \(en_US\), .*George \(en_GB\)/);
    const kokoro = (await server.request('GET', '/v1/organization/voices?filter[engine]=kokoro')).body;
    const heart = kokoro.find((voice: any) => voice.name === 'Heart');
    const george = kokoro.find((voice: any) => voice.name === 'George');
    const created = await server.request('POST', '/v1/projects/1/content', {
      body: {
        title: 'The harbour ferry',
        title_voice_id: george.id,
        body_voice_id: heart.id,
        body: '<p>In 2027, the new ferry will carry 300 people across the bay.</p><p>Tickets cost $4.50, and children travel free.</p>',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const item = await settled(server, created.body.id, 90_000);
    expect(item.status, item.error).toBe('processed');
    const mp3 = await download(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url, scratch);
    expect(Math.abs((await probeDurationMs(mp3)) - item.duration)).toBeLessThanOrEqual(50);
    const spoken = item.segments.filter((segment: any) => segment.content_type === 'text');
    expect(spoken.map((segment: any) => segment.voice.name)).toEqual(['George', 'Heart', 'Heart']);
    for (const segment of spoken) {
      expectSpokenWords(segment, 800);
    }
  });

  it('designs a British woman with Kokoro\'s Emma first, kept as a designed voice of en_GB', async () => {
    const designed = await server.request('POST', '/v1/organization/voices/design_previews', { body: { voice_description: 'A warm British woman reading the evening news' } });
    expect(designed.status, JSON.stringify(designed.body).slice(0, 300)).toBe(200);
    expect(designed.body.previews[0]).toMatchObject({ language: 'en_GB', duration_secs: expect.any(Number) });
    const kept = await server.request('POST', '/v1/organization/voices/finalize_design', {
      body: { generated_voice_id: designed.body.previews[0].generated_voice_id, voice_name: 'Evening news' },
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    expect(kept.body).toMatchObject({ engine: 'kokoro', base_voice: { name: 'Emma' }, gender: 'female', accent: 'British', language: { code: 'en_GB' }, type: 'designed' });
    expect(kept.body.speed).toBeLessThan(1);
  }, 300_000); // its previews are Kokoro's
});
