import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let heart: any;
let emma: any;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
  const kokoro = (await server.request('GET', '/v1/organization/voices?filter[engine]=kokoro')).body;
  heart = kokoro.find((voice: any) => voice.name === 'Heart');
  emma = kokoro.find((voice: any) => voice.name === 'Emma');
});
afterAll(() => server.stop());

const createVoice = (body: unknown) => server.request('POST', '/v1/organization/voices', { body });

// Runs once, in the embedded run: the real-server run (TEST_MONGODB_URL set) changes only where events and read
// models are kept, and the same blends would be spoken again.
describe.skipIf(process.env.TEST_MONGODB_URL)('Kokoro blends', () => {
  it('makes a voice of Heart and Emma that narrates, and changes or clears its blend', async () => {
    const created = await createVoice({ name: 'Atlantic', base_voice: { id: heart.id }, blend: [{ voice: { id: emma.id }, weight: 0.4 }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ engine: 'kokoro', type: 'custom', gender: 'female', base_voice: { id: heart.id, name: 'Heart' }, blend: [{ voice: { id: emma.id, name: 'Emma' }, weight: 0.4 }] });

    const item = await server.request('POST', '/v1/projects/1/content', {
      body: { type: 'manual_segment', title: 'Ferry', segments: [{ content_type: 'text', section: 'body', text: 'The ferry leaves at noon.', voice: { id: created.body.id } }] },
    });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    const narrated = await settled(server, item.body.id, 60_000);
    expect(narrated.status, narrated.error).toBe('processed');
    expect(narrated.segments[0].voice).toEqual({ id: created.body.id, name: 'Atlantic' });
    expect(narrated.duration).toBeGreaterThan(500);

    const kept = await server.request('PUT', `/v1/organization/voices/${created.body.id}`, { body: { speed: 1.2 } });
    expect(kept.body).toMatchObject({ speed: 1.2, blend: created.body.blend });
    const cleared = await server.request('PUT', `/v1/organization/voices/${created.body.id}`, { body: { blend: null } });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body).toMatchObject({ blend: null, speed: 1.2, base_voice: { id: heart.id } });
  });

  it('refuses blends with espeak-ng or Piper voices, and weights that leave the base voice nothing', async () => {
    const espeak = (await server.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=en_US')).body[0];
    const joe = (await server.request('GET', '/v1/organization/voices?filter[engine]=piper')).body[0];
    for (const body of [
      { name: 'Mixed', base_voice: { id: heart.id }, blend: [{ voice: { id: espeak.id }, weight: 0.3 }] },
      { name: 'Mixed', base_voice: { id: heart.id }, blend: [{ voice: { id: joe.id }, weight: 0.3 }] },
      { name: 'Mixed', base_voice: { id: joe.id }, blend: [{ voice: { id: emma.id }, weight: 0.3 }] },
    ]) {
      const refused = await createVoice(body);
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([{ location: 'blend', message: expect.stringMatching(/only Kokoro voices blend; .+ is a (espeak-ng|piper) voice/) }]);
    }
    const heavy = await createVoice({ name: 'Heavy', base_voice: { id: heart.id }, blend: [{ voice: { id: emma.id }, weight: 1 }] });
    expect(heavy.status).toBe(422);
    expect(heavy.body.errors[0].location).toMatch(/^blend/);
  });

  it('designs a warm deep man as a blend of Kokoro voices, and keeps the blend', async () => {
    const text = 'The evening news, read slowly and warmly, one story after another, until the very last one of the night.';
    const designed = await server.request('POST', '/v1/organization/voices/design_previews', { body: { voice_description: 'a warm deep American man with a slow pace', text } });
    expect(designed.status, JSON.stringify(designed.body).slice(0, 300)).toBe(200);
    const kept = [];
    for (const preview of designed.body.previews) {
      const voice = await server.request('POST', '/v1/organization/voices/finalize_design', { body: { generated_voice_id: preview.generated_voice_id, voice_name: 'Late host' } });
      expect(voice.status, JSON.stringify(voice.body)).toBe(201);
      kept.push(voice.body);
    }
    const blended = kept.find((voice) => voice.blend !== null);
    expect(blended).toMatchObject({ type: 'designed', engine: 'kokoro', gender: 'male', language: { code: 'en_US' }, base_voice: { name: 'Michael' }, blend: [{ voice: { name: 'Fenrir' }, weight: 0.4 }] });
    expect(blended.speed).toBeLessThan(1);

    const bright = await server.request('POST', '/v1/organization/voices/design_previews', { body: { voice_description: 'a bright young American woman, quick and clear', text } });
    const ids = (body: any) => body.previews.map((preview: any) => preview.generated_voice_id);
    expect(ids(bright.body).filter((id: string) => ids(designed.body).includes(id))).toEqual([]);
  }, 300_000); // two design requests, each spoken by Kokoro
});
