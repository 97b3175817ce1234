// The one door for media from outside (uploads, fetched audio, images, videos, fonts): the real format is sniffed
// from the first bytes and allowed per use, and ffmpeg/ffprobe read it only through that format's demuxer with the file
// protocol alone, so no playlist, concat list, image sequence or other demuxer can open a second file or a URL.
import { open } from 'node:fs/promises';
import { MediaError } from './errors.ts';
import { imageSizeOf } from './intakeImages.ts';
import { runTool, tail } from './tool.ts';

export type MediaUse = 'audio' | 'image' | 'video' | 'font';

export type FormatName = 'mp3' | 'wav' | 'flac' | 'ogg' | 'aac' | 'mp4' | 'mov' | 'webm' | 'png' | 'jpeg' | 'webp' | 'gif' | 'ttf' | 'otf' | 'woff' | 'woff2';

export interface MediaFormat {
  name: FormatName;
  /** The extension a kept file gets: never the client's. */
  extension: string;
  /** ffmpeg's demuxer for it; fonts are read by libass, not ffmpeg. */
  demuxer: string | null;
  uses: readonly MediaUse[];
}

const format = (name: FormatName, extension: string, demuxer: string | null, ...uses: MediaUse[]): MediaFormat => ({ name, extension, demuxer, uses });

export const FORMATS: Record<FormatName, MediaFormat> = {
  mp3: format('mp3', 'mp3', 'mp3', 'audio'),
  wav: format('wav', 'wav', 'wav', 'audio'),
  flac: format('flac', 'flac', 'flac', 'audio'),
  ogg: format('ogg', 'ogg', 'ogg', 'audio'),
  aac: format('aac', 'aac', 'aac', 'audio'),
  mp4: format('mp4', 'm4a', 'mov', 'audio', 'video'),
  mov: format('mov', 'mov', 'mov', 'video'),
  webm: format('webm', 'webm', 'matroska', 'video'),
  png: format('png', 'png', 'png_pipe', 'image'),
  jpeg: format('jpeg', 'jpg', 'jpeg_pipe', 'image'),
  webp: format('webp', 'webp', 'webp_pipe', 'image'),
  gif: format('gif', 'gif', 'gif', 'image'),
  ttf: format('ttf', 'ttf', null, 'font'),
  otf: format('otf', 'otf', null, 'font'),
  woff: format('woff', 'woff', null, 'font'),
  woff2: format('woff2', 'woff2', null, 'font'),
};

/** What each use accepts, for messages. */
export const allowedNames = (use: MediaUse) => Object.values(FORMATS).filter((each) => each.uses.includes(use)).map((each) => each.name);

/** Defaults of AUDIO_MAX_DURATION_S and IMAGE_MAX_PIXELS, for callers that pass no limit. */
export const DEFAULT_MAX_AUDIO_MS = 30 * 60 * 1000;
export const DEFAULT_MAX_PIXELS = 40_000_000;
/** Encoders pad a little (an mp3's last frame): a file this much over the limit still passes. */
export const DURATION_GRACE_MS = 1000;

const HEAD_BYTES = 64 * 1024;

/** Reads byte ranges of a file without reading all of it. */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Buffer>;
}

export async function withFile<T>(path: string, use: (source: ByteSource) => Promise<T>): Promise<T> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    return await use({
      size,
      async read(offset, length) {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        return buffer.subarray(0, bytesRead);
      },
    });
  } finally {
    await handle.close();
  }
}

const ascii = (bytes: Buffer, from: number, to: number) => bytes.toString('latin1', from, to);

/** An MPEG audio frame header (layer I, II or III) or an ADTS AAC one at `at`. */
function mpegAudioAt(bytes: Buffer, at: number): FormatName | null {
  if (bytes.length < at + 4 || bytes[at] !== 0xff) return null;
  const second = bytes[at + 1]!;
  if ((second & 0xf6) === 0xf0) return 'aac';
  if ((second & 0xe0) !== 0xe0) return null;
  const layer = (second >> 1) & 3;
  const version = (second >> 3) & 3;
  const bitrate = bytes[at + 2]! >> 4;
  const rate = (bytes[at + 2]! >> 2) & 3;
  return layer !== 0 && version !== 1 && bitrate !== 15 && rate !== 3 ? 'mp3' : null;
}

