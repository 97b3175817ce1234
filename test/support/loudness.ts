// Measures a file's loudness the way podcast platforms do: ffmpeg's EBU R128 meter, with true peaks.
import { runTool } from '../../src/media/tool.ts';

export interface Loudness {
  /** Integrated loudness, LUFS. */
  integrated: number;
  /** True peak (4× oversampled), dBTP. */
  truePeak: number;
}

/** A file or URL, decoded as ffmpeg decodes it (for an mp3, without the encoder's priming). */
export async function measureLoudness(source: string): Promise<Loudness> {
  const run = await runTool('ffmpeg', ['-hide_banner', '-nostats', '-nostdin', '-i', source, '-vn', '-af', 'ebur128=peak=true:framelog=verbose', '-f', 'null', '-']);
  const summary = run.stderr.slice(run.stderr.lastIndexOf('Summary:'));
  const integrated = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1];
  const truePeak = /True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1];
  if (run.code !== 0 || integrated === undefined || truePeak === undefined) throw new Error(`ffmpeg cannot measure ${source}: ${run.stderr.slice(-500)}`);
  const level = (text: string) => (text === '-inf' ? -Infinity : Number.parseFloat(text));
  return { integrated: level(integrated), truePeak: level(truePeak) };
}
