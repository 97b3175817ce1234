import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDurationMs, silences } from '../../src/media/probe.ts';
import { runTool } from '../../src/media/tool.ts';

let dir: string;
let toneGapTone: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'probe-test-'));
  // 1 s of tone, 0.75 s of silence, 1.25 s of tone.
  toneGapTone = join(dir, 'tone-gap-tone.wav');
  const tone = (seconds: number) => `sine=frequency=500:duration=${seconds}:sample_rate=22050`;
  await runTool('ffmpeg', [
    '-v', 'error', '-f', 'lavfi', '-i', tone(1), '-f', 'lavfi', '-i', 'anullsrc=r=22050:cl=mono:d=0.75', '-f', 'lavfi', '-i', tone(1.25),
    '-filter_complex', '[0:a][1:a][2:a]concat=n=3:v=0:a=1', '-ac', '1', toneGapTone,
  ]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('probe', () => {
  it('measures how long a file plays', async () => {
    expect(await probeDurationMs(toneGapTone)).toBeCloseTo(3000, 0);
  });

  it('finds the silences longer than minMs, in ms', async () => {
    const [gap, ...others] = await silences(toneGapTone, { noiseDb: -40, minMs: 300 });
    expect(others).toEqual([]);
    expect(gap!.start).toBeCloseTo(1000, -1);
    expect(gap!.end).toBeCloseTo(1750, -1);
    expect(await silences(toneGapTone, { noiseDb: -40, minMs: 1000 })).toEqual([]);
  });

  it('fails with a typed error on a file that is not media', async () => {
    const text = join(dir, 'text.mp3');
    await writeFile(text, 'not audio at all');
    await expect(probeDurationMs(text)).rejects.toMatchObject({ name: 'MediaError', reason: 'undecodable' });
    await expect(silences(text, { noiseDb: -40, minMs: 100 })).rejects.toMatchObject({ name: 'MediaError', reason: 'undecodable' });
  });
});
