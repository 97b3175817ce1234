import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDurationMs } from '../../src/media/probe.ts';
import { runTool } from '../../src/media/tool.ts';
import { longArticleHtml } from '../fixtures/longArticle.ts';
import { cli } from '../support/cli.ts';
import { download, settled } from '../support/generation.ts';
import { newDataDir, startServer, startWorker, usesWorker, type TestServer } from '../support/server.ts';

let server: TestServer;
const scratch = mkdtempSync(path.join(tmpdir(), 'listen-test-'));
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

const HLS = 'application/x-mpegURL';
const segmentsOf = (playlist: string) => playlist.split('\n').filter((line) => line && !line.startsWith('#'));
const secondsOf = (playlist: string) => [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);

/** A 2,000-word article (about 12 minutes of speech) spoken by an espeak-ng voice; answers its id. */
async function createLongArticle(on: TestServer): Promise<string> {
  const voices = (await on.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=en_GB')).body;
  expect(voices.length).toBeGreaterThan(0);
  const voice = voices[0].id;
  // espeak-ng is fast, yet this keeps the item processing for seconds after its first 2 s segment is listed
  // (here: listed after about 0.5 s, processed after 3 to 4 s).
  const body = { title: 'The long read, live', body: longArticleHtml(), title_voice_id: voice, body_voice_id: voice, summary_enabled: false };
  const created = await on.request('POST', '/v1/projects/1/content', { body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

interface Caught {
  item: any;
  playlist: string;
  cacheControl: string | null;
}

/** Polls the item while it is made until it lists a playlist that is still growing; null if it ended first. */
async function catchWhileProcessing(id: string, timeoutMs: number, on = server): Promise<Caught | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const item = (await on.request('GET', `/v1/projects/1/content/${id}`)).body;
    if (!['queued', 'processing'].includes(item.status)) return null;
    const live = item.audio.find((file: any) => file.content_type === HLS);
    if (item.status === 'processing' && live) {
      const reply = await fetch(live.url);
      const playlist = await reply.text();
      // The item may have finished between the two requests: then the playlist is closed, and we look again.
      if (!playlist.includes('#EXT-X-ENDLIST')) return { item, playlist, cacheControl: reply.headers.get('cache-control') };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`item ${id} did not finish in ${timeoutMs} ms`);
}

describe('listening while an article is made', () => {
  let caught: Caught | null;
  let done: any;
  beforeAll(async () => {
    const id = await createLongArticle(server);
    caught = await catchWhileProcessing(id, 300_000);
    done = await settled(server, id, 300_000);
    expect(done.status, done.error).toBe('processed');
  }, 620_000);

  it('lists the growing playlist, alone, while the item is processing', () => {
    expect(caught, 'the item finished before its playlist was seen growing').not.toBeNull();
    const { item } = caught!;
    expect(item.status).toBe('processing');
    expect(item.audio).toHaveLength(1);
    expect(item.audio[0]).toMatchObject({ content_type: HLS, variant: 'article', duration: 0 });
    expect(item.audio[0].url.startsWith(`${server.baseUrl}/media/${item.id}/1/`)).toBe(true);
  });

  it('serves it as an EVENT playlist of at least one segment, not cached and not ended', () => {
    const { playlist, cacheControl } = caught!;
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(playlist).not.toContain('#EXT-X-ENDLIST');
    expect(segmentsOf(playlist).length).toBeGreaterThanOrEqual(1);
    expect(cacheControl).toBe('no-cache');
  });

  it('has a first segment a player can fetch and decode while the rest is made', async () => {
    const playlistUrl = new URL(caught!.item.audio[0].url);
    const segmentUrl = new URL(segmentsOf(caught!.playlist)[0]!, playlistUrl).toString();
    const segment = await download(segmentUrl, scratch);
    const decoded = await runTool('ffmpeg', ['-v', 'error', '-i', segment, '-f', 'null', '-']);
    expect(decoded.code, decoded.stderr).toBe(0);
    expect(await probeDurationMs(segment)).toBeGreaterThan(1_500);
  });

  it('completes with the mp3 and the same playlist, now ended and covering the whole narration', async () => {
    expect(done.audio.map((file: any) => [file.content_type, file.variant])).toEqual([
      ['audio/mpeg', 'article'],
      [HLS, 'article'],
    ]);
    const hls = done.audio[1];
    expect({ id: hls.id, url: hls.url }).toEqual({ id: caught!.item.audio[0].id, url: caught!.item.audio[0].url });
    expect(hls.duration).toBe(done.duration);
    const playlist = await (await fetch(hls.url)).text();
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(playlist.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
    expect(Math.abs(secondsOf(playlist) * 1000 - done.duration)).toBeLessThanOrEqual(100);
    const mp3 = await download(done.audio[0].url, scratch);
    expect(Math.abs((await probeDurationMs(mp3)) - done.duration)).toBeLessThanOrEqual(50);
  });
});

describe('a generation interrupted after its playlist was listed', () => {
  it('is announced once, and completes with the same playlist id and URL', async () => {
    const dataDir = newDataDir();
    const env = { GENERATION_ENABLED: 'true' };
    const first = await startServer({ dataDir, env });
    const id = await createLongArticle(first);
    const caught = await catchWhileProcessing(id, 300_000, first);
    expect(caught, 'the item finished before its playlist was seen growing').not.toBeNull();
    // The generation runs again from the start, in a fresh folder: its playlist grows again under the same URL.
    let resumed = first;
    let worker: Awaited<ReturnType<typeof startWorker>> | null = null;
    if (usesWorker(first.env)) {
      await first.stopWorker('SIGKILL');
      worker = await startWorker(first.env);
    } else {
      await first.stop('SIGKILL');
      resumed = await startServer({ dataDir, env });
    }
    const done = await settled(resumed, id, 300_000);
    expect(done.status, done.error).toBe('processed');
    const hls = done.audio.find((file: any) => file.content_type === HLS);
    expect({ id: hls.id, url: hls.url.slice(resumed.baseUrl.length) }).toEqual({ id: caught!.item.audio[0].id, url: caught!.item.audio[0].url.slice(first.baseUrl.length) });
    const playlist = await (await fetch(hls.url)).text();
    expect(Math.abs(secondsOf(playlist) * 1000 - done.duration)).toBeLessThanOrEqual(100);
    const stream = await cli(resumed.env, 'events', `content-${id}`);
    const types = stream.stdout.trim().split('\n').map((line) => JSON.parse(line).type);
    expect(types.filter((type) => type === 'ContentStreamStarted')).toHaveLength(1);
    expect(types.filter((type) => type === 'ContentProcessed')).toHaveLength(1);
    worker?.child.kill('SIGTERM');
    await resumed.stop();
  }, 620_000);
});
