// Serves generated media files under /media/, publicly, with byte ranges; long cache lifetimes except for playlists.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Next } from 'koa';
import { sendError } from './errors.ts';
import type { Capability } from './capability.ts';

const contentTypes: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.m3u8': 'application/x-mpegURL',
  '.ts': 'video/mp2t',
  '.aac': 'audio/aac',
  '.mp4': 'video/mp4',
  '.vtt': 'text/vtt',
  '.png': 'image/png',
  // Uploaded background tracks, kept with the extension of the format their bytes show (src/media/intake.ts).
  '.wav': 'audio/wav',
  '.flac': 'audio/flac',
  '.ogg': 'audio/ogg',
  '.m4a': 'audio/mp4',
};

export function mediaFiles(mediaDir: string) {
  const root = path.resolve(mediaDir);
  return async function serveMedia(ctx: Context, next: Next) {
    if (!ctx.path.startsWith('/media/')) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return sendError(ctx, 405, 'Method Not Allowed');
    const file = fileOf(root, ctx.path.slice('/media/'.length));
    const type = file ? contentTypes[path.extname(file)] : undefined;
    const info = file && type ? await stat(file).catch(() => null) : null;
    if (!file || !info?.isFile()) return sendError(ctx, 404, 'Not Found');
    // A playlist grows while its item is generated (a new version is renamed over it at each segment): it is read
    // at once, so its length and bytes agree, and revalidated on every use.
    const isPlaylist = path.extname(file) === '.m3u8';
    const playlist = isPlaylist ? await readFile(file).catch(() => null) : null;
    if (isPlaylist && !playlist) return sendError(ctx, 404, 'Not Found');
    const size = playlist?.length ?? info.size;
    ctx.set('Accept-Ranges', 'bytes');
    // Any other file's path names its generation, and its URL is given out (in `audio`, in a playlist) only once it
    // is complete, so its bytes never change.
    ctx.set('Cache-Control', playlist ? 'no-cache' : 'public, max-age=31536000, immutable');
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.type = type!;
    const range = parseRange(ctx.get('range'), size);
    if (range === 'unsatisfiable') {
      ctx.set('Content-Range', `bytes */${size}`);
      return sendError(ctx, 416, 'Range Not Satisfiable');
    }
    const { start, end } = range ?? { start: 0, end: size - 1 };
    ctx.status = range ? 206 : 200;
    if (range) ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
    if (ctx.method === 'GET') ctx.body = playlist ? playlist.subarray(start, end + 1) : createReadStream(file, { start, end });
    ctx.length = end - start + 1;
  };
}

/** The file a URL path names inside the media folder; null for anything that does not decode or points outside it. */
function fileOf(root: string, encoded: string): string | null {
  let name: string;
  try {
    name = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  if (name.includes('\u0000')) return null;
  const file = path.resolve(root, name);
  return file.startsWith(`${root}${path.sep}`) ? file : null;
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; anything else is served whole. */
function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const start = match[1] === '' ? Math.max(0, size - Number(match[2])) : Number(match[1]);
  const end = match[1] === '' || match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

export const mediaCapability: Capability = { publicRoutes: (services) => [mediaFiles(services.mediaDir)] };
