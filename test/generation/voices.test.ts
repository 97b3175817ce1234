import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDurationMs } from '../../src/media/probe.ts';
import { download, expectSpokenWords, settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'voices-test-'));

async function narrate(server: TestServer, body: Record<string, unknown>) {
  const created = await server.request('POST', '/v1/projects/1/content', { body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const item = await settled(server, created.body.id, 90_000);
  expect(item.status, item.error).toBe('processed');
  return item;
}

describe('with Piper installed (npm run setup)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
  });
  afterAll(() => server.stop());

  it('lists the Piper voice Joe for en_US beside the espeak-ng voices, and says so at start', async () => {
    const american = (await server.request('GET', '/v1/organization/voices?filter[language.code]=en_US')).body;
    expect(american).toContainEqual(expect.objectContaining({ id: expect.any(Number), name: 'Joe', language: { code: 'en_US', name: 'American English' } }));
    expect(american.length).toBeGreaterThan(1);
    expect(server.output()).toMatch(/speech: Piper voices Joe \(en_US\) and \d+ espeak-ng voices/);
  });

  it('narrates English with Joe by default: plausible audio, every written word timed in order inside its segment', async () => {
    const item = await narrate(server, {
      title: 'Natural voices',
      body: '<p>In 1996, Dr. Smith read 3.5 books — and then wrote one of his own.</p><p>The second paragraph ends the story.</p>',
    });
    const spoken = item.segments.filter((segment: any) => segment.content_type === 'text');
    expect(spoken).toHaveLength(3);
    const mp3 = await download(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url, scratch);
    expect(Math.abs((await probeDurationMs(mp3)) - item.duration)).toBeLessThanOrEqual(50);
    for (const segment of spoken) {
      expect(segment.voice).toMatchObject({ name: 'Joe' });
      expect(segment.language).toEqual({ code: 'en_US', name: 'American English' });
      expectSpokenWords(segment);
    }
  });

  it('speaks British English with Kokoro\'s Emma, and German with Pico', async () => {
    const british = (await server.request('GET', '/v1/organization/voices?filter[language.code]=en_GB')).body[0];
    expect(british).toMatchObject({ name: 'Emma', engine: 'kokoro', accent: 'British' });
    const item = await narrate(server, {
      type: 'manual_segment',
      segments: [
        { content_type: 'text', text: 'Good evening.', language: { code: 'en_GB' } },
        { content_type: 'text', text: 'Guten Abend.', language: { code: 'de' } },
      ],
    });
    expect(item.segments.map((segment: any) => segment.voice.name)).toEqual([british.name, 'Pico']);
  });
});

describe('without Piper and Kokoro', () => {
  it('starts on espeak-ng alone, saying so, and narrates English with it', async () => {
    const server = await startServer({ env: { GENERATION_ENABLED: 'true', PIPER_VENV: path.join(scratch, 'no-venv'), KOKORO_VENV: path.join(scratch, 'no-venv') } });
    try {
      expect(server.output()).toMatch(/speech: Piper is not installed .*; every language uses espeak-ng/);
      expect(server.output()).toMatch(/speech: Kokoro is not installed/);
      const voices = (await server.request('GET', '/v1/organization/voices?filter[language.code]=en_US')).body;
      expect(voices.map((voice: any) => voice.name)).not.toContain('Joe');
      const item = await narrate(server, { type: 'manual_segment', segments: [{ content_type: 'text', text: 'Hello there.' }] });
      expect(item.segments[0].voice.name).toMatch(/^English/);
      expect(item.segments[0].words.map((word: any) => word.text)).toEqual(['Hello', 'there']);
    } finally {
      await server.stop();
    }
  });
});
