import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, keyIn } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let voices: { id: number; name: string }[];
beforeAll(async () => {
  server = await startServer();
  voices = (await server.request('GET', '/v1/organization/voices?filter[language.code]=en')).body;
});
afterAll(() => server.stop());

describe('speakers', () => {
  it('creates, reads, changes and deletes a speaker, every field present', async () => {
    const [first, second] = voices;
    const created = await server.request('POST', '/v1/speakers', { body: { first_name: 'Ada', last_name: 'Lovelace', voices: [{ id: first!.id }] } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      first_name: 'Ada',
      last_name: 'Lovelace',
      avatar_url: null,
      created: expect.any(String),
      updated: created.body.created,
      custom_voices: [],
      voices: [{ id: first!.id, name: first!.name }],
    });
    const id = created.body.id;
    expect((await server.request('GET', `/v1/speakers/${id}`)).body).toEqual(created.body);

    const renamed = await server.request('PUT', `/v1/speakers/${id}?detail=partial`, { body: { first_name: 'Augusta', voices: [{ id: second!.id }, { id: first!.id }] } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ first_name: 'Augusta', last_name: 'Lovelace', custom_voices: [], voices: [{ id: second!.id }, { id: first!.id }] });
    expect((await server.request('GET', `/v1/speakers/${id}?detail=none`)).body.first_name).toBe('Augusta');

    expect((await server.request('GET', '/v1/speakers')).body.map((speaker: any) => speaker.id)).toContain(id);
    expect((await server.request('DELETE', `/v1/speakers/${id}`)).status).toBe(204);
    expect((await server.request('GET', `/v1/speakers/${id}`)).status).toBe(404);
    expect((await server.request('PUT', `/v1/speakers/${id}`, { body: { first_name: 'Ada' } })).status).toBe(404);
    expect((await server.request('DELETE', `/v1/speakers/${id}`)).status).toBe(404);
  });

  it('refuses bad bodies and details with a 422 per field', async () => {
    const noName = await server.request('POST', '/v1/speakers', { body: { last_name: 'Nobody' } });
    expect(noName.status).toBe(422);
    expect(noName.body.errors).toEqual([{ location: 'first_name', message: 'is required' }]);
    const unknownVoice = await server.request('POST', '/v1/speakers', { body: { first_name: 'Ada', voices: [{ id: voices[0]!.id }, { id: 1 }] } });
    expect(unknownVoice.status).toBe(422);
    expect(unknownVoice.body.errors).toEqual([{ location: 'voices.1.id', message: 'names no voice of the catalogue' }]);
    const badAvatar = await server.request('POST', '/v1/speakers', { body: { first_name: 'Ada', avatar_url: 'ftp://example.com/a.png' } });
    expect(badAvatar.body.errors).toEqual([{ location: 'avatar_url', message: 'must be a valid http(s) URL' }]);
    const badDetail = await server.request('GET', '/v1/speakers?detail=everything');
    expect(badDetail.status).toBe(422);
    expect(badDetail.body.errors).toEqual([{ location: 'detail', message: 'must be one of: none, partial, full' }]);
    expect((await server.request('GET', '/v1/speakers/0')).status).toBe(404);
  });

  it('is for organization keys: a project key is refused, another organization sees nothing', async () => {
    const speaker = (await server.request('POST', '/v1/speakers', { body: { first_name: 'Grace', avatar_url: 'https://example.com/grace.png' } })).body;
    expect(speaker.avatar_url).toBe('https://example.com/grace.png');
    const projectKey = keyIn((await cli(server.env, 'keys', 'create', '--organization', '1', '--project', '1')).stdout);
    // Keys made by the CLI reach the server once its projection has applied them.
    await expect.poll(async () => (await server.request('GET', '/v1/speakers', { key: projectKey })).status, { timeout: 10_000 }).toBe(403);
    const rivalKey = keyIn((await cli(server.env, 'organizations', 'create', '--name', 'Rival Media')).stdout);
    await expect.poll(async () => (await server.request('GET', '/v1/speakers', { key: rivalKey })).status, { timeout: 10_000 }).toBe(200);
    expect((await server.request('GET', `/v1/speakers/${speaker.id}`, { key: rivalKey })).status).toBe(404);
    expect((await server.request('GET', '/v1/speakers', { key: rivalKey })).body).toEqual([]);
  });
});
