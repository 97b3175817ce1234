// Idempotency-Key on REST POSTs (Stripe's semantics): a retried request gets the first answer again instead
// of acting twice. Records live in the event store, so they survive restarts and settle races by revision.
import { createHash } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { handleCommand } from '../shared/decider.ts';
import { invalid } from '../shared/errors.ts';
import { principalOf, type Principal } from './auth.ts';
import { idempotencyDecider, type StoredResponse } from './idempotencyRecords.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const MAX_KEY_LENGTH = 255;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Keys belong to the API key that sent them: two clients choosing the same key never meet. */
const streamOf = (apiKeyHash: string, key: string) => `idempotency-${sha256(`${apiKeyHash}\n${key}`)}`;

/** What makes two requests "the same": method, path with query, and the parsed body (its JSON text, keys in their order). */
const fingerprintOf = (ctx: Context) => sha256(`${ctx.method} ${ctx.url}\n${JSON.stringify(ctx.request.body ?? null)}`);

function keyOf(ctx: Context): string | null {
  const header = ctx.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header.join(', ') : header;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw invalid([{ location: 'Idempotency-Key', message: `must have 1 to ${MAX_KEY_LENGTH} characters` }], 'Invalid Idempotency-Key header');
  }
  return key;
}

/** Only a success is kept: a refused request changed nothing, so the client may fix it and send it again. */
function storable(ctx: Context): StoredResponse | null {
  if (ctx.status < 200 || ctx.status > 299) return null;
  const body: unknown = ctx.body;
  if (body === null || body === undefined) return { status: ctx.status, body: null };
  if (typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') return null;
  return { status: ctx.status, body };
}

function replay(ctx: Context, response: StoredResponse) {
  if (response.body !== null) ctx.body = response.body;
  ctx.status = response.status;
  ctx.set(REPLAYED_HEADER, 'true');
}

/** For authenticated REST routes: runs after authentication and body parsing, before the route. */
export function idempotentPosts(store: EventStore, now: () => Date, log: (message: string) => void) {
  return async function honourIdempotencyKey(ctx: Context, next: Next) {
    // Public routes answer before authentication; only keyed REST routes get here with a principal.
    const principal = principalOf(ctx) as Principal | undefined;
    if (ctx.method !== 'POST' || !ctx.path.startsWith('/v1/') || !principal) return next();
    const key = keyOf(ctx);
    if (key === null) return next();
    const stream = streamOf(principal.keyHash, key);
    const { state } = await handleCommand(store, stream, idempotencyDecider, { kind: 'Claim', fingerprint: fingerprintOf(ctx), now: now().toISOString() });
    // A claim either starts this request (running) or finds the first one's answer.
    if (state.kind !== 'running') return state.kind === 'answered' ? replay(ctx, state.response) : next();
    const started = state.started;
    let response: StoredResponse | null = null;
    try {
      await next();
      response = storable(ctx);
    } finally {
      const at = now().toISOString();
      const command = response ? ({ kind: 'Record', started, response, now: at } as const) : ({ kind: 'Release', started, now: at } as const);
      // The request has acted and its answer stands; a record that cannot be written only means a retry
      // within the claim's lease gets a 409, and after it runs again.
      await handleCommand(store, stream, idempotencyDecider, command).catch((error: unknown) =>
        log(`idempotency record of ${stream} not written: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  };
}
