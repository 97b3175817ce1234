// Helpers for generation tests: wait for an item to settle, download its media for ffprobe.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { TestServer } from './server.ts';

/** Polls GET until the item leaves queued/processing (usable in hooks, where expect.poll is not). */
export async function settled(server: TestServer, id: string, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const item = (await server.request('GET', `/v1/projects/1/content/${id}?segments=full&words=full`)).body;
    if (!['queued', 'processing'].includes(item.status)) return item;
    if (Date.now() > deadline) throw new Error(`item ${id} still ${item.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function download(url: string, dir: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  const file = path.join(dir, path.basename(new URL(url).pathname));
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

/** The written words of a text as players show them: whitespace tokens without the punctuation around them. */
export const tokensOf = (text: string) => text.split(/\s+/).map((token) => token.replace(/^\p{P}+|\p{P}+$/gu, '')).filter(Boolean);

/**
 * A spoken segment times every written word, in order, within the segment, at a speaking voice's pace: two to
 * five words a second, up to `maxMsPerWord` where numbers are several words spoken.
 */
export function expectSpokenWords(segment: any, maxMsPerWord = 600): void {
  const words = tokensOf(segment.text);
  expect(segment.words.map((word: any) => word.text)).toEqual(words);
  expect(segment.duration).toBeGreaterThan(words.length * 200);
  expect(segment.duration).toBeLessThan(words.length * maxMsPerWord + 1_000);
  let previous = -1;
  for (const word of segment.words) {
    expect(word.start_time).toBeGreaterThan(previous);
    expect(word.duration).toBeGreaterThan(0);
    previous = word.start_time;
  }
  const last = segment.words.at(-1);
  expect(last.start_time + last.duration).toBeLessThanOrEqual(segment.duration);
}
