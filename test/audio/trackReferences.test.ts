import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../src/media/tool.ts';
import { cli, keyIn } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';

// A content or project body naming a background track answers 422 at the field when the track is another
// organization's (or another project's), as a video settings template in the same situation does.
let server: TestServer;
let audioHost: Server;
let scratch: string;
let rivalKey: string;
const tracks = {} as Record<'own' | 'rival' | 'otherProject', number>;
let projectId: number;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'track-references-'));
  const made = await runTool('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=2', join(scratch, 'bed.mp3')]);
  expect(made.code, made.stderr.toString()).toBe(0);
  const bed = await readFile(join(scratch, 'bed.mp3'));
  audioHost = createServer((_, response) => void response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': bed.length }).end(bed));
  await new Promise<void>((resolve) => audioHost.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(audioHost.address() as AddressInfo).port}/bed.mp3`;
  server = await startServer({ env: { FETCH_ALLOW_PRIVATE: 'true' } });
  projectId = (await server.request('POST', '/v1/projects', { body: { name: 'Music desk' } })).body.id;
  const otherProjectId = (await server.request('POST', '/v1/projects', { body: { name: 'Other desk' } })).body.id;
  rivalKey = keyIn((await cli(server.env, 'organizations', 'create', '--name', 'Rival Radio')).stdout);
  // Keys made by the CLI reach the server once its projection has applied them.
  for (let tries = 0; (await server.request('GET', '/v1/background_tracks', { key: rivalKey })).status !== 200; tries++) {
    if (tries > 100) throw new Error('the rival organization key never worked');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const track = async (body: Record<string, unknown>, key?: string) => {
    const reply = await server.request('POST', '/v1/background_tracks', { key, body: { url, ...body } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.id as number;
  };
  tracks.own = await track({ name: 'Ours' });
  tracks.rival = await track({ name: 'Theirs' }, rivalKey);
  tracks.otherProject = await track({ name: 'Next door', project: { id: otherProjectId } });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  audioHost?.closeAllConnections();
  await new Promise((resolve) => audioHost?.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

const backgroundTrack = (id: number) => ({ background_track: { enabled: true, track: { id } } });
const REFUSED = {
  rival: { location: 'background_track.track.id', message: 'names no background track of this organization' },
  otherProject: { location: 'background_track.track.id', message: 'names a background track of another project' },
} as const;

describe('a background track named in a content body', () => {
  it('is refused at the field on create when it is another organization’s or another project’s', async () => {
    for (const which of ['rival', 'otherProject'] as const) {
      const reply = await server.request('POST', `/v1/projects/${projectId}/content`, { body: { body: '<p>Music, please.</p>', ...backgroundTrack(tracks[which]) } });
      expect(reply.status, which).toBe(422);
      expect(reply.body.errors).toEqual([REFUSED[which]]);
    }
    const listed = await server.request('GET', `/v1/projects/${projectId}/content`);
    expect(listed.body).toEqual([]);
  });

  it('is refused at the field on update, and the item keeps its track', async () => {
    const created = await server.request('POST', `/v1/projects/${projectId}/content`, { body: { body: '<p>Our own music.</p>', ...backgroundTrack(tracks.own) } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.background_track).toEqual({ enabled: true, track: { id: tracks.own } });
    for (const which of ['rival', 'otherProject'] as const) {
      const reply = await server.request('PUT', `/v1/projects/${projectId}/content/${created.body.id}`, { body: backgroundTrack(tracks[which]) });
      expect(reply.status, which).toBe(422);
      expect(reply.body.errors).toEqual([REFUSED[which]]);
    }
    const item = await server.request('GET', `/v1/projects/${projectId}/content/${created.body.id}`);
    expect(item.body.background_track).toEqual({ enabled: true, track: { id: tracks.own } });
  });

  it('is refused through GraphQL too, which shares the content actions', async () => {
    const reply = await server.request('POST', '/graphql', {
      body: {
        query: `mutation($input: JSONObject!) { createContent(project_id: ${projectId}, input: $input) { id } }`,
        variables: { input: { body: '<p>x</p>', ...backgroundTrack(tracks.rival) } },
      },
    });
    expect(reply.body.errors[0].extensions).toMatchObject({ status: 422, errors: [REFUSED.rival] });
  });
});

describe("a project's background track", () => {
  it('is refused at the field on update when it is another organization’s or another project’s, and the project keeps its own', async () => {
    const own = await server.request('PUT', `/v1/projects/${projectId}`, { body: backgroundTrack(tracks.own) });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.background_track).toEqual({ enabled: true, track: { id: tracks.own } });
    for (const which of ['rival', 'otherProject'] as const) {
      const reply = await server.request('PUT', `/v1/projects/${projectId}`, { body: backgroundTrack(tracks[which]) });
      expect(reply.status, which).toBe(422);
      expect(reply.body.errors).toEqual([REFUSED[which]]);
    }
    expect((await server.request('GET', `/v1/projects/${projectId}`)).body.background_track).toEqual({ enabled: true, track: { id: tracks.own } });
  });

  it('is refused at the field on create, where only the organization’s own tracks serve a new project', async () => {
    for (const which of ['rival', 'otherProject'] as const) {
      const reply = await server.request('POST', '/v1/projects', { body: { name: `With ${which}`, ...backgroundTrack(tracks[which]) } });
      expect(reply.status, which).toBe(422);
      expect(reply.body.errors).toEqual([REFUSED[which]]);
    }
    const created = await server.request('POST', '/v1/projects', { body: { name: 'With ours', ...backgroundTrack(tracks.own) } });
    expect(created.status).toBe(201);
    // The rival organization cannot name our track either.
    const rivalProject = await server.request('POST', '/v1/projects', { key: rivalKey, body: { name: 'Rival desk' } });
    expect(rivalProject.status).toBe(201);
    const theirs = await server.request('PUT', `/v1/projects/${rivalProject.body.id}`, { key: rivalKey, body: backgroundTrack(tracks.own) });
    expect(theirs.status).toBe(422);
    expect(theirs.body.errors).toEqual([REFUSED.rival]);
    const withTheirOwn = await server.request('PUT', `/v1/projects/${rivalProject.body.id}`, { key: rivalKey, body: backgroundTrack(tracks.rival) });
    expect(withTheirOwn.status).toBe(200);
  });
});
