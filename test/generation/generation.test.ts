import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDurationMs, silences } from '../../src/media/probe.ts';
import { longArticleHtml } from '../fixtures/longArticle.ts';
import { download, settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
const scratch = mkdtempSync(path.join(tmpdir(), 'generation-test-'));
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

const create = async (body: Record<string, unknown>) => {
  const reply = await server.request('POST', '/v1/projects/1/content', { body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

describe('a 2,000-word article', () => {
  let item: any;
  let mp3: string;
  beforeAll(async () => {
    const created = await create({ title: 'The long read', body: longArticleHtml(), source_id: 'long-1' });
    // About 12 minutes of Piper speech: 1.5 to 3 minutes on two busy cores.
    item = await settled(server, created.id, 360_000);
    expect(item.status, item.error).toBe('processed');
    mp3 = await download(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url, scratch);
  }, 420_000);

  it('has an mp3 and an HLS rendition with absolute URLs and one duration in ms', () => {
    expect(item.audio.map((file: any) => [file.content_type, file.variant])).toEqual([
      ['audio/mpeg', 'article'],
      ['application/x-mpegURL', 'article'],
    ]);
    for (const file of item.audio) {
      expect(file.url.startsWith(server.baseUrl)).toBe(true);
      expect(Number.isInteger(file.id) && file.id > 0).toBe(true);
      expect(file.duration).toBe(item.duration);
    }
    expect(item.duration).toBeGreaterThan(8 * 60_000);
  });

  it('has an mp3 whose decoded duration matches the reported one within 50 ms', async () => {
    expect(Math.abs((await probeDurationMs(mp3)) - item.duration)).toBeLessThanOrEqual(50);
  });

  it('has an HLS playlist that ffprobe decodes over HTTP', async () => {
    const playlist = item.audio.find((file: any) => file.content_type === 'application/x-mpegURL').url;
    expect(Math.abs((await probeDurationMs(playlist)) - item.duration)).toBeLessThanOrEqual(1_000);
  });

  it('times segments that rise, each starting on a silence boundary of the audio', async () => {
    const spoken = item.segments.filter((segment: any) => segment.content_type === 'text');
    expect(spoken.length).toBeGreaterThan(20);
    const found = await silences(mp3, { noiseDb: -45, minMs: 150 });
    for (const [index, segment] of spoken.entries()) {
      expect(segment.duration).toBeGreaterThan(0);
      if (index === 0) continue;
      expect(segment.start_time).toBeGreaterThan(spoken[index - 1].start_time);
      // The cut between two segments falls inside a measured silence, never inside speech.
      const within = found.some((silence) => silence.start - 30 <= segment.start_time && segment.start_time <= silence.end + 30);
      expect(within, `segment ${segment.id} at ${segment.start_time} ms`).toBe(true);
    }
  });

  it('gives words measured times inside their segment, counted from its start', () => {
    for (const segment of item.segments.filter((s: any) => s.content_type === 'text')) {
      expect(segment.words.length).toBeGreaterThan(0);
      let previous = -1;
      for (const word of segment.words) {
        expect(word.start_time).toBeGreaterThan(previous);
        expect(word.start_time).toBeGreaterThanOrEqual(0);
        expect(word.start_time + word.duration).toBeLessThanOrEqual(segment.duration);
        previous = word.start_time;
      }
    }
  });

  it('puts markers, xpaths, md5s and the flagged image on the right segments', () => {
    expect(item.segments[0]).toMatchObject({ section: 'title', text: 'The long read', xpath: null });
    const keyFacts = item.segments.filter((segment: any) => segment.marker === 'key-facts');
    expect(keyFacts.length).toBeGreaterThan(0);
    expect(keyFacts.every((segment: any) => segment.xpath === '/article[1]/p[2]')).toBe(true);
    const [image] = item.segments.filter((segment: any) => segment.content_type === 'image');
    expect(image.image_url).toMatch(/^https?:\/\//);
    expect(image.duration).toBe(0);
    expect(image.start_time).toBe(item.segments[item.segments.indexOf(image) + 1].start_time);
    for (const segment of item.segments.filter((s: any) => s.content_type === 'text')) expect(segment.md5).toMatch(/^[0-9a-f]{32}$/);
  });

  it('serves media with byte ranges, the right type and a long cache lifetime', async () => {
    const url = item.audio[0].url;
    const partial = await fetch(url, { headers: { range: 'bytes=100-199' } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toMatch(/^bytes 100-199\/\d+$/);
    expect((await partial.arrayBuffer()).byteLength).toBe(100);
    expect(partial.headers.get('content-type')).toBe('audio/mpeg');
    expect(partial.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${server.baseUrl}/media/../events.sqlite`)).status).toBe(404);
  });

  it('leaves words out unless asked', async () => {
    const plain = await server.request('GET', `/v1/projects/1/content/${item.id}`);
    expect(plain.body.segments[1].words).toBeUndefined();
    expect(plain.body.segments[1].text).toBeNull();
  });
});

describe('other shapes and outcomes', () => {
  it('narrates manual segments with their own voice', async () => {
    const voice = (await server.request('GET', '/v1/organization/voices?filter[language.code]=en_GB')).body[0];
    const created = await create({ type: 'manual_segment', segments: [{ content_type: 'text', section: 'title', text: 'Breaking news tonight', voice: { id: voice.id } }] });
    const item = await settled(server, created.id);
    expect(item.status, item.error).toBe('processed');
    expect(item.segments[0]).toMatchObject({ voice: { id: voice.id, name: voice.name }, start_time: 0 });
    expect(item.audio.find((file: any) => file.content_type === 'audio/mpeg')).toBeDefined();
  });

  it('skips an item with nothing to speak, saying why', async () => {
    const item = await settled(server, (await create({ body: '<script>track()</script><p>   </p>', title_enabled: false })).id);
    expect(item.status).toBe('skipped');
    expect(item.error).toBe('there is no text or audio to narrate');
  });

  it('ends in error, with the reason on GET, when an audio segment cannot be fetched', async () => {
    const created = await create({ type: 'manual_segment', segments: [{ content_type: 'audio', audio_url: 'http://127.0.0.1:9/missing.mp3' }] });
    const item = await settled(server, created.id, 90_000);
    expect(item.status).toBe('error');
    expect(item.error).toMatch(/missing\.mp3|ECONNREFUSED|fetch/i);
  }, 100_000);

  it('regenerates on demand and when text changes with auto_segment_updates_enabled', async () => {
    const created = await create({ body: '<p>First version.</p>', auto_segment_updates_enabled: true });
    const first = await settled(server, created.id);
    const regenerated = await server.request('POST', `/v1/projects/1/content/${created.id}/regenerate`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.status).toBe('queued');
    const second = await settled(server, created.id);
    expect(second.audio[0].url).toContain(`/${created.id}/2/`);
    await server.request('PUT', `/v1/projects/1/content/${created.id}`, { body: { body: '<p>Second version, longer than the first.</p>' } });
    const third = await settled(server, created.id);
    expect(third.audio[0].url).toContain(`/${created.id}/3/`);
    expect(third.duration).toBeGreaterThan(first.duration);
    expect((await server.request('POST', '/v1/projects/1/content/nope/regenerate')).status).toBe(404);
  });

  it('publishes on completion when the project auto-publishes', async () => {
    const item = await settled(server, (await create({ body: '<p>Auto published.</p>' })).id);
    expect(item.published).toBe(true);
    const held = await settled(server, (await create({ body: '<p>Held back.</p>', published: false })).id);
    expect(held.published).toBe(false);
  });
});
