import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../src/media/tool.ts';
import { cli, keyIn } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';

// Background tracks are created from a URL the service fetches and measures: a real mp3 served locally.
let server: TestServer;
let audioHost: Server;
let scratch: string;
let base: string;
let projectId: number;
let otherProjectId: number;
let projectKey: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'background-tracks-'));
  const made = await runTool('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=3', '-ac', '2', join(scratch, 'bed.mp3')]);
  expect(made.code, made.stderr.toString()).toBe(0);
  const files: Record<string, Buffer> = { '/bed.mp3': await readFile(join(scratch, 'bed.mp3')), '/notes.mp3': Buffer.from('these are not audio frames\n'.repeat(50)) };
  audioHost = createServer((request, response) => {
    const file = files[request.url ?? ''];
    if (file) return void response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': file.length }).end(file);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => audioHost.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(audioHost.address() as AddressInfo).port}`;
  server = await startServer({ env: { FETCH_ALLOW_PRIVATE: 'true' } });
  projectId = (await server.request('POST', '/v1/projects', { body: { name: 'Audio desk' } })).body.id;
  otherProjectId = (await server.request('POST', '/v1/projects', { body: { name: 'Other desk' } })).body.id;
  projectKey = keyIn((await cli(server.env, 'keys', 'create', '--organization', '1', '--project', String(projectId))).stdout);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  audioHost?.closeAllConnections();
  await new Promise((resolve) => audioHost?.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

describe('background tracks', () => {
  it('creates a track from a URL, measures it, and lists, reads, changes and deletes it', async () => {
    const created = await server.request('POST', '/v1/background_tracks', { body: { name: 'Calm bed', url: `${base}/bed.mp3`, volume: 30 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Calm bed', url: `${base}/bed.mp3`, volume: 30, project: null });
    expect(created.body.duration).toBeGreaterThan(2.9);
    expect(created.body.duration).toBeLessThan(3.2);
    const path = `/v1/background_tracks/${created.body.id}`;

    expect((await server.request('GET', path)).body).toEqual(created.body);
    expect((await server.request('GET', '/v1/background_tracks')).body).toContainEqual(created.body);

    const changed = await server.request('PUT', path, { body: { name: 'Quiet bed', volume: 10 } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Quiet bed', volume: 10, duration: created.body.duration, url: created.body.url });
    expect((await server.request('GET', path)).body).toEqual(changed.body);

    expect((await server.request('DELETE', path)).status).toBe(204);
    expect((await server.request('GET', path)).status).toBe(404);
    expect((await server.request('PUT', path, { body: { volume: 5 } })).status).toBe(404);
    expect((await server.request('DELETE', path)).status).toBe(404);
    expect((await server.request('GET', '/v1/background_tracks/abc')).status).toBe(404);
  });

  it.each([
    [{ name: 'Loud', url: 'BED', volume: 101 }, 'volume'],
    [{ name: 'Nowhere', url: 'BED_MISSING' }, 'url'],
    [{ name: 'Text', url: 'NOTES' }, 'url'],
    [{ name: 'Refused', url: 'ftp://example.com/bed.mp3' }, 'url'],
    [{ name: 'Elsewhere', url: 'BED', project: { id: 999_999 } }, 'project.id'],
  ])('refuses %j with a 422 at %s', async (body, location) => {
    const urls: Record<string, string> = { BED: `${base}/bed.mp3`, BED_MISSING: `${base}/missing.mp3`, NOTES: `${base}/notes.mp3` };
    const reply = await server.request('POST', '/v1/background_tracks', { body: { ...body, url: urls[body.url] ?? body.url } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((error: { location: string }) => error.location)).toContain(location);
    if (location === 'url' && body.url !== 'ftp://example.com/bed.mp3') expect(reply.body.errors[0].message).toMatch(/HTTP 404|not an audio format allowed/);
  });

  it('refuses a changed url that gives no audio and keeps the track as it was', async () => {
    const created = (await server.request('POST', '/v1/background_tracks', { body: { name: 'Keeper', url: `${base}/bed.mp3` } })).body;
    const reply = await server.request('PUT', `/v1/background_tracks/${created.id}`, { body: { url: `${base}/notes.mp3` } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors[0].location).toBe('url');
    expect((await server.request('GET', `/v1/background_tracks/${created.id}`)).body).toEqual(created);
  });

  it("lets a project key see its project's and the organization's tracks and write only its project's", async () => {
    const url = `${base}/bed.mp3`;
    const shared = (await server.request('POST', '/v1/background_tracks', { body: { name: 'Shared', url } })).body;
    const other = (await server.request('POST', '/v1/background_tracks', { body: { name: 'Other', url, project: { id: otherProjectId } } })).body;
    expect(other.project).toEqual({ id: otherProjectId });
    await expect.poll(async () => (await server.request('GET', '/v1/background_tracks', { key: projectKey })).status, { timeout: 10_000 }).toBe(200);

    const own = await server.request('POST', '/v1/background_tracks', { key: projectKey, body: { name: 'Own', url } });
    expect(own.status).toBe(201);
    expect(own.body.project).toEqual({ id: projectId });

    const seen = (await server.request('GET', '/v1/background_tracks', { key: projectKey })).body.map((track: { id: number }) => track.id);
    expect(seen).toContain(shared.id);
    expect(seen).toContain(own.body.id);
    expect(seen).not.toContain(other.id);
    expect((await server.request('GET', `/v1/background_tracks/${other.id}`, { key: projectKey })).status).toBe(404);
    expect((await server.request('GET', `/v1/background_tracks/${shared.id}`, { key: projectKey })).body).toEqual(shared);

    expect((await server.request('PUT', `/v1/background_tracks/${shared.id}`, { key: projectKey, body: { volume: 1 } })).status).toBe(403);
    expect((await server.request('DELETE', `/v1/background_tracks/${shared.id}`, { key: projectKey })).status).toBe(403);
    expect((await server.request('POST', '/v1/background_tracks', { key: projectKey, body: { name: 'Org', url, project: null } })).status).toBe(403);
    expect((await server.request('POST', '/v1/background_tracks', { key: projectKey, body: { name: 'Theirs', url, project: { id: otherProjectId } } })).status).toBe(403);
    expect((await server.request('PUT', `/v1/background_tracks/${own.body.id}`, { key: projectKey, body: { volume: 55 } })).body.volume).toBe(55);
    expect((await server.request('DELETE', `/v1/background_tracks/${own.body.id}`, { key: projectKey })).status).toBe(204);
  });
});
