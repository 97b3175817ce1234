// A neural worker killed while it speaks an item: the request it was serving fails, the generation retries it on a
// fresh worker, and the item still ends processed with all its audio, as long as the same text narrated undisturbed.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerScript } from '../../src/media/engines/piper.ts';
import { probeDurationMs } from '../../src/media/probe.ts';
import { longArticleHtml } from '../fixtures/longArticle.ts';
import { download, expectSpokenWords, settled, tokensOf } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

const HLS = 'application/x-mpegURL';
const scratch = mkdtempSync(path.join(tmpdir(), 'worker-kill-test-'));
// About three minutes of speech, in nine parts: Piper takes seconds to say them all, so the kill falls
// in the middle.
const ARTICLE = { title: 'City weighs its transport overhaul', body: longArticleHtml(400) };
/** Every word of the article, as players show them. */
const WRITTEN = [...tokensOf(ARTICLE.title), ...tokensOf(ARTICLE.body.replace(/<[^>]+>/g, ' ').replace(/&\w+;/g, ''))];

const readProc = (pid: string, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return ''; // the process ended meanwhile
  }
};

/**
 * The Piper workers of this test's server: processes running piperWorker.py whose parent is a process of the
 * server (its environment names the server's data directory; the API process, or its Temporal worker).
 */
function piperWorkersOf(server: TestServer): number[] {
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid) && readProc(pid, 'cmdline').split('\0').includes(workerScript))
    .filter((pid) => {
      const parent = /^PPid:\s+(\d+)$/m.exec(readProc(pid, 'status'))?.[1];
      return parent !== undefined && readProc(parent, 'environ').split('\0').includes(`DATA_DIR=${server.dataDir}`);
    })
    .map(Number);
}

async function narrated(server: TestServer, id: string) {
  const item = await settled(server, id, 90_000);
  expect(item.status, item.error).toBe('processed');
  const mp3 = await download(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url, mkdtempSync(path.join(scratch, 'item-')));
  return { item, mp3DurationMs: await probeDurationMs(mp3) };
}

// Runs once, in the embedded run: the real-server run (TEST_MONGODB_URL set) changes only where events and read
// models are kept, and the worker pool is not behind any store.
describe.skipIf(process.env.TEST_MONGODB_URL)('a Piper worker killed while it speaks an item', () => {
  let server: TestServer;
  let killed: number[];
  /** Piper workers of the server once the item was processed: those that served the retry. */
  let after: number[];
  let item: any;
  let mp3DurationMs: number;
  let undisturbed: Awaited<ReturnType<typeof narrated>>;

  beforeAll(async () => {
    server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
    const created = await server.request('POST', '/v1/projects/1/content', { body: ARTICLE });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // Its growing playlist is listed once the first part is spoken: from then on the worker is speaking the rest.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const current = (await server.request('GET', `/v1/projects/1/content/${created.body.id}`)).body;
      expect(current.status, 'the item ended before its worker could be killed').toMatch(/^(queued|processing)$/);
      const workers = piperWorkersOf(server);
      if (current.status === 'processing' && current.audio.some((file: any) => file.content_type === HLS) && workers.length > 0) {
        for (const pid of workers) process.kill(pid, 'SIGKILL');
        killed = workers;
        break;
      }
      if (Date.now() > deadline) throw new Error(`item ${created.body.id} never listed its playlist`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    ({ item, mp3DurationMs } = await narrated(server, created.body.id));
    after = piperWorkersOf(server);
    // The same article again, with no worker killed, to compare the two narrations.
    const again = await server.request('POST', '/v1/projects/1/content', { body: ARTICLE });
    undisturbed = await narrated(server, again.body.id);
  }, 150_000);
  afterAll(() => server?.stop());

  it('is replaced by a fresh worker, and the item still ends processed in Piper’s voice', () => {
    expect(killed.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((pid) => killed.includes(pid))).toEqual([]);
    expect(item.status).toBe('processed');
    const spoken = item.segments.filter((segment: any) => segment.content_type === 'text');
    expect(new Set(spoken.map((segment: any) => segment.voice.name))).toEqual(new Set(['Joe']));
  });

  it('holds every word of the article, timed at a speaking pace, in audio as long as the item says', () => {
    const spoken = item.segments.filter((segment: any) => segment.content_type === 'text');
    for (const segment of spoken) expectSpokenWords(segment);
    expect(spoken.flatMap((segment: any) => segment.words.map((word: any) => word.text))).toEqual(WRITTEN);
    const last = spoken.at(-1);
    expect(item.duration).toBeGreaterThanOrEqual(last.start_time + last.duration);
    expect(Math.abs(mp3DurationMs - item.duration)).toBeLessThanOrEqual(150);
  });

  it('lasts as long as the same article narrated with no worker killed (within 5%)', () => {
    // Piper's pace varies slightly from one reading to the next; a segment lost or cut would differ by seconds.
    expect(undisturbed.item.segments.map((segment: any) => segment.text)).toEqual(item.segments.map((segment: any) => segment.text));
    expect(Math.abs(mp3DurationMs / undisturbed.mp3DurationMs - 1), `${mp3DurationMs} ms against ${undisturbed.mp3DurationMs} ms`).toBeLessThanOrEqual(0.05);
  });
});
