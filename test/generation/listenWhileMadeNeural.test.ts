import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDurationMs } from '../../src/media/probe.ts';
import { longArticleHtml } from '../fixtures/longArticle.ts';
import { download, settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

const HLS = 'application/x-mpegURL';
const scratch = mkdtempSync(path.join(tmpdir(), 'listen-neural-test-'));
const segmentsOf = (playlist: string) => playlist.split('\n').filter((line) => line && !line.startsWith('#'));
const secondsOf = (playlist: string) => [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].map((match) => Number(match[1]));

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

describe('listening while the default neural voice (Piper) narrates an article', () => {
  let caught: { item: any; playlist: string } | null = null;
  let done: any;

  beforeAll(async () => {
    // No voice chosen: English is spoken by the default voice, Piper's Joe. About 600 words keep Piper busy for
    // seconds after the first short segment is listed.
    const body = { title: 'The harbour plan, live', body: longArticleHtml(600), summary_enabled: false };
    const created = await server.request('POST', '/v1/projects/1/content', { body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    const deadline = Date.now() + 240_000;
    while (Date.now() < deadline) {
      const item = (await server.request('GET', `/v1/projects/1/content/${id}`)).body;
      if (!['queued', 'processing'].includes(item.status)) break;
      const live = item.status === 'processing' ? item.audio.find((file: any) => file.content_type === HLS) : undefined;
      if (live) {
        const playlist = await (await fetch(live.url)).text();
        // The item may have finished between the two requests: then the playlist is closed, and we look again.
        if (!playlist.includes('#EXT-X-ENDLIST')) {
          caught = { item, playlist };
          break;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    done = await settled(server, id, 240_000);
    expect(done.status, done.error).toBe('processed');
  }, 500_000);

  it('announces the growing playlist while the item is processing', () => {
    expect(caught, 'the item finished before its playlist was seen growing').not.toBeNull();
    expect(caught!.item.status).toBe('processing');
    expect(caught!.item.audio).toEqual([expect.objectContaining({ content_type: HLS, variant: 'article', duration: 0 })]);
    expect(caught!.playlist).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
  });

  it('lists a short first segment, about 2 s, that a player can fetch and decode at once', async () => {
    const playlist = caught!.playlist;
    expect(secondsOf(playlist)[0]).toBeGreaterThan(1.5);
    expect(secondsOf(playlist)[0]).toBeLessThanOrEqual(2.1);
    expect(playlist).toMatch(/#EXT-X-TARGETDURATION:2\n/);
    const segment = await download(new URL(segmentsOf(playlist)[0]!, caught!.item.audio[0].url).toString(), scratch);
    const seconds = (await probeDurationMs(segment)) / 1000;
    expect(seconds).toBeGreaterThan(1.5);
    expect(seconds).toBeLessThanOrEqual(2.2);
  });

  it('is narrated by Piper, and completes with the same playlist covering the whole narration', async () => {
    const spoken = done.segments.filter((segment: any) => segment.content_type === 'text');
    expect(new Set(spoken.map((segment: any) => segment.voice.name))).toEqual(new Set(['Joe']));
    const hls = done.audio.find((file: any) => file.content_type === HLS);
    expect({ id: hls.id, url: hls.url }).toEqual({ id: caught!.item.audio[0].id, url: caught!.item.audio[0].url });
    const playlist = await (await fetch(hls.url)).text();
    expect(playlist.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
    const seconds = secondsOf(playlist);
    expect(Math.abs(seconds.reduce((sum, value) => sum + value, 0) * 1000 - done.duration)).toBeLessThanOrEqual(100);
    for (const value of seconds.slice(0, -1)) expect(value).toBeLessThanOrEqual(2.1);
  });
});
