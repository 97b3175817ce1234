// Measures media files the service made itself with ffprobe and ffmpeg (how long they play, where they are silent);
// media from outside is read only through src/media/intake.ts.
import { MediaError } from './errors.ts';
import { runTool, tail } from './tool.ts';

export interface Silence {
  start: number; // ms
  end: number; // ms
}

export interface SilenceOptions {
  /** Level below which audio counts as silent, in dBFS (e.g. −40). */
  noiseDb: number;
  /** Shortest stretch reported. */
  minMs: number;
}

export async function probeDurationMs(path: string): Promise<number> {
  const run = await runTool('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]);
  const seconds = Number.parseFloat(run.stdout.toString('utf8'));
  if (run.code !== 0 || !Number.isFinite(seconds)) {
    throw new MediaError('undecodable', `ffprobe cannot measure ${path}: ${run.startError?.message ?? tail(run.stderr)}`);
  }
  return seconds * 1000;
}

/** The silent stretches of a file's audio, in order, on ffmpeg's decoding timeline (mp3 encoder priming removed). */
export async function silences(path: string, { noiseDb, minMs }: SilenceOptions): Promise<Silence[]> {
  const filter = `silencedetect=noise=${noiseDb}dB:duration=${minMs / 1000}`;
  const run = await runTool('ffmpeg', ['-hide_banner', '-nostats', '-nostdin', '-i', path, '-vn', '-af', filter, '-f', 'null', '-']);
  if (run.code !== 0) throw new MediaError('undecodable', `ffmpeg cannot decode ${path}: ${run.startError?.message ?? tail(run.stderr)}`);
  const found: Silence[] = [];
  let start: number | undefined;
  for (const [, kind, seconds] of run.stderr.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
    const ms = Number(seconds) * 1000;
    if (kind === 'start') start = ms;
    else if (start !== undefined) {
      found.push({ start, end: ms });
      start = undefined;
    }
  }
  return found;
}
