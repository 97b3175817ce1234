import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDurationMs } from '../../src/media/probe.ts';
import { cli, keyIn } from '../support/cli.ts';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'voices-api-'));
const SENTENCE = 'The council met on Tuesday and agreed to open the new library in the spring.';

let server: TestServer;
let joe: any;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
  joe = (await server.request('GET', '/v1/organization/voices?filter[engine]=piper')).body.find((voice: any) => voice.name === 'Joe');
});
afterAll(() => server.stop());

/** Narrates one sentence with a voice; answers the processed item. */
async function narrate(voiceId: number) {
  const created = await server.request('POST', '/v1/projects/1/content', {
    body: { type: 'manual_segment', title: 'Library', segments: [{ content_type: 'text', section: 'body', text: SENTENCE, voice: { id: voiceId } }] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const item = await settled(server, created.body.id, 90_000);
  expect(item.status, item.error).toBe('processed');
  return item;
}

const createVoice = (body: unknown, key?: string) => server.request('POST', '/v1/organization/voices', { body, ...(key ? { key } : {}) });

describe('the voice catalogue', () => {
  it('answers what the WordPress plugin asks: Joe first-class for en_US, other English regions as secondary', async () => {
    expect(joe).toEqual({
      id: expect.any(Number),
      name: 'Joe',
      language: { code: 'en_US', name: 'American English' },
      gender: 'male',
      accent: 'American',
      engine: 'piper',
      type: 'stock',
      speed: 1,
      scopes: ['primary'],
      base_voice: null,
      variant: null,
      blend: null,
      shift: null,
      description: null,
      created: null,
      updated: null,
    });
    const both = (await server.request('GET', '/v1/organization/voices?filter[language.code]=en_US&filter[scopes][]=primary&filter[scopes][]=secondary')).body;
    expect(both).toContainEqual(expect.objectContaining({ id: joe.id, scopes: ['primary'] }));
    expect(both).toContainEqual(expect.objectContaining({ language: expect.objectContaining({ code: 'en_GB' }), scopes: ['secondary'] }));
    for (const voice of both) expect(voice.language.code.startsWith('en')).toBe(true);
    const primary = (await server.request('GET', '/v1/organization/voices?filter[language.code]=en_US')).body;
    expect(primary.every((voice: any) => voice.language.code === 'en_US' && voice.scopes[0] === 'primary')).toBe(true);
    const secondary = (await server.request('GET', '/v1/organization/voices?filter[language.code]=en_US&filter[scopes][]=secondary')).body;
    expect(secondary.length).toBe(both.length - primary.length);
  });

  it('filters by gender, engine and type, and refuses unknown values', async () => {
    const male = (await server.request('GET', '/v1/organization/voices?filter[gender]=male')).body;
    expect(male).toContainEqual(expect.objectContaining({ id: joe.id }));
    expect(male.every((voice: any) => voice.gender === 'male')).toBe(true);
    const espeak = (await server.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=de')).body;
    expect(espeak.length).toBeGreaterThan(0);
    expect(espeak.every((voice: any) => voice.engine === 'espeak-ng' && voice.language.code.startsWith('de'))).toBe(true);
    expect((await server.request('GET', '/v1/organization/voices?filter[type]=stock')).body.every((voice: any) => voice.type === 'stock')).toBe(true);
    const kokoro = (await server.request('GET', '/v1/organization/voices?filter[engine]=kokoro&filter[language.code]=en&filter[scopes][]=primary')).body;
    expect(kokoro.map((voice: any) => [voice.name, voice.gender, voice.accent, voice.language.code])).toEqual([
      ['Heart', 'female', 'American', 'en_US'],
      ['Bella', 'female', 'American', 'en_US'],
      ['Michael', 'male', 'American', 'en_US'],
      ['Fenrir', 'male', 'American', 'en_US'],
      ['Emma', 'female', 'British', 'en_GB'],
      ['George', 'male', 'British', 'en_GB'],
    ]);
    for (const query of ['filter[gender]=robot', 'filter[engine]=festival', 'filter[type]=cloned', 'filter[scopes][]=tertiary', 'filter[language.code]=english']) {
      const refused = await server.request('GET', `/v1/organization/voices?${query}`);
      expect(refused.status, query).toBe(422);
    }
  });

  it('gives every language an accent and default voices for each section: Joe for American English', async () => {
    const languages = (await server.request('GET', '/v1/organization/languages')).body;
    expect(languages.length).toBeGreaterThan(50);
    for (const language of languages) {
      expect(language.code).toMatch(/^[a-z]{2}(_[A-Z]{2})?$/);
      expect(language.name.length).toBeGreaterThan(0);
      expect(language.accent.length).toBeGreaterThan(0);
      for (const section of ['title', 'body', 'summary']) expect(language.default_voices[section].id).toBeGreaterThan(0);
    }
    const american = languages.find((language: any) => language.code === 'en_US');
    expect(american).toEqual({ code: 'en_US', name: 'American English', accent: 'American', default_voices: { title: { id: joe.id, name: 'Joe' }, body: { id: joe.id, name: 'Joe' }, summary: { id: joe.id, name: 'Joe' } } });
    expect(languages.find((language: any) => language.code === 'en_GB').accent).toBe('British');
  });

  it('gets a stock voice by id; unknown ids are 404', async () => {
    expect((await server.request('GET', `/v1/organization/voices/${joe.id}`)).body).toEqual(joe);
    expect((await server.request('GET', '/v1/organization/voices/999')).status).toBe(404);
    expect((await server.request('GET', '/v1/organization/voices/joe')).status).toBe(404);
  });

  it('lists the project\'s voices: its region\'s first, then the language\'s others', async () => {
    const voices = (await server.request('GET', '/v1/projects/1/voices')).body;
    expect(voices.length).toBeGreaterThan(1);
    const firstSecondary = voices.findIndex((voice: any) => voice.scopes[0] === 'secondary');
    expect(voices.slice(firstSecondary).every((voice: any) => voice.scopes[0] === 'secondary')).toBe(true);
    expect((await server.request('GET', '/v1/projects/999/voices')).status).toBe(404);
  });
});

describe('custom voices', () => {
  it('narrates with a faster Joe: the same sentence is measurably shorter', async () => {
    const created = await createVoice({ name: 'Brisk Joe', base_voice: { id: joe.id }, speed: 1.3 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      ...joe,
      id: expect.any(Number),
      name: 'Brisk Joe',
      type: 'custom',
      speed: 1.3,
      base_voice: { id: joe.id, name: 'Joe' },
      created: expect.any(String),
      updated: created.body.created,
    });
    expect((await server.request('GET', '/v1/organization/voices?filter[type]=custom')).body).toContainEqual(created.body);
    const [stock, brisk] = await Promise.all([narrate(joe.id), narrate(created.body.id)]);
    expect(brisk.segments[0].voice).toEqual({ id: created.body.id, name: 'Brisk Joe' });
    // From the first word's start to the last word's end: the silence around a segment does not change with speed.
    const spoken = (item: any) => {
      const words = item.segments[0].words;
      return words.at(-1).start_time + words.at(-1).duration - words[0].start_time;
    };
    const ratio = spoken(brisk) / spoken(stock);
    console.log(`speed 1.3: speech ${spoken(brisk)} ms against ${spoken(stock)} ms (ratio ${ratio.toFixed(3)}); items ${brisk.duration} and ${stock.duration} ms`);
    expect(ratio).toBeLessThan(0.85);
    expect(ratio).toBeGreaterThan(0.65);
    expect(brisk.duration).toBeLessThan(stock.duration);
  });

  it('changes and deletes custom voices; stock voices are refused with 409', async () => {
    const espeakUs = (await server.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=en_US')).body[0];
    const created = (await createVoice({ name: 'Slow reader', base_voice: { id: espeakUs.id }, speed: 0.8, variant: 'f3' })).body;
    expect(created).toMatchObject({ engine: 'espeak-ng', gender: 'female', variant: 'f3', speed: 0.8, type: 'custom' });
    const female = (await server.request('GET', '/v1/organization/voices?filter[gender]=female&filter[type]=custom')).body;
    expect(female.map((voice: any) => voice.id)).toEqual([created.id]);
    const changed = await server.request('PUT', `/v1/organization/voices/${created.id}`, { body: { name: 'Steady reader', speed: 1.1, variant: null } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: created.id, name: 'Steady reader', speed: 1.1, variant: null, gender: espeakUs.gender, created: created.created });
    expect((await server.request('GET', `/v1/organization/voices/${created.id}`)).body).toEqual(changed.body);

    const piperVariant = await server.request('PUT', `/v1/organization/voices/${created.id}`, { body: { base_voice: { id: joe.id }, variant: 'f2' } });
    expect(piperVariant.status).toBe(422);
    expect(piperVariant.body.errors).toEqual([{ location: 'variant', message: expect.stringContaining('only espeak-ng voices have variants') }]);

    expect((await server.request('DELETE', `/v1/organization/voices/${created.id}`)).status).toBe(204);
    expect((await server.request('GET', `/v1/organization/voices/${created.id}`)).status).toBe(404);
    expect((await server.request('DELETE', `/v1/organization/voices/${created.id}`)).status).toBe(404);

    const stockDelete = await server.request('DELETE', `/v1/organization/voices/${joe.id}`);
    expect(stockDelete.status).toBe(409);
    expect(stockDelete.body.message).toMatch(/Stock voices cannot be changed or deleted/);
    expect((await server.request('PUT', `/v1/organization/voices/${joe.id}`, { body: { speed: 1.2 } })).status).toBe(409);
  });

  it('refuses bad bodies with 422, project keys with 403, and keeps voices within their organization', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'X', base_voice: { id: 999 } }, 'base_voice.id'],
      [{ name: 'X', base_voice: { id: joe.id }, speed: 3 }, 'speed'],
      [{ name: '', base_voice: { id: joe.id } }, 'name'],
      [{ name: 'X', base_voice: { id: joe.id }, variant: 'f3' }, 'variant'],
      [{ name: 'X' }, 'base_voice'],
    ];
    for (const [body, location] of cases) {
      const refused = await createVoice(body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.errors.map((error: any) => error.location)).toContain(location);
    }
    const projectKey = keyIn((await cli(server.env, 'keys', 'create', '--organization', '1', '--project', '1')).stdout);
    const rivalKey = keyIn((await cli(server.env, 'organizations', 'create', '--name', 'Rival Voices')).stdout);
    const ours = (await createVoice({ name: 'Ours', base_voice: { id: joe.id } })).body;
    await expect.poll(async () => (await createVoice({ name: 'Mine', base_voice: { id: joe.id } }, projectKey)).status, { timeout: 10_000 }).toBe(403);
    expect((await server.request('GET', `/v1/organization/voices/${ours.id}`, { key: projectKey })).status).toBe(200);
    await expect.poll(async () => (await server.request('GET', `/v1/organization/voices/${ours.id}`, { key: rivalKey })).status, { timeout: 10_000 }).toBe(404);
    expect((await server.request('GET', '/v1/organization/voices?filter[type]=custom', { key: rivalKey })).body).toEqual([]);
    expect((await server.request('DELETE', `/v1/organization/voices/${ours.id}`, { key: rivalKey })).status).toBe(404);
  });
});

// Runs once, in the embedded run: the real-server run (TEST_MONGODB_URL set) changes only where events and read
// models are kept, and the same Kokoro previews would be spoken again.
describe.skipIf(process.env.TEST_MONGODB_URL)('voice design', () => {
  it('speaks previews that fit a description, and keeps one as a designed voice that narrates', async () => {
    const text = 'Good evening. Tonight we look at the harbour, the market and the people who keep both of them running.';
    const designed = await server.request('POST', '/v1/organization/voices/design_previews', {
      body: { voice_description: 'A calm, slow older woman with a warm and gentle voice', text },
    });
    expect(designed.status, JSON.stringify(designed.body).slice(0, 300)).toBe(200);
    expect(designed.body.text).toBe(text);
    expect(designed.body.previews.length).toBeGreaterThan(0);
    for (const [index, preview] of designed.body.previews.entries()) {
      expect(preview).toEqual({ generated_voice_id: expect.any(String), audio_base_64: expect.any(String), duration_secs: expect.any(Number), language: 'en_US' });
      const mp3 = path.join(scratch, `preview-${index}.mp3`);
      writeFileSync(mp3, Buffer.from(preview.audio_base_64, 'base64'));
      const heard = await probeDurationMs(mp3);
      // mp3 framing adds a few tens of milliseconds; 19 words slowly spoken take 5 to 15 s.
      expect(Math.abs(heard - preview.duration_secs * 1000)).toBeLessThan(150);
      expect(preview.duration_secs).toBeGreaterThan(5);
      expect(preview.duration_secs).toBeLessThan(15);
    }

    const kept = await server.request('POST', '/v1/organization/voices/finalize_design', {
      body: { generated_voice_id: designed.body.previews[0].generated_voice_id, voice_name: 'Evening host', voice_description: 'calm and slow' },
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    expect(kept.body).toMatchObject({ name: 'Evening host', type: 'designed', gender: 'female', description: 'calm and slow', language: { code: 'en_US' } });
    expect(kept.body.speed).toBeLessThan(1);
    const item = await narrate(kept.body.id);
    expect(item.segments[0].voice).toEqual({ id: kept.body.id, name: 'Evening host' });
    expect(item.duration).toBeGreaterThan(2_000);
  }, 300_000); // previews are Kokoro's, spoken side by side by its workers, the model loaded at the first

  it('gives a fast man the neural voice, sped up; a young one Kokoro\'s, shifted up; the default text when none is sent', async () => {
    const designed = (await server.request('POST', '/v1/organization/voices/design_previews', { body: { voice_description: 'A fast, energetic man reading the news' } })).body;
    expect(designed.text.length).toBeGreaterThanOrEqual(100);
    const kept = (await server.request('POST', '/v1/organization/voices/finalize_design', { body: { generated_voice_id: designed.previews[0].generated_voice_id, voice_name: 'Newsreader' } })).body;
    expect(kept).toMatchObject({ engine: 'piper', base_voice: { id: joe.id, name: 'Joe' }, gender: 'male', description: null, shift: null });
    expect(kept.speed).toBeGreaterThan(1.2);
    const young = (await server.request('POST', '/v1/organization/voices/design_previews', { body: { voice_description: 'A fast, energetic young man reading the news' } })).body;
    const youngKept = (await server.request('POST', '/v1/organization/voices/finalize_design', { body: { generated_voice_id: young.previews[0].generated_voice_id, voice_name: 'Young newsreader' } })).body;
    expect(youngKept).toMatchObject({ engine: 'kokoro', base_voice: { name: 'Michael' }, gender: 'male', variant: null });
    expect(youngKept.shift.semitones).toBeGreaterThan(0);
  }, 300_000);

  it('refuses short descriptions and texts, and ids it did not give', async () => {
    const short = await server.request('POST', '/v1/organization/voices/design_previews', { body: { voice_description: 'a woman' } });
    expect(short.status).toBe(422);
    expect(short.body.errors[0].location).toBe('voice_description');
    const shortText = await server.request('POST', '/v1/organization/voices/design_previews', { body: { voice_description: 'A calm woman with a warm voice', text: 'Too short.' } });
    expect(shortText.status).toBe(422);
    expect(shortText.body.errors[0].location).toBe('text');
    const longText = await server.request('POST', '/v1/organization/voices/design_previews', { body: { voice_description: 'A calm woman with a warm voice', text: 'Word after word. '.repeat(30) } });
    expect(longText.status).toBe(422);
    expect(longText.body.errors[0].location).toBe('text');
    for (const id of ['not-an-id', Buffer.from('[999,null,1]').toString('base64url'), Buffer.from(`[${joe.id},"f3",1]`).toString('base64url')]) {
      const refused = await server.request('POST', '/v1/organization/voices/finalize_design', { body: { generated_voice_id: id, voice_name: 'Forged' } });
      expect(refused.status, id).toBe(422);
      expect(refused.body.errors).toEqual([{ location: 'generated_voice_id', message: 'is not an id design_previews answered' }]);
    }
  });

  it('answers cloning with 422: no installed engine clones voices', async () => {
    for (const body of [{ name: 'Me' }, undefined]) {
      const refused = await server.request('POST', '/v1/organization/voices/clone', { body });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toMatch(/Voice cloning is not available/);
      expect(refused.body.errors).toEqual([{ location: 'files', message: 'cannot be cloned with the installed engines' }]);
    }
  });
});
