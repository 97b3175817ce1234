// The production start: scripts/build.ts compiles the service to plain JavaScript, which starts and serves without tsx.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { newDataDir, ROOT, serverEnv, TEST_KEY } from '../support/server.ts';

// Inside the checkout, as dist/ is: the bundles import their dependencies from node_modules.
mkdirSync(path.join(ROOT, '.test-data'), { recursive: true });
const outdir = mkdtempSync(path.join(ROOT, '.test-data', 'build-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const build = async (...args: string[]) =>
  (await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--outdir', outdir, ...args], { cwd: ROOT, timeout: 60_000 })).stderr;

/** Runs `node <outdir>/main.js` on `dataDir` until `use` is done with its base URL. */
async function withBuiltService(dataDir: string, use: (baseUrl: string) => Promise<void>) {
  const child = spawn(process.execPath, [path.join(outdir, 'main.js')], { cwd: ROOT, env: serverEnv(dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  try {
    const port = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (match) resolve(match[1]!);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`the built service exited with ${code}:\n${output}`)));
    });
    await use(`http://127.0.0.1:${port}`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  expect(output).not.toMatch(/"level":"(error|fatal)"/);
}

const call = async (baseUrl: string, method: string, requestPath: string, body?: unknown) => {
  const response = await fetch(`${baseUrl}${requestPath}`, {
    method,
    headers: { 'x-api-key': TEST_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
};

describe('the build (npm run build, npm start)', () => {
  it('compiles a service that starts with plain node and serves REST and GraphQL', async () => {
    expect(await build()).toMatch(/built main\.js, worker\.js, cli\.js, splitReplayWorker\.js/);
    const dataDir = newDataDir();
    await withBuiltService(dataDir, async (baseUrl) => {
      expect((await fetch(`${baseUrl}/ready`)).status).toBe(200);
      const created = await call(baseUrl, 'POST', '/v1/projects/1/content', { title: 'Built', body: '<p>Served from dist.</p>', source_id: 'built-1' });
      expect(created.status).toBe(201);
      const fetched = await call(baseUrl, 'GET', `/v1/projects/1/content/${created.body.id}`);
      expect(fetched).toMatchObject({ status: 200, body: { title: 'Built', source_id: 'built-1', status: 'queued' } });
      // A listen of it, as the player posts one, for the analytics rebuild below.
      const listen = { device_type: 'desktop', media_type: 'content', project_id: 1, content_id: created.body.id, listen_session_id: '6f1c2a7e-3b8d-4e5f-9a0b-1c2d3e4f5a6b', listen_length_percent: 10 };
      const posted = await fetch(`${baseUrl}/v1/analytics/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ ...listen, event_type: 'load' }, { ...listen, event_type: 'play' }]) });
      expect(posted.status).toBe(200);
      // type-graphql's decorators survive the compilation: the schema is built from them at start.
      const graphql = await call(baseUrl, 'POST', '/graphql', { query: '{ projects { id name } }' });
      expect(graphql).toMatchObject({ status: 200, body: { data: { projects: [{ id: 1, name: 'Default project' }] } } });
    });
    // The operator CLI too, with the thread a rebuild on several threads starts, built beside it: the service's log
    // into an embedded read store (whatever read store the service used), where a rebuild splits.
    const embedded = serverEnv(dataDir, { MONGODB_URL: '', READ_STORE: 'sqlite' });
    const rebuilt = await promisify(execFile)(process.execPath, [path.join(outdir, 'cli.js'), 'projections', 'rebuild', 'all', '--threads', '2'], { cwd: ROOT, env: embedded, timeout: 60_000 });
    expect(rebuilt.stderr).toContain('replaying on 2 threads');
    expect(rebuilt.stderr).not.toContain('replaying on one thread');
    // The item the service took, replayed from the log.
    expect(rebuilt.stdout).toMatch(/contentItems: rebuilt to position \d+ \(1 contentItems/);
    // And the analytics' own threads, built beside it too.
    const analyticsRebuild = () => promisify(execFile)(process.execPath, [path.join(outdir, 'cli.js'), 'analytics', 'rebuild', '--threads', '2'], { cwd: ROOT, env: embedded, timeout: 60_000 });
    // The listen: its item's hour, day and summary, and its project's hour, day and summary.
    const counted = /analytics: rebuilt to position \d+ \(6 analyticsRollups, 1 analyticsListens\)/;
    const analytics = await analyticsRebuild();
    expect(analytics.stderr).toContain('counting on 2 threads');
    expect(analytics.stderr).not.toContain('counting on one thread');
    expect(analytics.stdout).toMatch(counted);
    // Where a thread cannot start (its bundle missing), the count runs again on this one, to the same figures.
    const thread = path.join(outdir, 'analyticsThread.js');
    renameSync(thread, `${thread}.away`);
    try {
      const fallback = await analyticsRebuild();
      expect(fallback.stderr).toMatch(/counting on one thread: a thread failed \(Cannot find module .*analyticsThread\.js/);
      expect(fallback.stdout).toMatch(counted);
      expect(fallback.stdout).toContain('equal to the read model before the rebuild: yes');
    } finally {
      renameSync(`${thread}.away`, thread);
    }
  });

  it('with --if-stale, builds again only when a source is newer than the build', async () => {
    await build('--if-stale'); // built by the test above, or now
    expect(await build('--if-stale')).toBe('');
    // The build's record older than every source: as after an edit.
    utimesSync(path.join(outdir, 'meta.json'), 0, 0);
    expect(await build('--if-stale')).toMatch(/built main\.js/);
    expect(await build('--if-stale')).toBe('');
  });
});
