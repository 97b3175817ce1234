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
