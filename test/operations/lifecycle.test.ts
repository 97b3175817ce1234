import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { newDataDir, ROOT, serverEnv, startServer } from '../support/server.ts';
import { cli } from '../support/cli.ts';

const snapshot = async (server: Awaited<ReturnType<typeof startServer>>) => ({
  projects: (await server.request('GET', '/v1/projects')).body,
  content: (await server.request('GET', '/v1/projects/1/content?pagination[limit]=100&segments=full&order[dir]=asc')).body,
});

describe('restart and rebuild', () => {
  it('keeps everything across a restart and rebuilds projections equal to the live ones', async () => {
    const dataDir = newDataDir();
    const first = await startServer({ dataDir });
    const created = await first.request('POST', '/v1/projects', { body: { name: 'Archive', time_zone: 'Asia/Tokyo' } });
    for (let i = 0; i < 12; i++) {
      await first.request('POST', '/v1/projects/1/content', { body: { title: `Item ${i}`, body: `<p>${i}</p>`, source_id: `keep-${i}` } });
    }
    await first.request('PUT', '/v1/projects/1/content/keep-3', { body: { title: 'Changed' } });
    await first.request('DELETE', '/v1/projects/1/content/keep-4');
    const before = await snapshot(first);
    expect(before.content).toHaveLength(11);
    await first.stop();

    const rebuilt = await cli(serverEnv(dataDir), 'projections', 'rebuild', 'all');
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toMatch(/contentItems: (rebuilt|replayed) to position \d+ \(11 contentItems[,)]/);
    if (process.env.TEST_MONGODB_URL) expect(rebuilt.stdout).not.toMatch(/equal to the read model before the rebuild: no/);

    const second = await startServer({ dataDir });
    expect(await snapshot(second)).toEqual(before);
    expect((await second.request('GET', `/v1/projects/${created.body.id}`)).body.time_zone).toBe('Asia/Tokyo');
    expect((await second.request('POST', '/v1/projects/1/content', { body: { body: '<p>x</p>', source_id: 'keep-0' } })).status).toBe(422);
    expect(second.output()).not.toMatch(/first start/);
    await second.stop();
    // Two starts and a rebuild by the CLI, each a process of its own.
  }, 120_000);

  it('survives being killed mid-write without losing acknowledged items', async () => {
    const dataDir = newDataDir();
    const server = await startServer({ dataDir });
    const acknowledged: string[] = [];
    const writes = Array.from({ length: 40 }, async (_, i) => {
      const reply = await server.request('POST', '/v1/projects/1/content', { body: { body: `<p>${i}</p>` } }).catch(() => null);
      if (reply?.status === 201) acknowledged.push(reply.body.id);
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await server.stop('SIGKILL');
    await Promise.all(writes);
    const restarted = await startServer({ dataDir });
    for (const id of acknowledged) expect((await restarted.request('GET', `/v1/projects/1/content/${id}`)).status).toBe(200);
    await restarted.stop();
  });
});

describe('configuration', () => {
  it.each([
    [{ PORT: 'eighty' }, /^Invalid configuration: PORT must be a whole number/],
    [{ PORT: '70000' }, /^Invalid configuration: PORT must be at most 65535/],
    [{ MONGODB_URL: 'http://localhost' }, /^Invalid configuration: MONGODB_URL must be a URL starting with mongodb/],
    [{ RATE_LIMIT_GET: '0' }, /^Invalid configuration: RATE_LIMIT_GET must be at least 1/],
    [{ BOOTSTRAP_API_KEY: 'short' }, /^Invalid configuration: BOOTSTRAP_API_KEY must be 16 to 128/],
  ])('refuses to start with %j, naming the variable in one line', async (bad, expected) => {
    const env = { ...serverEnv(newDataDir()), ...bad };
    const failure = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env, timeout: 30_000 }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure!.stderr.trim().split('\n')).toHaveLength(1);
    expect(failure!.stderr).toMatch(expected);
  });
});
