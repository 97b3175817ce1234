import { describe, expect, it } from 'vitest';
import { longArticleHtml } from '../fixtures/longArticle.ts';
import { cli } from '../support/cli.ts';
import { settled } from '../support/generation.ts';
import { newDataDir, startServer, startWorker, usesWorker } from '../support/server.ts';

describe('faults during generation', () => {
  it('finishes an item whose process was killed mid-processing, with one completion event', async () => {
    const dataDir = newDataDir();
    const env = { GENERATION_ENABLED: 'true' };
    const server = await startServer({ dataDir, env });
    // About two and a half minutes of speech: processing for tens of seconds, long past the kill, and past a heartbeat.
    const created = (await server.request('POST', '/v1/projects/1/content', { body: { body: longArticleHtml(400), title: 'Interrupted' } })).body;
    await expect.poll(async () => (await server.request('GET', `/v1/projects/1/content/${created.id}`)).body.status, { timeout: 60_000, interval: 50 }).toBe('processing');

    let resumed = server;
    if (usesWorker(server.env)) {
      await server.stopWorker('SIGKILL');
      const worker = await startWorker(server.env);
      const item = await settled(server, created.id, 360_000);
      expect(item.status, item.error).toBe('processed');
      worker.child.kill('SIGTERM');
    } else {
      await server.stop('SIGKILL');
      resumed = await startServer({ dataDir, env });
      const item = await settled(resumed, created.id, 360_000);
      expect(item.status, item.error).toBe('processed');
    }
    const stream = await cli(resumed.env, 'events', `content-${created.id}`);
    const types = stream.stdout.trim().split('\n').map((line) => JSON.parse(line).type);
    expect(types.filter((type) => type === 'ContentProcessed')).toHaveLength(1);
    expect(types[0]).toBe('ContentCreated');
    await resumed.stop();
  }, 480_000);

  it('ends in error after the retries when the synthesizer keeps failing, with the reason on GET', async () => {
    const server = await startServer({ env: { GENERATION_ENABLED: 'true', SYNTHESIS_TIMEOUT_MS: '1' } });
    const created = (await server.request('POST', '/v1/projects/1/content', { body: { body: '<p>This will not be spoken.</p>' } })).body;
    const item = await settled(server, created.id, 90_000);
    expect(item.status).toBe('error');
    expect(item.error).toMatch(/Piper ran longer than 1 ms/);
    const stream = await cli(server.env, 'events', `content-${created.id}`);
    expect(stream.stdout).toContain('ContentProcessingFailed');
    await server.stop();
  }, 100_000);
});
