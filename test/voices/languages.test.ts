import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

// Kokoro's v1.0 voices beyond English, as the catalogue offers them: [id, name, gender, accent, language]. The ids
// are derived from the engine's name of each voice and must never change (clients store them).
const KOKORO_BEYOND_ENGLISH = [
  [554248, 'Dora', 'female', 'Castilian', 'es_ES'],
  [542849, 'Alex', 'male', 'Castilian', 'es_ES'],
  [641898, 'Santa', 'male', 'Castilian', 'es_ES'],
  [207331, 'Siwis', 'female', 'French', 'fr_FR'],
  [349754, 'Sara', 'female', 'Italian', 'it_IT'],
  [190862, 'Nicola', 'male', 'Italian', 'it_IT'],
  [823416, 'Dora', 'female', 'Brazilian', 'pt_BR'],
  [875543, 'Alex', 'male', 'Brazilian', 'pt_BR'],
  [389444, 'Santa', 'male', 'Brazilian', 'pt_BR'],
  [505833, 'Alpha', 'female', 'Indian', 'hi_IN'],
  [798227, 'Beta', 'female', 'Indian', 'hi_IN'],
  [645950, 'Omega', 'male', 'Indian', 'hi_IN'],
  [129667, 'Psi', 'male', 'Indian', 'hi_IN'],
  [258757, 'Alpha', 'female', 'Japanese', 'ja_JP'],
  [709385, 'Gongitsune', 'female', 'Japanese', 'ja_JP'],
  [238806, 'Tebukuro', 'female', 'Japanese', 'ja_JP'],
  [235271, 'Nezumi', 'female', 'Japanese', 'ja_JP'],
  [878558, 'Kumo', 'male', 'Japanese', 'ja_JP'],
  [730723, 'Xiaobei', 'female', 'Mainland', 'zh_CN'],
  [741023, 'Xiaoni', 'female', 'Mainland', 'zh_CN'],
  [486479, 'Xiaoxiao', 'female', 'Mainland', 'zh_CN'],
  [350437, 'Xiaoyi', 'female', 'Mainland', 'zh_CN'],
  [598904, 'Yunjian', 'male', 'Mainland', 'zh_CN'],
  [653951, 'Yunxi', 'male', 'Mainland', 'zh_CN'],
  [874151, 'Yunxia', 'male', 'Mainland', 'zh_CN'],
  [907058, 'Yunyang', 'male', 'Mainland', 'zh_CN'],
] as const;

