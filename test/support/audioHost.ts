// Audio for production tests: files made with ffmpeg, served by a local HTTP server, and decoded again for measuring.
import { expect } from 'vitest';
import { runTool } from '../../src/media/tool.ts';
import { serveMadeFiles, type FileHost } from './fileHost.ts';

export type AudioHost = FileHost;

/** Makes each file with ffmpeg from a lavfi source (`sine=frequency=220:duration=3`) and serves it at /<name>. */
export const serveGeneratedAudio = (dir: string, sources: Record<string, string>): Promise<AudioHost> =>
  serveMadeFiles(dir, sources, { outputArgs: [], contentType: 'application/octet-stream' });

export const SAMPLE_RATE = 22050;

/** A file or URL decoded to mono samples in [-1, 1] at SAMPLE_RATE (an mp3 without its encoder priming). */
export async function decodeSamples(source: string): Promise<Float32Array> {
  const run = await runTool('ffmpeg', ['-v', 'error', '-i', source, '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', 'pipe:1']);
  expect(run.code, run.stderr.toString()).toBe(0);
  const pcm = run.stdout;
  return Float32Array.from({ length: pcm.length >> 1 }, (_, i) => pcm.readInt16LE(i * 2) / 32768);
}

type Window = [startMs: number, endMs: number];
const samplesOf = (audio: Float32Array, [startMs, endMs]: Window) =>
  audio.subarray(Math.round((startMs * SAMPLE_RATE) / 1000), Math.round((endMs * SAMPLE_RATE) / 1000));

/** Level of a stretch of audio, dBFS RMS. */
export function rmsDb(audio: Float32Array, window: Window): number {
  const part = samplesOf(audio, window);
  const power = part.reduce((sum, sample) => sum + sample * sample, 0) / part.length;
  return 10 * Math.log10(power);
}

/** Level of one frequency in a stretch of audio (Goertzel), dB: how loud a tone is, whatever else sounds with it. */
export function toneDb(audio: Float32Array, window: Window, frequency: number): number {
  const part = samplesOf(audio, window);
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / SAMPLE_RATE);
  let previous = 0;
  let before = 0;
  for (const sample of part) {
    const current = sample + coefficient * previous - before;
    before = previous;
    previous = current;
  }
  const power = previous * previous + before * before - coefficient * previous * before;
  return 10 * Math.log10((power * 4) / (part.length * part.length));
}
