// The one way the service makes outbound HTTP requests (audio files, webhooks; images, fonts, feeds later):
// every host, DNS answer and redirect target passes the address rule, within size, time and redirect limits.
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import { hostOf } from './addresses.ts';
import { FetchError } from './errors.ts';
import { guardedLookup, literalRefusal } from './lookup.ts';

export { FetchError, type FetchFailure } from './errors.ts';

export const MAX_REDIRECTS = 5;

export interface FetchOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Largest body accepted, declared or not; more fails the body with 'too-large'. */
  maxBytes: number;
  /** For the whole exchange: connecting, every redirect and reading the body. */
  timeoutMs: number;
  /** 'follow' (the default) follows up to MAX_REDIRECTS, checking each target again; 'manual' answers the redirect. */
  redirect?: 'follow' | 'manual';
  /** Lifts the address rule for loopback, private, link-local and similar addresses (never for cloud metadata). */
  allowPrivate: boolean;
}

export interface FetchedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: string;
  /** The body within the limits: it fails with a FetchError past maxBytes or the time limit. Read it or destroy it. */
  body: Transform;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** Headers that carry the caller's credentials stay with the origin they were meant for. */
const credentialHeaders = ['authorization', 'cookie', 'proxy-authorization'];

export async function guardedFetch(url: string, options: FetchOptions): Promise<FetchedResponse> {
  let target = httpUrl(url);
  const controller = new AbortController();
  let body: Transform | null = null;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    const error = new FetchError('timeout', `no answer within ${options.timeoutMs} ms`);
    body?.destroy(error);
    controller.abort(error);
  }, options.timeoutMs);
  let method = options.method ?? 'GET';
  let headers: Record<string, string> = { ...options.headers };
  let payload = options.body;
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await exchange(target, method, headers, payload, options.allowPrivate, controller.signal).catch((error: unknown) => {
        throw redirects > 0 && error instanceof FetchError ? new FetchError(error.reason, `redirected to ${target.href}; ${error.message}`) : error;
      });
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (options.redirect === 'manual' || !redirectStatuses.has(status) || !location) {
        body = limited(response, options.maxBytes);
        body.once('close', () => clearTimeout(timer));
        return { status, headers: response.headers, url: target.href, body };
      }
      response.destroy();
      if (redirects >= MAX_REDIRECTS) throw new FetchError('redirects', `more than ${MAX_REDIRECTS} redirects, the last to ${location}`);
      const next = redirectTarget(location, target);
      if (next.origin !== target.origin) headers = without(headers, credentialHeaders);
      // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        payload = undefined;
        headers = without(headers, ['content-type']);
      }
      target = next;
    }
  } catch (error) {
    clearTimeout(timer);
    if (timedOut) throw new FetchError('timeout', `no answer within ${options.timeoutMs} ms`);
    throw error instanceof FetchError ? error : new FetchError('network', messageOf(error));
  }
}

/** Reads a body to its end and drops it (for callers that need only the status). */
export async function discardBody(response: FetchedResponse): Promise<void> {
  response.body.resume();
  await finished(response.body);
}

function httpUrl(text: string): URL {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') throw new FetchError('bad-url', `not an http(s) URL: ${text}`);
  return url;
}

function redirectTarget(location: string, from: URL): URL {
  const next = URL.canParse(location, from) ? new URL(location, from) : null;
  if (next?.protocol !== 'http:' && next?.protocol !== 'https:') throw new FetchError('redirects', `redirected to ${location}, not an http(s) URL`);
  return next;
}

const without = (headers: Record<string, string>, names: string[]) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));

/** One request and its response head; literal hosts are checked here, names inside the connection's lookup. */
function exchange(target: URL, method: string, headers: Record<string, string>, body: string | undefined, allowPrivate: boolean, signal: AbortSignal) {
  const refused = literalRefusal(hostOf(target), allowPrivate);
  if (refused) return Promise.reject(refused);
  const client = target.protocol === 'https:' ? https : http;
  const sent = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise<IncomingMessage>((resolve, reject) => {
    // A fresh connection per request (no agent): a pooled socket could skip the lookup's check.
    const request = client.request(target, { method, headers: sent, lookup: guardedLookup(allowPrivate), agent: false, signal }, resolve);
    request.on('error', reject);
    request.end(body);
  });
}

/** The response body, cut off with 'too-large' past maxBytes: counted as it arrives, so a false Content-Length gains nothing. */
function limited(response: IncomingMessage, maxBytes: number): Transform {
  const tooLarge = () => new FetchError('too-large', `the answer is larger than ${maxBytes} bytes`);
  if (Number(response.headers['content-length']) > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  let received = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > maxBytes ? tooLarge() : null, chunk);
    },
  });
  response.once('error', (error) => limit.destroy(error instanceof FetchError ? error : new FetchError('network', messageOf(error))));
  limit.once('close', () => response.destroy());
  response.pipe(limit);
  return limit;
}

/** The innermost message: fetch-style errors hide the system error (ECONNREFUSED ...) in their cause. */
function messageOf(error: unknown): string {
  let current = error as { message?: string; cause?: unknown } | undefined;
  while (current?.cause instanceof Error) current = current.cause;
  return current?.message || String(error);
}
