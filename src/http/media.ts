// Serves generated media files under /media/, publicly, with byte ranges and long cache lifetimes.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
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
    ctx.set('Accept-Ranges', 'bytes');
    // A file's path names its generation, so its bytes never change.
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.type = type!;
    const range = parseRange(ctx.get('range'), info.size);
    if (range === 'unsatisfiable') {
      ctx.set('Content-Range', `bytes */${info.size}`);
      return sendError(ctx, 416, 'Range Not Satisfiable');
    }
    const { start, end } = range ?? { start: 0, end: info.size - 1 };
    ctx.status = range ? 206 : 200;
    if (range) ctx.set('Content-Range', `bytes ${start}-${end}/${info.size}`);
    if (ctx.method === 'GET') ctx.body = createReadStream(file, { start, end });
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
