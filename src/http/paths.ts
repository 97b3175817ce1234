// Refuses request paths whose percent-encoding does not decode (or decodes to NUL), before any route tries to decode them.
import type { Context, Next } from 'koa';
import { sendError } from './errors.ts';

export async function rejectMalformedPaths(ctx: Context, next: Next) {
  let decoded: string;
  try {
    decoded = decodeURIComponent(ctx.path);
  } catch {
    return sendError(ctx, 400, 'Malformed percent-encoding in the path');
  }
  if (decoded.includes('\u0000')) return sendError(ctx, 400, 'The path must not contain NUL characters');
  return next();
}
