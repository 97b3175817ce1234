// German on SVOX Pico and Russian on RHVoice, through HTTP: the voices offered for de_DE and ru_RU, and an item in
// each language narrated by its default voice, its audio at the service's loudness and its words timed in order
// inside their segments.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDurationMs } from '../../src/media/probe.ts';
import { download, expectSpokenWords } from '../support/generation.ts';
import { measureLoudness } from '../support/loudness.ts';
import { startServer, type TestServer } from '../support/server.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'debian-engines-test-'));
const GERMAN = {
  language: 'de_DE',
  title: 'Neues Museum in Hamburg',
  body: '<p>Am Montag eröffnete in Hamburg ein neues Museum. Schon in der ersten Woche kamen mehr als 8000 Besucher, obwohl es fast jeden Tag regnete.</p>',
};
const RUSSIAN = {
  language: 'ru_RU',
  title: 'Новый музей в Москве',
  body: '<p>В понедельник в Москве открылся новый музей. Уже в первую неделю его посетили более 8000 человек, хотя дождь шёл почти каждый день.</p>',
};

interface Narration {
  item: any;
  mp3: string;
}

// Runs once, in the embedded run: the engines speak the same whatever stores hold the events.
describe.skipIf(process.env.TEST_MONGODB_URL)('German on Pico and Russian on RHVoice', () => {
  let server: TestServer;
  let german: Narration;
  let russian: Narration;

  async function narrate(body: Record<string, unknown>): Promise<Narration> {
    const created = await server.request('POST', '/v1/projects/1/content', { body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const item = (await server.request('GET', `/v1/projects/1/content/${created.body.id}?segments=full&words=full`)).body;
      if (!['queued', 'processing'].includes(item.status)) {
        expect(item.status, item.error).toBe('processed');
        const dir = mkdtempSync(path.join(scratch, 'item-'));
        return { item, mp3: await download(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url, dir) };
      }
      if (Date.now() > deadline) throw new Error(`item ${created.body.id} (${String(body.language)}) still ${item.status} after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  beforeAll(async () => {
    server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
    [german, russian] = await Promise.all([narrate(GERMAN), narrate(RUSSIAN)]);
  }, 120_000);
  afterAll(() => server?.stop());

  it('offers Pico for German (de_DE) first, before espeak-ng, and the RHVoice voices with a licence for a commercial service for Russian', async () => {
    const german = (await server.request('GET', '/v1/organization/voices?filter[language.code]=de_DE')).body;
    expect(german[0]).toMatchObject({ name: 'Pico', engine: 'pico', gender: 'female', language: { code: 'de_DE' } });
    const russian = (await server.request('GET', '/v1/organization/voices?filter[language.code]=ru_RU')).body;
    const rhvoice = russian.filter((voice: any) => voice.engine === 'rhvoice');
    expect(rhvoice.map((voice: any) => voice.name)).toEqual(['Aleksandr', 'Irina', 'Anna', 'Elena']);
    expect(russian.indexOf(rhvoice[0])).toBe(0);
    const byEngine = (await server.request('GET', '/v1/organization/voices?filter[engine]=rhvoice')).body;
    expect(byEngine.map((voice: any) => voice.name)).toEqual(['Aleksandr', 'Irina', 'Anna', 'Elena']);
  });

  it('narrates a German item with Pico and a Russian one with Aleksandr, each at −16 ± 1 LUFS', async () => {
    for (const [narration, voice] of [
      [german, 'Pico'],
      [russian, 'Aleksandr'],
    ] as const) {
      const spoken = narration.item.segments.filter((segment: any) => segment.content_type === 'text');
      expect(new Set(spoken.map((segment: any) => segment.voice.name))).toEqual(new Set([voice]));
      expect(await probeDurationMs(narration.mp3)).toBeGreaterThan(5_000);
      const { integrated } = await measureLoudness(narration.mp3);
      expect(Math.abs(integrated + 16), `${voice}: ${integrated} LUFS`).toBeLessThanOrEqual(1);
    }
  });

  it('times every written word, in order, inside its segment', () => {
    for (const narration of [german, russian]) {
      for (const segment of narration.item.segments.filter((segment: any) => segment.content_type === 'text')) expectSpokenWords(segment, 900);
    }
  });
});
