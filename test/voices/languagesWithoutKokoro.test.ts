import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

// Without Kokoro no voice reads Mandarin (espeak-ng's `cmn` has no ISO 639-1 code the catalogue offers): an item in
// zh_CN used to be read by the English default, Joe. It is refused instead, and the languages list leaves zh_CN out.
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { KOKORO_VENV: path.join(mkdtempSync(path.join(tmpdir(), 'no-kokoro-')), 'none') } });
});
afterAll(() => server.stop());

describe('without Kokoro', () => {
  it('refuses an item in Mandarin at `language` rather than reading it with an English voice', async () => {
    const created = await server.request('POST', '/v1/projects/1/content', { body: { title: '你好', body: '<p>你好。</p>', language: 'zh_CN' } });
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({ code: 422, errors: [{ location: 'language', message: expect.stringContaining('zh_CN has no voice') }] });
    const languages = (await server.request('GET', '/v1/organization/languages')).body;
    expect(languages.map((language: any) => language.code)).not.toContain('zh_CN');
    const project = await server.request('POST', '/v1/projects', { body: { name: 'Mandarin desk', language: 'zh_CN' } });
    expect(project.status).toBe(422);
    expect(project.body.errors).toEqual([{ location: 'language', message: expect.stringContaining('zh_CN has no voice') }]);
  });

  it('lists Spanish with espeak-ng\'s voice, and no region that only a neural voice would serve', async () => {
    const languages = (await server.request('GET', '/v1/organization/languages')).body;
    const codes = languages.map((language: any) => language.code);
    expect(codes).toContain('es');
    expect(codes).not.toContain('es_MX');
    const spanish = languages.find((language: any) => language.code === 'es');
    const voice = (await server.request('GET', `/v1/organization/voices/${spanish.default_voices.body.id}`)).body;
    expect(voice).toMatchObject({ engine: 'espeak-ng', language: { code: 'es' } });
    const picker = (await server.request('GET', '/v1/organization/voices?filter[language.code]=es_ES&filter[scopes][]=primary&filter[scopes][]=secondary')).body;
    expect(picker.length).toBeGreaterThan(0);
    expect(picker.every((each: any) => each.engine === 'espeak-ng' && each.language.code.startsWith('es'))).toBe(true);
  });
});
