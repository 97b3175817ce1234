// Request limits over fixed 60-second windows: per API key (reads and other requests apart), and per client address on the public routes.
import type { Context, Next } from 'koa';
import ipaddr from 'ipaddr.js';
import { sendError } from './errors.ts';
import { principalOf } from './auth.ts';

export const WINDOW_MS = 60_000;

/** Player data, preview pages, podcast feeds and transcripts, and media files: everything served without a key. */
const PUBLIC_PATH = /^\/(?:media\/|v1\/projects\/[^/]+\/(?:player(?:\/|$)|podcast\/|playlists\/[^/]+\/podcast\/))/;

/** One request taken from a name's window, or refused because the window is full. */
export interface Taken {
  allowed: boolean;
  /** Requests the window has let through, this one included. */
  used: number;
  /** When the window ends (epoch ms). */
  resetsAt: number;
  at: number;
}

/** Counts requests per name in fixed 60-second windows. */
export interface RequestCounter {
  take(name: string, limit: number): Promise<Taken>;
}

/** This process's own counts, forgetting windows that have ended: the limit is per process (docs/limits.md). */
export function memoryCounter(now: () => number = Date.now): RequestCounter {
  const windows = new Map<string, { started: number; used: number }>();
  let lastSweep = now();
  return {
    async take(name, limit) {
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
      const allowed = window.used < limit;
      if (allowed) window.used += 1;
      return { allowed, used: window.used, resetsAt: window.started + WINDOW_MS, at };
    },
  };
}

/** The limit headers of a request taken from a window, and Retry-After when the window is full. */
export function limitHeaders(taken: Taken, limit: number): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Reset': String(Math.ceil(taken.resetsAt / 1000)),
    'X-RateLimit-Remaining': String(Math.max(0, limit - taken.used)),
  };
  if (!taken.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((taken.resetsAt - taken.at) / 1000)));
  return headers;
}

export const TOO_MANY_REQUESTS = 'Too Many Requests';

/** Answers 429 with Retry-After when the window is full; sets the limit headers either way; true when the request may go on. */
export function answerLimit(ctx: Context, taken: Taken, limit: number): boolean {
  ctx.set(limitHeaders(taken, limit));
  if (taken.allowed) return true;
  sendError(ctx, 429, TOO_MANY_REQUESTS);
  return false;
}

export function rateLimit(limits: { get: number; other: number }, counter: RequestCounter = memoryCounter()) {
  return async function limitRequests(ctx: Context, next: Next) {
    const reading = ctx.method === 'GET' || ctx.method === 'HEAD';
    const limit = reading ? limits.get : limits.other;
    if (answerLimit(ctx, await counter.take(`${reading ? 'get' : 'other'}:${principalOf(ctx).keyHash}`, limit), limit)) await next();
  };
}

/** Limits the public routes per client address; every other path passes untouched. */
export function publicRateLimit(limit: number, counter: RequestCounter = memoryCounter()) {
  return async function limitPublicRequests(ctx: Context, next: Next) {
    if (!PUBLIC_PATH.test(ctx.path)) return next();
    if (answerLimit(ctx, await counter.take(`public:${clientAddress(ctx)}`, limit), limit)) return next();
    // Players and feed readers are cross-origin: the refusal must be readable by the page that asked.
    ctx.set('Access-Control-Allow-Origin', '*');
  };
}

/**
 * The address a request came from, as one budget: behind a proxy (app.proxy) the entry the nearest proxy
 * appended to X-Forwarded-For, since entries further left are whatever the client wrote; IPv6 clients by
 * their /64, which one subscriber usually holds whole.
 */
export const clientAddress = (ctx: Context): string => addressOf(ctx.get('X-Forwarded-For'), ctx.socket.remoteAddress);

/** `clientAddress` from a request's X-Forwarded-For header (as one string) and its socket's address. */
export function addressOf(forwardedFor: string | undefined, remoteAddress: string | undefined): string {
  const forwarded = forwardedFor ? forwardedFor.split(/\s*,\s*/).at(-1) : undefined;
  const raw = forwarded !== undefined && ipaddr.isValid(forwarded) ? forwarded : (remoteAddress ?? '');
  if (!ipaddr.isValid(raw)) return raw;
  const address = ipaddr.process(raw);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}
