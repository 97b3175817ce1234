import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assemble, type Assembly } from '../../src/media/assemble.ts';
import { createLeveller, integratedLoudness } from '../../src/media/loudness.ts';
import { runTool } from '../../src/media/tool.ts';
import { parseWav } from '../../src/media/wav.ts';
import { measureLoudness } from '../support/loudness.ts';

let dir: string;
let speech: string;
let parts: { wavPath: string; pauseAfterMs: number }[];
let assembled: Assembly;

async function ffmpeg(args: string[]): Promise<void> {
  const run = await runTool('ffmpeg', ['-v', 'error', '-y', ...args]);
  expect(run.code, run.stderr).toBe(0);
}

async function samplesOf(wavPath: string): Promise<Int16Array> {
  const pcm = parseWav(await readFile(wavPath), wavPath).data;
  return Int16Array.from({ length: pcm.length / 2 }, (_, i) => pcm.readInt16LE(i * 2));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loudness-test-'));
  // Speech as espeak-ng writes it: about −21 LUFS, peaks near full scale.
  const texts = ['The council met on Monday to discuss the new bridge and the tram extension.', 'Work is expected to begin in spring, weather permitting.'];
  const [first, last] = texts.map((_, i) => join(dir, `spoken-${i}.wav`));
  await Promise.all(texts.map((text, i) => runTool('espeak-ng', ['-v', 'en-us', '-w', join(dir, `spoken-${i}.wav`), text])));
  speech = first!;
  // Pre-recorded parts far from the voices' level: quiet music-like tones at 44.1 kHz stereo, a loud sweep up
  // to 9 kHz, and full-scale clicks over a quiet hum, whose peaks between samples stand 1 dB above the samples.
  const quiet = join(dir, 'quiet.wav');
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=220:duration=4:sample_rate=44100', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=4:sample_rate=44100',
    '-filter_complex', '[0][1]amix=inputs=2,volume=-24dB', '-ac', '2', quiet]);
  const loud = join(dir, 'loud.wav');
  await ffmpeg(['-f', 'lavfi', '-i', "aevalsrc='0.99*sin(2*PI*(200+1100*t)*t)':s=22050:d=4", loud]);
  const clicks = join(dir, 'clicks.wav');
  await ffmpeg(['-f', 'lavfi', '-i', "aevalsrc='if(lt(mod(t,0.25),0.0005),0.9,0)+0.05*sin(2*PI*300*t)':s=22050:d=4", clicks]);
  parts = [
    { wavPath: first!, pauseAfterMs: 500 },
    { wavPath: quiet, pauseAfterMs: 500 },
    { wavPath: loud, pauseAfterMs: 500 },
    { wavPath: clicks, pauseAfterMs: 500 },
    { wavPath: last!, pauseAfterMs: 0 },
  ];
  assembled = await assemble(parts, join(dir, 'out'), 'article');
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('loudness', () => {
  it('is measured as ffmpeg’s EBU R128 meter measures it', async () => {
    for (const wavPath of [speech, parts[2]!.wavPath]) {
      const ours = integratedLoudness(await samplesOf(wavPath), 22050);
      expect(Math.abs(ours - (await measureLoudness(wavPath)).integrated), wavPath).toBeLessThanOrEqual(0.1);
    }
  });

  it('brings a narration mixing voices and pre-recorded audio to −16 LUFS, true peak ≤ −1 dBTP, in the mp3 and in HLS', async () => {
    for (const file of [assembled.mp3Path, assembled.hlsPlaylistPath]) {
      const { integrated, truePeak } = await measureLoudness(file);
      expect(Math.abs(integrated + 16), `${file}: ${integrated} LUFS`).toBeLessThanOrEqual(1);
      expect(truePeak, file).toBeLessThanOrEqual(-1);
    }
  });

  it('brings each part to the same loudness, a quiet recording as a loud one', async () => {
    const ends = [...assembled.offsetsMs.slice(1).map((offset) => offset - 500), assembled.durationMs];
    for (const [i, start] of assembled.offsetsMs.entries()) {
      const part = join(dir, `part-${i}.wav`);
      await ffmpeg(['-i', assembled.mp3Path, '-ss', String(start / 1000), '-to', String(ends[i]! / 1000), part]);
      const { integrated } = await measureLoudness(part);
      expect(Math.abs(integrated + 16), `part ${i}: ${integrated} LUFS`).toBeLessThanOrEqual(1);
    }
  });

  it('changes levels only: every sample stays where it was, and silence stays silent', async () => {
    const samples = await samplesOf(speech);
    const levelled = createLeveller(0)(samples, 22050);
    expect(levelled.length).toBe(samples.length);
    // Where the sound was silent it still is, and no sample changes sign: nothing has moved in time.
    for (let i = 0; i < samples.length; i++) {
      if ((samples[i] === 0 && levelled[i] !== 0) || Math.sign(samples[i]!) * Math.sign(levelled[i]!) < 0) throw new Error(`sample ${i} moved`);
    }
    expect(levelled.filter((sample) => sample !== 0).length).toBeGreaterThan(0.9 * samples.filter((sample) => sample !== 0).length);
    expect(createLeveller(0)(new Int16Array(22050), 22050)).toEqual(new Int16Array(22050));
  });
});
