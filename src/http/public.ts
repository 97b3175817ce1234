// What every public, cross-origin GET route shares: CORS, preflight, and where absolute URLs point.
import type { Context } from 'koa';
import { sendError } from './errors.ts';

export const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, X-Referer, X-Import, x-service-checksum',
  'Access-Control-Max-Age': '86400',
};

/** Answers preflight and wrong methods itself; true when the request is a GET or HEAD left to serve. */
export function openToAnyOrigin(ctx: Context): boolean {
  ctx.set('Access-Control-Allow-Origin', '*');
  if (ctx.method === 'OPTIONS') {
    ctx.set(CORS);
    ctx.status = 204;
    return false;
  }
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    ctx.set('Allow', 'GET, HEAD, OPTIONS');
    sendError(ctx, 405, 'Method Not Allowed');
    return false;
  }
  return true;
}

/** Base of absolute media URLs: PUBLIC_BASE_URL, else the host the request came to. */
export const baseUrlOf = (ctx: Context, publicBaseUrl: string | undefined) => publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`;
