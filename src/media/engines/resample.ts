// Brings a WAV an engine wrote at its own rate (Pico 16 kHz, RHVoice 24 kHz) to the rate assembly takes, with ffmpeg.
import { readFile, rm } from 'node:fs/promises';
import { SynthesisError } from '../errors.ts';
import { SAMPLE_RATE } from '../synthesizer.ts';
import { runTool, tail } from '../tool.ts';
import { parseWav } from '../wav.ts';

/** Writes `to` at SAMPLE_RATE from `from` (removed) and answers its 16-bit mono PCM. */
export async function resampleWav(from: string, to: string, timeoutMs: number): Promise<Buffer> {
  const run = await runTool(
    'ffmpeg',
    ['-v', 'error', '-y', '-i', from, '-af', 'aresample=resampler=soxr', '-ar', String(SAMPLE_RATE), '-ac', '1', '-c:a', 'pcm_s16le', '-map_metadata', '-1', '-bitexact', to],
    { timeoutMs },
  );
  await rm(from, { force: true });
  if (run.code !== 0) {
    await rm(to, { force: true });
    throw new SynthesisError(run.timedOut ? 'timeout' : 'failed', `ffmpeg could not resample ${from}: ${run.startError?.message ?? tail(run.stderr)}`);
  }
  return parseWav(await readFile(to), to).data;
}
