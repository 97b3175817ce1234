// Request limits over fixed 60-second windows: per API key (reads and other requests apart), and per client address on the public routes.
import type { Context, Next } from 'koa';
import ipaddr from 'ipaddr.js';
import { sendError } from './errors.ts';
import { principalOf } from './auth.ts';

const WINDOW_MS = 60_000;

/** Player data, preview pages, podcast feeds and transcripts, and media files: everything served without a key. */
const PUBLIC_PATH = /^\/(?:media\/|v1\/projects\/[^/]+\/(?:player(?:\/|$)|podcast\/|playlists\/[^/]+\/podcast\/))/;

interface Window {
  started: number;
  used: number;
}

/** Counts requests per name in fixed windows, forgetting windows that have ended. */
function fixedWindows(now: () => number) {
  const windows = new Map<string, Window>();
  let lastSweep = now();
  return function count(name: string): Window & { at: number } {
    const at = now();
    if (at - lastSweep > WINDOW_MS) {
      for (const [key, window] of windows) if (at - window.started >= WINDOW_MS) windows.delete(key);
      lastSweep = at;
    }
    let window = windows.get(name);
    if (!window || at - window.started >= WINDOW_MS) {
      window = { started: at, used: 0 };
      windows.set(name, window);
    }
    return Object.assign(window, { at });
  };
}

/** Takes one request from the window, or answers 429 with Retry-After; true when the request may go on. */
function take(ctx: Context, window: Window & { at: number }, limit: number): boolean {
  ctx.set('X-RateLimit-Limit', String(limit));
  ctx.set('X-RateLimit-Reset', String(Math.ceil((window.started + WINDOW_MS) / 1000)));
  if (window.used >= limit) {
    ctx.set('X-RateLimit-Remaining', '0');
    ctx.set('Retry-After', String(Math.max(1, Math.ceil((window.started + WINDOW_MS - window.at) / 1000))));
    sendError(ctx, 429, 'Too Many Requests');
    return false;
  }
  window.used += 1;
  ctx.set('X-RateLimit-Remaining', String(limit - window.used));
  return true;
}

export function rateLimit(limits: { get: number; other: number }, now: () => number = Date.now) {
  const count = fixedWindows(now);
  return async function limitRequests(ctx: Context, next: Next) {
    const reading = ctx.method === 'GET' || ctx.method === 'HEAD';
    const window = count(`${reading ? 'get' : 'other'}:${principalOf(ctx).keyHash}`);
    if (take(ctx, window, reading ? limits.get : limits.other)) await next();
  };
}

/** Limits the public routes per client address; every other path passes untouched. */
export function publicRateLimit(limit: number, now: () => number = Date.now) {
  const count = fixedWindows(now);
  return async function limitPublicRequests(ctx: Context, next: Next) {
    if (!PUBLIC_PATH.test(ctx.path)) return next();
    if (take(ctx, count(clientAddress(ctx)), limit)) return next();
    // Players and feed readers are cross-origin: the refusal must be readable by the page that asked.
    ctx.set('Access-Control-Allow-Origin', '*');
  };
}

/**
 * The address a request came from, as one budget: behind a proxy (app.proxy) the entry the nearest proxy
 * appended to X-Forwarded-For, since entries further left are whatever the client wrote; IPv6 clients by
 * their /64, which one subscriber usually holds whole.
 */
export function clientAddress(ctx: Context): string {
  const forwarded = ctx.ips.at(-1);
  const raw = forwarded !== undefined && ipaddr.isValid(forwarded) ? forwarded : (ctx.socket.remoteAddress ?? '');
  if (!ipaddr.isValid(raw)) return raw;
  const address = ipaddr.process(raw);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}
