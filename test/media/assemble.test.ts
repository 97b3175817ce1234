import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assemble, type Assembly } from '../../src/media/assemble.ts';
import { MediaError } from '../../src/media/errors.ts';
import { probeDurationMs, silences } from '../../src/media/probe.ts';
import { createEspeakEngine } from '../../src/media/engines/espeak.ts';
import { runTool } from '../../src/media/tool.ts';

let dir: string;
let parts: { wavPath: string; pauseAfterMs: number; durationMs: number }[];
let assembled: Assembly;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assemble-test-'));
  const synthesizer = createEspeakEngine({ concurrency: 2, timeoutMs: 20_000 });
  const [first, third, fourth] = await Promise.all(
    // espeak starts "Critics" and "Ten" with 40-50 ms of silence (the stops' closure); it must not shift the offsets.
    ['Critics say the plan is late.', 'Ten apples and nine oranges.', 'And that is all.'].map((text, i) => synthesizer.speak(text, 'en', join(dir, `spoken-${i}.wav`))),
  );
  // A stereo 44.1 kHz part, so that assembly has to resample it to the spoken parts' 22050 Hz.
  const tone = join(dir, 'tone.wav');
  await runTool('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=8:sample_rate=44100', '-ac', '2', tone]);
  // Pauses that are whole samples at 22050 Hz, so that offsets can be compared exactly.
  parts = [
    { wavPath: first!.wavPath, pauseAfterMs: 400, durationMs: first!.durationMs },
    { wavPath: tone, pauseAfterMs: 700, durationMs: 8000 },
    { wavPath: third!.wavPath, pauseAfterMs: 600, durationMs: third!.durationMs },
    { wavPath: fourth!.wavPath, pauseAfterMs: 0, durationMs: fourth!.durationMs },
  ];
  assembled = await assemble(parts, join(dir, 'out'), 'article');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('assemble', () => {
  it('places each part after the previous parts and their pauses, exactly', () => {
    let expected = 0;
    parts.forEach((part, i) => {
      expect(assembled.offsetsMs[i]).toBeCloseTo(expected, 6);
      expected += part.durationMs + part.pauseAfterMs;
    });
  });

  it('encodes an mp3 whose duration, as ffprobe reports it, matches durationMs', async () => {
    expect(assembled.mp3Path).toBe(join(dir, 'out', 'article.mp3'));
    expect(Math.abs((await probeDurationMs(assembled.mp3Path)) - assembled.durationMs)).toBeLessThanOrEqual(50);
  });

  it('starts every part where a silence ends in the mp3', async () => {
    const quiet = await silences(assembled.mp3Path, { noiseDb: -40, minMs: 200 });
    for (const offset of assembled.offsetsMs.slice(1)) {
      const nearest = Math.min(...quiet.map((silence) => Math.abs(silence.end - offset)));
      expect(nearest, `part at ${offset} ms`).toBeLessThanOrEqual(30);
    }
  });

  it('writes an HLS rendition of ~2 s segments that ffmpeg decodes to the same length', async () => {
    const playlist = await readFile(assembled.hlsPlaylistPath, 'utf8');
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(playlist).toContain('#EXT-X-ENDLIST');
    expect(assembled.hlsSegmentPaths.length).toBeGreaterThanOrEqual(2);
    await Promise.all(assembled.hlsSegmentPaths.map((path) => access(path)));
    const segmentSeconds = [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].map((match) => Number(match[1]));
    for (const seconds of segmentSeconds.slice(0, -1)) {
      expect(seconds).toBeGreaterThanOrEqual(1.9);
      expect(seconds).toBeLessThanOrEqual(2.1);
    }
    expect(Math.abs((await probeDurationMs(assembled.hlsPlaylistPath)) - assembled.durationMs)).toBeLessThanOrEqual(50);
    const decoded = await runTool('ffmpeg', ['-v', 'error', '-i', assembled.hlsPlaylistPath, '-f', 'null', '-']);
    expect(decoded.code, decoded.stderr).toBe(0);
  });

  it('rejects a part that is not audio with a typed error', async () => {
    const notAudio = join(dir, 'not-audio.wav');
    await writeFile(notAudio, 'plain text');
    await expect(assemble([{ wavPath: notAudio, pauseAfterMs: 0 }], join(dir, 'bad'), 'x')).rejects.toBeInstanceOf(MediaError);
    await expect(assemble([{ wavPath: join(dir, 'missing.wav'), pauseAfterMs: 0 }], join(dir, 'bad'), 'x')).rejects.toMatchObject({ reason: 'invalid-input' });
  });
});