// Each language's default: the first of its voices above (es_MX and es_US have none of their own: Spanish's).
const DEFAULTS: Record<string, number> = {
  es_ES: 554248, es_MX: 554248, es_US: 554248, es: 554248,
  fr_FR: 207331, it_IT: 349754, it: 349754, pt_BR: 823416, pt: 823416,
  hi_IN: 505833, hi: 505833, ja_JP: 258757, ja: 258757, zh_CN: 730723,
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

const get = async (path: string) => {
  const reply = await server.request('GET', path);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};

describe('Kokoro voices beyond English', () => {
  it('are offered with their names, genders, accents and languages, under ids that do not move', async () => {
    const kokoro = await get('/v1/organization/voices?filter[engine]=kokoro');
    const beyond = kokoro.filter((voice: any) => !voice.language.code.startsWith('en'));
    expect(beyond.map((voice: any) => [voice.id, voice.name, voice.gender, voice.accent, voice.language.code])).toEqual(KOKORO_BEYOND_ENGLISH);
    expect(beyond.every((voice: any) => voice.type === 'stock' && voice.engine === 'kokoro')).toBe(true);
    // The voices there were before keep theirs.
    expect(kokoro.find((voice: any) => voice.name === 'Heart').id).toBe(182439);
    expect((await get('/v1/organization/voices?filter[engine]=piper'))[0]).toMatchObject({ id: 785206, name: 'Joe' });
    expect((await get('/v1/organization/voices/554248')).language).toEqual({ code: 'es_ES', name: 'European Spanish' });
  });

  it('answer the WordPress plugin\'s voice picker for Spanish: the neural voices first, then espeak-ng\'s, nothing of another language', async () => {
    const picker = await get('/v1/organization/voices?filter[language.code]=es_ES&filter[scopes][]=primary&filter[scopes][]=secondary');
    expect(picker.slice(0, 3).map((voice: any) => [voice.name, voice.engine, voice.scopes])).toEqual([
      ['Dora', 'kokoro', ['primary']],
      ['Alex', 'kokoro', ['primary']],
      ['Santa', 'kokoro', ['primary']],
    ]);
    expect(picker.slice(3).every((voice: any) => voice.engine === 'espeak-ng')).toBe(true);
    expect(picker.every((voice: any) => voice.language.code.startsWith('es'))).toBe(true);
    const mexico = await get('/v1/organization/voices?filter[language.code]=es_MX&filter[scopes][]=primary&filter[scopes][]=secondary');
    expect(mexico.slice(0, 3).map((voice: any) => [voice.name, voice.scopes])).toEqual([['Dora', ['secondary']], ['Alex', ['secondary']], ['Santa', ['secondary']]]);
  });

  it('are the default voices of their languages, each listed with an accent', async () => {
    const languages = await get('/v1/organization/languages');
    for (const [code, id] of Object.entries(DEFAULTS)) {
      const language = languages.find((each: any) => each.code === code);
      expect(language, code).toBeDefined();
      expect(language.accent.length, code).toBeGreaterThan(0);
      for (const section of ['title', 'body', 'summary']) expect(language.default_voices[section].id, `${code} ${section}`).toBe(id);
    }
    expect(languages.find((each: any) => each.code === 'es_MX')).toMatchObject({ name: 'Mexican Spanish', accent: 'Mexican' });
    expect(languages.find((each: any) => each.code === 'zh_CN')).toMatchObject({ accent: 'Mainland', default_voices: { body: { id: 730723, name: 'Xiaobei' } } });
  });
});

describe('a language without a voice of its own', () => {
  it('is read by its closest voice of the same language, never by another language\'s (Mandarin by Kokoro\'s, not by Joe), and a change to one without any is refused', async () => {
    const created = await server.request('POST', '/v1/projects/1/content', {
      body: {
        type: 'manual_segment',
        language: 'zh_CN',
        segments: [
          { content_type: 'text', section: 'title', text: '你好。' },
          { content_type: 'text', section: 'body', text: 'Hola.', language: { code: 'es_MX' } },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const item = await settled(server, created.body.id, 85_000);
    expect(item.status, item.error).toBe('processed');
    expect(item.segments.map((segment: any) => [segment.voice.id, segment.language.code])).toEqual([
      [730723, 'zh_CN'],
      [554248, 'es_ES'],
    ]);
    // Changed to a language no voice reads, it is refused and stays as it was.
    const changed = await server.request('PUT', `/v1/projects/1/content/${item.id}`, { body: { language: 'zu' } });
    expect(changed.status).toBe(422);
    expect(changed.body.errors).toEqual([{ location: 'language', message: expect.stringContaining('zu has no voice') }]);
  }, 90_000);

  it('is refused at `language` when no voice reads it at all, for an item, a segment and a project', async () => {
    const item = await server.request('POST', '/v1/projects/1/content', { body: { title: 'Sawubona', body: '<p>Sawubona.</p>', language: 'zu' } });
    expect(item.status).toBe(422);
    expect(item.body.errors).toEqual([{ location: 'language', message: expect.stringContaining('zu has no voice') }]);
    const segment = await server.request('POST', '/v1/projects/1/content', {
      body: { type: 'manual_segment', segments: [{ content_type: 'text', text: 'Sawubona.', language: { code: 'zu_ZA' } }] },
    });
    expect(segment.status).toBe(422);
    expect(segment.body.errors).toEqual([{ location: 'segments.0.language.code', message: expect.stringContaining('zu_ZA has no voice') }]);
    for (const [method, path, body] of [['POST', '/v1/projects', { name: 'Zulu desk', language: 'zu_ZA' }], ['PUT', '/v1/projects/1', { language: { code: 'zu' } }]] as const) {
      const project = await server.request(method, path, { body });
      expect(project.status, path).toBe(422);
      expect(project.body.errors, path).toEqual([{ location: 'language', message: expect.stringContaining('has no voice') }]);
    }
    const mandarin = await server.request('POST', '/v1/projects', { body: { name: 'Mandarin desk', language: 'zh_CN' } });
    expect(mandarin.status).toBe(201);
  });
});
