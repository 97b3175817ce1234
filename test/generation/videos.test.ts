// The video step around the renderer: bounded concurrency, one failure stopping the rest, a deleted item stopping its
// renders. The renderer here is a stand-in that writes a file and waits (the real one is tested in test/video/).
import { existsSync, mkdtempSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSqliteEventStore } from '../../src/infrastructure/eventStore/sqlite.ts';
import type { EventStore } from '../../src/infrastructure/eventStore/port.ts';
import { createLimit } from '../../src/media/limit.ts';
import { renderItemVideos } from '../../src/generation/videos.ts';
import type { GeneratedMedia } from '../../src/content/events.ts';
import type { VideoRenderer, VideoRenderRequest } from '../../src/video/port.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'video-step-test-'));
const sizes = ['a', 'b', 'c'].map((name) => ({ name, width: 64, height: 64, enabled: true }));
let events: EventStore;
let input: { contentId: string; generation: number };

beforeEach(async () => {
  events = createSqliteEventStore(path.join(dir, `${randomUUID()}.sqlite`));
  input = { contentId: randomUUID(), generation: 1 };
  await events.appendToStream('project-1', [
    { type: 'ProjectCreated', data: { projectId: 1, organizationId: 1, fields: { name: 'Desk' }, created: '2026-01-01T00:00:00Z' } },
    { type: 'VideoSettingsUpdated', data: { changes: { enabled: true, sizes }, updated: '2026-01-01T00:00:00Z' } },
  ], 'no_stream');
  await events.appendToStream(`content-${input.contentId}`, [
    { type: 'ContentCreated', data: { contentId: input.contentId, projectId: 1, contentType: 'auto_segment', fields: { title: 'T' }, previewToken: 'p', created: '2026-01-01T00:00:00Z' } },
  ], 'no_stream');
});

/** What the narration step hands over: the mp3 in the generation's folder, its segments timed from its start. */
const narrated = (): GeneratedMedia => ({
  audio: [{ id: 1, content_type: 'audio/mpeg', url: `/media/${input.contentId}/1/article.mp3`, duration: 1200, variant: 'article' }],
  video: [],
  segments: [{ content_type: 'text', text: 'Hello there', start_time: 0, duration: 1200, words: [{ text: 'Hello', start_time: 0, duration: 500 }] }],
  summarySegments: [],
  duration: 1200,
});

/** Writes the file, then waits `ms` (or until stopped); the render of `failing` fails at once; counts renders at once. */
function standIn(options: { ms: number; failing?: string }) {
  const seen = { running: 0, most: 0, stopped: [] as string[], requests: [] as VideoRenderRequest[] };
  const renderer: VideoRenderer = {
    async render(request) {
      seen.requests.push(request);
      seen.running += 1;
      seen.most = Math.max(seen.most, seen.running);
      try {
        await mkdir(path.dirname(request.outPath), { recursive: true });
        await writeFile(request.outPath, 'partial');
        if (request.size.name === options.failing) throw new Error(`ffmpeg failed on ${request.size.name}`);
        await sleep(options.ms, undefined, { signal: request.signal }).catch(() => seen.stopped.push(request.size.name));
        request.signal?.throwIfAborted();
        return { path: request.outPath, durationMs: 1190, width: request.size.width, height: request.size.height, fonts: [] };
      } finally {
        seen.running -= 1;
      }
    },
  };
  return { renderer, seen };
}

const context = (renderer: VideoRenderer, concurrency: number) => ({ events, mediaDir: dir, videos: { renderer, limit: createLimit(concurrency) } });

describe('the video step', () => {
  it('renders every size, no more at once than the limit, from the narration file and its segments', async () => {
    const { renderer, seen } = standIn({ ms: 50 });
    const records = await renderItemVideos(context(renderer, 1), input, narrated());
    expect(seen.most).toBe(1);
    expect(records.map((record) => [record.content_type, record.variant, record.video_size?.name, record.duration])).toEqual([
      ['video/mp4', 'article', 'a', 1190],
      ['video/mp4', 'article', 'b', 1190],
      ['video/mp4', 'article', 'c', 1190],
    ]);
    expect(records.map((record) => record.url)).toEqual(['a-1', 'b-2', 'c-3'].map((name) => `/media/${input.contentId}/1/article-${name}.mp4`));
    expect(seen.requests[0]).toMatchObject({ audioPath: path.join(dir, input.contentId, '1/article.mp3'), durationMs: 1200, language: 'en_US' });
    expect(seen.requests[0]!.segments[0]!.words).toEqual([{ text: 'Hello', start_time: 0, duration: 500 }]);
  });

  it('runs renders side by side up to the limit', async () => {
    const { renderer, seen } = standIn({ ms: 100 });
    await renderItemVideos(context(renderer, 2), input, narrated());
    expect(seen.most).toBe(2);
  });

  it('stops the other renders when one fails, removes every file and fails with its reason', async () => {
    const { renderer, seen } = standIn({ ms: 2_000, failing: 'a' });
    await expect(renderItemVideos(context(renderer, 3), input, narrated())).rejects.toThrow('ffmpeg failed on a');
    expect(seen.stopped.sort()).toEqual(['b', 'c']);
    for (const name of ['a-1', 'b-2', 'c-3']) expect(existsSync(path.join(dir, `${input.contentId}/1/article-${name}.mp4`))).toBe(false);
  });

  it('stops within a second once the item is deleted, for good (no retry)', async () => {
    const { renderer, seen } = standIn({ ms: 10_000 });
    const rendering = renderItemVideos(context(renderer, 3), input, narrated());
    await sleep(200);
    await events.appendToStream(`content-${input.contentId}`, [{ type: 'ContentDeleted', data: { deleted: '2026-01-01T00:00:01Z' } }], 'any');
    const started = Date.now();
    await expect(rendering).rejects.toMatchObject({ nonRetryable: true });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(seen.stopped.sort()).toEqual(['a', 'b', 'c']);
  });

  it('renders nothing when the settings ask for no video', async () => {
    await events.appendToStream('project-1', [{ type: 'VideoSettingsUpdated', data: { changes: { enabled: false }, updated: '2026-01-01T00:00:01Z' } }], 'any');
    const { renderer, seen } = standIn({ ms: 0 });
    expect(await renderItemVideos(context(renderer, 1), input, narrated())).toEqual([]);
    expect(seen.requests).toEqual([]);
  });
});
