// A full disk, for real: the data directory on a small tmpfs filled to the last byte; writes answer 507, nothing is half-written, and all is well once there is room.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir, startServer, type TestServer } from '../support/server.ts';
import { expectClientError } from './raw.ts';

const mountPoint = path.join(newDataDir(), 'disk');
const filler = path.join(mountPoint, 'filler');
let server: TestServer;

beforeAll(async () => {
  mkdirSync(mountPoint);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint]);
  server = await startServer({ dataDir: mountPoint });
});
afterAll(async () => {
  await server?.stop();
  execFileSync('umount', ['-l', mountPoint]);
});

/** Writes until the file system refuses, in ever smaller pieces, so not one byte is left. */
function fillDisk() {
  const fd = openSync(filler, 'w');
  try {
    for (let size = 1024 * 1024; size >= 1; size = Math.floor(size / 4)) {
      const piece = Buffer.alloc(size);
      for (;;) {
        try {
          writeSync(fd, piece);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

const create = (title: string) => server.request('POST', '/v1/projects/1/content', { body: { title, body: `<p>${title}.</p>` } });
const titles = async () => (await server.request('GET', '/v1/projects/1/content?pagination[limit]=100')).body.map((item: { title: string }) => item.title).sort();

describe('a full disk', () => {
  it('answers 507 in the error shape to writes, keeps answering reads, and stores nothing of the refused writes', async () => {
    expect((await create('Before')).status).toBe(201);
    fillDisk();

    const refused = await create('Refused');
    expect(refused.status).toBe(507);
    expect(refused.body).toMatchObject({ code: 507, message: 'Insufficient Storage' });
    const viaGraphql = await server.request('POST', '/graphql', {
      body: { query: 'mutation { createContent(project_id: 1, input: { title: "Refused too", body: "<p>x</p>" }) { id } }' },
    });
    expect(viaGraphql.body.errors[0]).toMatchObject({ message: 'Insufficient Storage', extensions: { code: 'INSUFFICIENT_STORAGE', status: 507 } });
    expect(JSON.stringify(viaGraphql.body)).not.toMatch(/SQLITE|stacktrace|node_modules/);
    // Client mistakes are still told apart from the disk.
    expectClientError(await server.request('POST', '/v1/projects/1/content', { body: { title: 'x'.repeat(501), body: '<p>x</p>' } }), 422);

    expect((await server.request('GET', '/v1/projects/1')).status).toBe(200);
    expect(await titles()).toEqual(['Before']);
  });

  it('takes writes again once there is room, and a restart finds exactly what was acknowledged', async () => {
    rmSync(filler);
    expect((await create('After')).status).toBe(201);
    expect(await titles()).toEqual(['After', 'Before']);

    await server.stop();
    server = await startServer({ dataDir: mountPoint });
    expect(await titles()).toEqual(['After', 'Before']);
    expect((await create('After restart')).status).toBe(201);
  });
});
