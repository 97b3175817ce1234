import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDurationMs } from '../../src/media/probe.ts';
import { cli, keyIn } from '../support/cli.ts';
import { download } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
const scratch = mkdtempSync(path.join(tmpdir(), 'pronunciation-test-'));
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

const createRule = async (body: Record<string, unknown>) => {
  const reply = await server.request('POST', '/v1/rules', { body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

/** Polls until the check holds for what GET answers. */
async function until<T>(get: () => Promise<T>, holds: (value: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (holds(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not there after ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const item = (projectId: number, id: string) => server.request('GET', `/v1/projects/${projectId}/content/${id}?segments=full&words=full`).then((reply) => reply.body);
const processed = (projectId: number, id: string, more: (item: any) => boolean = () => true) =>
  until(() => item(projectId, id), (found: any) => found.status === 'error' || (found.status === 'processed' && more(found)));
const bodyWords = (found: any) => found.segments.filter((segment: any) => segment.section === 'body').flatMap((segment: any) => segment.words.map((word: any) => word.text));

describe('pronunciation rules', () => {
  it('creates, reads, changes and deletes a rule, every field present', async () => {
    const rule = await createRule({ type: 'substitute', text: 'Dr.', replacement: 'Doctor', language: 'en' });
    expect(rule).toEqual({
      id: expect.any(Number),
      project: null,
      content_id: null,
      language: 'en',
      type: 'substitute',
      text: 'Dr.',
      replacement: 'Doctor',
      case_sensitive: false,
      enabled: true,
      preview_status: expect.stringMatching(/^(pending|ready)$/),
      preview_audio_url: rule.preview_status === 'ready' ? expect.any(String) : null,
      created: expect.any(String),
      updated: rule.created,
    });
    expect((await server.request('GET', `/v1/rules/${rule.id}`)).body).toMatchObject({ id: rule.id, text: 'Dr.' });

    const changed = await server.request('PUT', `/v1/rules/${rule.id}`, { body: { type: 'say_as_letter_sequence', project: { id: 1 } } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ type: 'say_as_letter_sequence', replacement: null, project: { id: 1 }, preview_status: 'pending', preview_audio_url: null });

    expect((await server.request('DELETE', `/v1/rules/${rule.id}`)).status).toBe(204);
    expect((await server.request('GET', `/v1/rules/${rule.id}`)).status).toBe(404);
    expect((await server.request('PUT', `/v1/rules/${rule.id}`, { body: { enabled: false } })).status).toBe(404);
    expect((await server.request('DELETE', `/v1/rules/${rule.id}`)).status).toBe(404);
  });

  it('lists by project, language and type', async () => {
    const project = (await server.request('POST', '/v1/projects', { body: { name: 'Filters' } })).body;
    const a = await createRule({ type: 'say_as_word', text: 'NATO', project: { id: project.id }, language: 'en' });
    const b = await createRule({ type: 'say_as_letter_sequence', text: 'BBC', project: { id: project.id }, language: 'en_GB' });
    const c = await createRule({ type: 'substitute', text: 'km', replacement: 'kilometres', project: { id: project.id } });
    const ids = async (query: string) => (await server.request('GET', `/v1/rules?filter[project.id]=${project.id}${query}`)).body.map((rule: any) => rule.id);
    expect(await ids('')).toEqual([a.id, b.id, c.id]);
    expect(await ids('&filter[language]=en_GB')).toEqual([b.id]);
    expect(await ids('&filter[type]=say_as_word')).toEqual([a.id]);
    expect(await ids('&pagination[offset]=1&pagination[limit]=1')).toEqual([b.id]);
    const invalid = await server.request('GET', '/v1/rules?filter[type]=shout');
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual([{ location: 'filter[type]', message: expect.stringContaining('must be one of') }]);
  });

  it('refuses what cannot be said, with a 422 per field', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const reply = await server.request('POST', '/v1/rules', { body });
      expect(reply.status, JSON.stringify(reply.body)).toBe(422);
      return reply.body.errors;
    };
    expect(await refused({ type: 'pinyin_transcription', text: '北京', replacement: 'bei3 jing1' })).toEqual([
      { location: 'type', message: expect.stringContaining('no installed voice speaks Mandarin') },
    ]);
    expect(await refused({ type: 'jyutping_transcription', text: '香港', replacement: 'hoeng1 gong2' })).toEqual([
      { location: 'type', message: expect.stringContaining('Cantonese') },
    ]);
    expect(await refused({ type: 'substitute', text: 'WHO' })).toEqual([{ location: 'replacement', message: 'is required for type substitute' }]);
    expect(await refused({ type: 'ipa_transcription', text: 'Paris', replacement: 'paʁi' })).toEqual([{ location: 'replacement', message: expect.stringContaining('ʁ') }]);
    expect(await refused({ type: 'say_as_word', text: 'two  spaces' })).toEqual([{ location: 'text', message: expect.stringContaining('single spaces') }]);
    expect(await refused({ type: 'say_as_word', text: 'NASA', project: { id: 999 } })).toEqual([{ location: 'project.id', message: 'names no project of this organization' }]);
    expect(await refused({ type: 'say_as_word', text: 'NASA', project: { id: 1 }, content_id: 'no-such-item' })).toEqual([
      { location: 'content_id', message: "names no content item of the rule's project" },
    ]);
    await createRule({ type: 'say_as_word', text: 'UNESCO', project: { id: 1 } });
    expect(await refused({ type: 'say_as_letter_sequence', text: 'unesco', project: { id: 1 } })).toEqual([{ location: 'text', message: expect.stringContaining('already says') }]);
    expect((await server.request('GET', '/v1/rules/abc')).status).toBe(404);
  });

  it('is for organization keys: a project key is refused, another organization sees nothing', async () => {
    const rule = await createRule({ type: 'say_as_word', text: 'Interpol' });
    const projectKey = keyIn((await cli(server.env, 'keys', 'create', '--organization', '1', '--project', '1')).stdout);
    // Keys made by the CLI reach the server once its projection has applied them.
    await expect.poll(async () => (await server.request('GET', '/v1/rules', { key: projectKey })).status, { timeout: 10_000 }).toBe(403);
    const rivalKey = keyIn((await cli(server.env, 'organizations', 'create', '--name', 'Rival Media')).stdout);
    await expect.poll(async () => (await server.request('GET', '/v1/rules', { key: rivalKey })).status, { timeout: 10_000 }).toBe(200);
    expect((await server.request('GET', `/v1/rules/${rule.id}`, { key: rivalKey })).status).toBe(404);
    expect((await server.request('GET', '/v1/rules', { key: rivalKey })).body).toEqual([]);
  });

  it('makes a playable preview of the rule read in a sentence', async () => {
    const rule = await createRule({ type: 'ipa_transcription', text: 'tomato', replacement: '/təˈmɑːtəʊ/', language: 'en' });
    const ready = await until(() => server.request('GET', `/v1/rules/${rule.id}`).then((reply) => reply.body), (found: any) => found.preview_status !== 'pending');
    expect(ready.preview_status).toBe('ready');
    expect(ready.preview_audio_url.startsWith(`${server.baseUrl}/media/`)).toBe(true);
    const response = await fetch(ready.preview_audio_url);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const mp3 = await download(ready.preview_audio_url, scratch);
    expect(await probeDurationMs(mp3)).toBeGreaterThan(1_000);
    // Previews wait behind generation for the voice: on a busy machine that is more than the default 30 s.
  }, 150_000);

  it('says an item the rule way while its segment words stay as written, and regenerates items only when asked', async () => {
    const project = (await server.request('POST', '/v1/projects', { body: { name: 'Space desk' } })).body;
    await createRule({ type: 'substitute', text: 'NASA', replacement: 'the National Aeronautics and Space Administration', project: { id: project.id } });
    const body = '<p>We asked NASA about it today.</p>';
    const ruled = (await server.request('POST', `/v1/projects/${project.id}/content`, { body: { body, title_enabled: false } })).body;
    const plain = (await server.request('POST', '/v1/projects/1/content', { body: { body, title_enabled: false } })).body;
    const [said, asWritten] = await Promise.all([processed(project.id, ruled.id), processed(1, plain.id)]);
    expect([said.status, asWritten.status]).toEqual(['processed', 'processed']);
    expect(bodyWords(said)).toEqual(['We', 'asked', 'NASA', 'about', 'it', 'today']);
    expect(bodyWords(asWritten)).toEqual(['We', 'asked', 'NASA', 'about', 'it', 'today']);
    expect(said.duration).toBeGreaterThan(asWritten.duration + 1_500);

    // A rule for that one item, asking for its regeneration: the item is said again with it.
    await createRule({ type: 'substitute', text: 'NASA', replacement: 'the space agency of the United States', project: { id: 1 }, content_id: plain.id, regenerate_affected: true });
    const again = await processed(1, plain.id, (found) => found.duration > asWritten.duration + 1_000);
    expect(again.status).toBe('processed');
    expect(bodyWords(again)).toEqual(['We', 'asked', 'NASA', 'about', 'it', 'today']);
  }, 240_000);
});