/** The format the first bytes show, or null when they show none of the allowed ones. */
export function sniffHead(head: Buffer): FormatName | null {
  if (head.length < 12) return head.length >= 4 ? mpegAudioAt(head, 0) : null;
  const first4 = ascii(head, 0, 4);
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (first4 === 'GIF8' && (ascii(head, 4, 6) === '7a' || ascii(head, 4, 6) === '9a')) return 'gif';
  if (first4 === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (first4 === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return 'wav';
  if (first4 === 'fLaC') return 'flac';
  if (first4 === 'OggS') return 'ogg';
  if (ascii(head, 4, 8) === 'ftyp') return ascii(head, 8, 12) === 'qt  ' ? 'mov' : 'mp4';
  if (['moov', 'mdat', 'wide', 'free'].includes(ascii(head, 4, 8))) return 'mov';
  if (head.readUInt32BE(0) === 0x1a45dfa3) return ascii(head, 0, Math.min(head.length, 64)).includes('webm') ? 'webm' : null;
  if (head.readUInt32BE(0) === 0x00010000 || first4 === 'true') return 'ttf';
  if (first4 === 'OTTO') return 'otf';
  if (first4 === 'wOFF') return 'woff';
  if (first4 === 'wOF2') return 'woff2';
  return mpegAudioAt(head, 0);
}

/** The length of an ID3v2 tag at the start (header, body and footer), 0 when there is none. */
function id3Length(head: Buffer): number {
  if (head.length < 10 || ascii(head, 0, 3) !== 'ID3') return 0;
  const size = ((head[6]! & 0x7f) << 21) | ((head[7]! & 0x7f) << 14) | ((head[8]! & 0x7f) << 7) | (head[9]! & 0x7f);
  return 10 + size + (head[5]! & 0x10 ? 10 : 0);
}

/** The file's format from its bytes: an ID3v2 tag (which ffmpeg skips before any demuxer) may precede audio. */
export async function sniffFile(path: string): Promise<MediaFormat | null> {
  return withFile(path, async (source) => {
    let offset = 0;
    let head = await source.read(0, HEAD_BYTES);
    for (let tags = 0; tags < 4; tags++) {
      const skip = id3Length(head);
      if (skip === 0) break;
      offset += skip;
      head = await source.read(offset, HEAD_BYTES);
    }
    const name = sniffHead(head);
    if (!name) return null;
    // Behind a tag only audio is allowed: the formats ffmpeg reads after skipping it.
    if (offset > 0 && !['mp3', 'aac', 'flac'].includes(name)) return null;
    return FORMATS[name];
  });
}

/** The file's format when `use` allows it, else a permanent 'unsupported-format' failure naming `source`. */
export async function admitFormat(path: string, use: MediaUse, source: string): Promise<MediaFormat> {
  const found = await sniffFile(path);
  if (found?.uses.includes(use)) return found;
  const what = found ? `${found.name}, not ${article(use)} ${use} format allowed here` : `not ${article(use)} ${use} format allowed here`;
  throw new MediaError('unsupported-format', `${source} is ${what} (allowed: ${allowedNames(use).join(', ')})`);
}

const article = (use: MediaUse) => (use === 'audio' || use === 'image' ? 'an' : 'a');

/**
 * What ffmpeg or ffprobe is given before `-i` for a file of this format: its demuxer, the file protocol only, and for
 * mp4/mov no external data references.
 */
export function inputOptions(format: MediaFormat): string[] {
  if (!format.demuxer) throw new RangeError(`${format.name} is not read by ffmpeg`);
  return ['-f', format.demuxer, '-protocol_whitelist', 'file', ...(format.demuxer === 'mov' ? ['-enable_drefs', '0'] : [])];
}

/** `-i` with the file named through the file protocol, so no other protocol can be read from its name. */
export const inputOf = (format: MediaFormat, path: string): string[] => [...inputOptions(format), '-i', `file:${path}`];

/** How long the file plays, from its header, by ffprobe through its demuxer; null when the header does not say. */
export async function headerDurationMs(path: string, format: MediaFormat, timeoutMs: number, source: string): Promise<number | null> {
  const run = await runTool('ffprobe', ['-v', 'error', ...inputOptions(format), '-show_entries', 'format=duration', '-of', 'csv=p=0', `file:${path}`], {
    timeoutMs: Math.max(1, Math.min(timeoutMs, 15_000)),
  });
  if (run.timedOut) throw new MediaError('timeout', `measuring ${source} took too long`);
  if (run.code !== 0) throw new MediaError('undecodable', `${source} is not decodable ${format.name}: ${run.startError?.message ?? clean(run.stderr, path)}`);
  const seconds = Number.parseFloat(run.stdout.toString('utf8'));
  return Number.isFinite(seconds) ? seconds * 1000 : null;
}

/** ffmpeg's last lines without our own scratch file's path. */
export const clean = (stderr: string, path: string) => tail(stderr, 2).replaceAll(`file:${path}: `, '').replaceAll(`file:${path}`, 'the file');

export interface AudioAdmission {
  format: MediaFormat;
  /** From the header; null when the header does not say (the decoding is then bounded instead). */
  durationMs: number | null;
}

/** Allowed audio whose header says it plays at most `maxDurationMs` (plus the grace); checked before any decoding. */
export async function admitAudio(path: string, source: string, { maxDurationMs = DEFAULT_MAX_AUDIO_MS, timeoutMs }: { maxDurationMs?: number; timeoutMs: number }): Promise<AudioAdmission> {
  const format = await admitFormat(path, 'audio', source);
  const durationMs = await headerDurationMs(path, format, timeoutMs, source);
  if (durationMs !== null && durationMs > maxDurationMs + DURATION_GRACE_MS) throw tooLong(source, durationMs, maxDurationMs);
  return { format, durationMs };
}

export const tooLong = (source: string, durationMs: number, maxDurationMs: number) =>
  new MediaError('over-limit', `${source} plays ${minutes(durationMs)}, longer than the ${minutes(maxDurationMs)} allowed`);

const minutes = (ms: number) => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1).replace(/\.0$/, '')} min` : `${(ms / 1000).toFixed(1).replace(/\.0$/, '')} s`);

export interface ImageAdmission {
  format: MediaFormat;
  width: number;
  height: number;
}

/** An allowed image of at most `maxPixels`, its size read from its header: nothing is decoded. */
export async function admitImage(path: string, source: string, { maxPixels = DEFAULT_MAX_PIXELS }: { maxPixels?: number } = {}): Promise<ImageAdmission> {
  const format = await admitFormat(path, 'image', source);
  const size = await withFile(path, (bytes) => imageSizeOf(format.name, bytes));
  if (!size || size.width < 1 || size.height < 1) throw new MediaError('unsupported-format', `${source} is a ${format.name} whose header gives no picture size`);
  if (size.width * size.height > maxPixels) throw tooManyPixels(source, size.width, size.height, maxPixels);
  return { format, ...size };
}

export const tooManyPixels = (source: string, width: number, height: number, maxPixels: number) =>
  new MediaError('over-limit', `${source} is ${width}×${height} pixels, more than the ${(maxPixels / 1e6).toFixed(1).replace(/\.0$/, '')} megapixels allowed`);

export interface VideoAdmission {
  format: MediaFormat;
  width: number;
  height: number;
  durationMs: number;
  hasAudio: boolean;
}

/** An allowed video of at most `maxPixels` per frame, measured by ffprobe through its demuxer. */
export async function admitVideo(path: string, source: string, { maxPixels = DEFAULT_MAX_PIXELS, timeoutMs }: { maxPixels?: number; timeoutMs: number }): Promise<VideoAdmission> {
  const format = await admitFormat(path, 'video', source);
  const args = ['-v', 'error', ...inputOptions(format), '-show_entries', 'stream=codec_type,width,height:format=duration', '-of', 'json', `file:${path}`];
  const run = await runTool('ffprobe', args, { timeoutMs: Math.max(1, Math.min(timeoutMs, 15_000)) });
  if (run.timedOut) throw new MediaError('timeout', `measuring ${source} took too long`);
  const parsed = run.code === 0 ? (JSON.parse(run.stdout.toString()) as { streams?: { codec_type: string; width?: number; height?: number }[]; format?: { duration?: string } }) : {};
  const video = parsed.streams?.find((stream) => stream.codec_type === 'video');
  const durationMs = Number(parsed.format?.duration) * 1000;
  if (!video?.width || !video.height || !(durationMs > 0)) throw new MediaError('undecodable', `${source} is not a video ffmpeg can read`);
  if (video.width * video.height > maxPixels) throw tooManyPixels(source, video.width, video.height, maxPixels);
  return { format, width: video.width, height: video.height, durationMs, hasAudio: parsed.streams!.some((stream) => stream.codec_type === 'audio') };
}
