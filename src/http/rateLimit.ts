// Per-key request limits over fixed 60-second windows: one budget for reads, one for everything else.
import type { Context, Next } from 'koa';
import { sendError } from './errors.ts';
import { principalOf } from './auth.ts';

const WINDOW_MS = 60_000;

interface Window {
  started: number;
  used: number;
}

export function rateLimit(limits: { get: number; other: number }, now: () => number = Date.now) {
  const windows = new Map<string, Window>();
  let lastSweep = now();

  return async function limitRequests(ctx: Context, next: Next) {
    const reading = ctx.method === 'GET' || ctx.method === 'HEAD';
    const limit = reading ? limits.get : limits.other;
    const key = `${reading ? 'get' : 'other'}:${principalOf(ctx).keyHash}`;
    const at = now();
    if (at - lastSweep > WINDOW_MS) {
      for (const [name, window] of windows) if (at - window.started >= WINDOW_MS) windows.delete(name);
      lastSweep = at;
    }
    let window = windows.get(key);
    if (!window || at - window.started >= WINDOW_MS) {
      window = { started: at, used: 0 };
      windows.set(key, window);
    }
    const resetSeconds = Math.max(1, Math.ceil((window.started + WINDOW_MS - at) / 1000));
    ctx.set('X-RateLimit-Limit', String(limit));
    ctx.set('X-RateLimit-Reset', String(Math.ceil((window.started + WINDOW_MS) / 1000)));
    if (window.used >= limit) {
      ctx.set('X-RateLimit-Remaining', '0');
      ctx.set('Retry-After', String(resetSeconds));
      sendError(ctx, 429, 'Too Many Requests');
      return;
    }
    window.used += 1;
    ctx.set('X-RateLimit-Remaining', String(limit - window.used));
    await next();
  };
}
