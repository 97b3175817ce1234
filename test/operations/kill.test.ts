// SIGKILL in the middle of concurrent creates with generation on: nothing acknowledged is lost or doubled, and every
// item the killed process left queued or processing is generated after the restart.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveMadeFiles } from '../support/fileHost.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

// The held item's audio comes from a loopback host.
const env = { GENERATION_ENABLED: 'true', FETCH_ALLOW_PRIVATE: 'true' };
const CONTENT = '/v1/projects/1/content';
const listed = async (server: TestServer, filter = '') => (await server.request('GET', `${CONTENT}?${filter}pagination[limit]=100`)).body as { id: string }[];
const unfinished = (server: TestServer) => listed(server, 'filter[statuses][]=queued&filter[statuses][]=processing&');

/** A create whose headers and half its body are sent: the server cannot answer it, so it is in flight until the kill. */
async function halfSentCreate(server: TestServer): Promise<{ outcome: Promise<string> }> {
  const body = JSON.stringify({ title: 'Half sent', body: '<p>Half sent.</p>' });
  const request = http.request(`${server.baseUrl}${CONTENT}`, { method: 'POST', headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json', 'content-length': body.length } });
  const outcome = new Promise<string>((resolve) => {
    request.once('response', (response) => resolve(`answered ${response.statusCode}`));
    request.once('error', (error) => resolve(`failed: ${error.message}`));
  });
  await new Promise<void>((resolve, reject) => request.write(body.slice(0, body.length / 2), (error) => (error ? reject(error) : resolve())));
  // Wrapped: an async function returning the promise itself would wait for it.
  return { outcome };
}

// Embedded default only: on the production-stack run, the Temporal dev server (SQLite inside) answers
// "interrupted (9)" to every call once 200 workflows meet a client killed mid-call, and stays broken for the tests
// after it. A killed Temporal worker is covered by test/generation/faults.test.ts.
describe.skipIf(process.env.TEST_TEMPORAL_ADDRESS)('kill -9 during concurrent creates', () => {
  it('keeps every acknowledged create and finishes every generation after the restart', async () => {
    // One item's audio is held by its host until the restarted process is checked: it is certainly unfinished at the
    // kill and after the restart, however fast the others are generated.
    const scratch = await mkdtemp(path.join(tmpdir(), 'kill-test-'));
    let release!: () => void;
    const host = await serveMadeFiles(scratch, { 'held.mp3': 'sine=frequency=330:duration=2' }, { outputArgs: [], contentType: 'audio/mpeg', heldUntil: new Promise((resolve) => (release = resolve)) });
    const server = await startServer({ env });
    let restarted: TestServer | undefined;
    try {
      const held = await server.request('POST', CONTENT, { body: { type: 'audio_upload', title: 'Held interview', audio_url: `${host.base}/held.mp3` } });
      expect(held.status, JSON.stringify(held.body)).toBe(201);
      const acknowledged: string[] = [held.body.id];
      const halfSent = await halfSentCreate(server);
      let failed = 0;
      let killed: Promise<void> | undefined;
      // 20 clients create one item after another until the process dies; it is killed once 25 have answered, while
      // the half-sent create is certainly in flight (and often some of the clients' creates).
      const clients = Array.from({ length: 20 }, async (_, client) => {
        for (let i = 0; !killed || i === 0; i++) {
          const reply = await server.request('POST', CONTENT, { body: { title: `Item ${client}.${i}`, body: `<p>Item ${client}.${i} is short.</p>` } }).catch(() => null);
          if (reply === null) return void failed++;
          if (reply.status !== 201) expect.fail(`a create answered ${reply.status}: ${JSON.stringify(reply.body)}`);
          acknowledged.push(reply.body.id);
          if (acknowledged.length === 25) killed = server.stop('SIGKILL');
        }
      });
      await Promise.all(clients);
      await killed;
      expect(await halfSent.outcome).toMatch(/^failed: /);
      failed++;
      expect(acknowledged.length).toBeGreaterThanOrEqual(25);
      expect(failed).toBeGreaterThan(0);

      restarted = await startServer({ dataDir: server.dataDir, env });
      expect((await unfinished(restarted)).map((item) => item.id)).toContain(held.body.id);
      release();
      for (const id of acknowledged) expect((await restarted.request('GET', `${CONTENT}/${id}`)).status, id).toBe(200);
      await expect.poll(async () => (await unfinished(restarted!)).length, { timeout: 240_000, interval: 1_000 }).toBe(0);
      const statuses = new Set<string>();
      for (const id of acknowledged) statuses.add((await restarted.request('GET', `${CONTENT}/${id}`)).body.status);
      expect([...statuses]).toEqual(['processed']);
      // Nothing doubled: each acknowledged create is one item, and the only others are creates cut off by the kill.
      const ids = (await listed(restarted)).map((item) => item.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(acknowledged).size).toBe(acknowledged.length);
      expect(ids).toEqual(expect.arrayContaining(acknowledged));
      expect(ids.length).toBeLessThanOrEqual(acknowledged.length + failed);
    } finally {
      release();
      await restarted?.stop();
      await server.stop('SIGKILL');
      await host.close();
      await rm(scratch, { recursive: true, force: true });
    }
  }, 400_000);
});
