// Narration under test is deterministic: the test servers set SPEECH_SEED (test/support/server.ts), so one text
// narrated twice through the API is the same audio, sample for sample, with the same word times, with Piper's voice
// (its noise drawn from the seed) and with Kokoro's (which draws none). What the speech-quality tests hear then does
// not change from one run to the next.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../src/media/tool.ts';
import { download, settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'determinism-test-'));
const ARTICLE = {
  title: 'Library opens late',
  body: '<p>Dr. Patel said the late opening now starts at 3:45pm.</p><p>The reading rooms cost £3.5m and were built in the 1990s.</p>',
};

interface Reading {
  voice: string;
  /** The mp3 decoded: 16-bit mono samples. */
  samples: Buffer;
  words: Array<{ text: string; start_time: number; duration: number }>;
}

describe.skipIf(process.env.TEST_MONGODB_URL)('narration under test', () => {
  let server: TestServer;
  const readings = new Map<string, Reading[]>();

  async function narrate(voice: { id: string; name: string }): Promise<Reading> {
    const created = await server.request('POST', '/v1/projects/1/content', { body: { ...ARTICLE, title_voice_id: voice.id, body_voice_id: voice.id } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const item = await settled(server, created.body.id, 420_000);
    expect(item.status, item.error).toBe('processed');
    const mp3 = await download(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url, mkdtempSync(path.join(scratch, 'item-')));
    const decoded = await runTool('ffmpeg', ['-v', 'error', '-i', mp3, '-ac', '1', '-f', 's16le', 'pipe:1']);
    expect(decoded.code).toBe(0);
    const words = item.segments.filter((segment: any) => segment.content_type === 'text').flatMap((segment: any) => segment.words);
    return { voice: voice.name, samples: decoded.stdout, words };
  }

  beforeAll(async () => {
    server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
    const voices = (await server.request('GET', '/v1/organization/voices')).body;
    const chosen = [voices.find((voice: any) => voice.engine === 'piper' && voice.name === 'Joe'), voices.find((voice: any) => voice.engine === 'kokoro' && voice.name === 'Heart')];
    // Both readings of a voice at once: with two Piper workers, each is spoken by a different worker. The waits are
    // long for a busy machine, where Kokoro speaks slower than real time.
    const done = await Promise.all(chosen.flatMap((voice) => [narrate(voice), narrate(voice)]));
    for (const reading of done) readings.set(reading.voice, [...(readings.get(reading.voice) ?? []), reading]);
  }, 480_000);
  afterAll(() => server?.stop());

  it.each(['Joe', 'Heart'])('gives the same audio, sample for sample, and the same word times for one text read twice by %s', (voice) => {
    const [first, second] = readings.get(voice)!;
    expect(first!.samples.length).toBeGreaterThan(22_050 * 2 * 3);
    expect(second!.samples.length).toBe(first!.samples.length);
    expect(second!.samples.equals(first!.samples)).toBe(true);
    expect(second!.words).toEqual(first!.words);
  });
});
