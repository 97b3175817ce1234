// The one gate every request body passes, REST and GraphQL alike: JSON type, size, UTF-8, nesting and content checks before any handler sees it.
import type { Context, Next } from 'koa';
import { invalid } from '../shared/errors.ts';
import { sendError } from './errors.ts';
import { readBody } from './readBody.ts';
import { tooDeepAt, valueProblems } from './jsonScan.ts';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body, set by `jsonBodies` ({} when the request has none). */
    body?: unknown;
    rawBody: string;
  }
}

export interface BodyLimits {
  /** Largest body accepted, in bytes (MAX_BODY_BYTES). */
  maxBytes: number;
}

/** Deeper than any body the API defines (its deepest is 5 levels); far below what could hurt a parser or a projection. */
export const MAX_JSON_DEPTH = 32;
/** Keys and items in all under one free-form field (`metadata`, webhook `headers`, ...). */
export const MAX_FREE_FORM_ENTRIES = 1000;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/**
 * The routes that take a multipart/form-data body, whose handlers read it themselves within the audio size limit: a
 * background track's audio and a content item's recording, straight to a file (src/http/upload.ts), and voice
 * cloning's recordings, read and dropped before its 422 (src/voices/clone.ts).
 */
const MULTIPART_ROUTES = new Set(['POST /v1/background_tracks', 'POST /v1/organization/voices/clone']);
/** Routes that take nothing but multipart/form-data: another body is refused, unread. */
const MULTIPART_ONLY = /^\/v1\/projects\/[^/]+\/content\/upload$/;
const takesMultipart = (ctx: Context) => MULTIPART_ROUTES.has(`${ctx.method} ${ctx.path}`) || (ctx.method === 'POST' && MULTIPART_ONLY.test(ctx.path));
const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Like the body parser it replaces: only an object or an array at the top. */
const OBJECT_OR_ARRAY = /^[\x20\t\n\r]*[[{]/;

const hasBody = (ctx: Context) =>
  ctx.get('transfer-encoding') !== '' || (ctx.get('content-length') !== '' && ctx.get('content-length') !== '0');

export function jsonBodies(limits: BodyLimits) {
  return async function readJsonBody(ctx: Context, next: Next) {
    if (!BODY_METHODS.has(ctx.method)) return next();
    if (!hasBody(ctx)) {
      ctx.request.body = {};
      return next();
    }
    if (takesMultipart(ctx) && ctx.request.is('multipart/form-data')) return next();
    if (ctx.method === 'POST' && MULTIPART_ONLY.test(ctx.path)) {
      ctx.res.shouldKeepAlive = true;
      ctx.req.resume();
      return sendError(ctx, 415, 'Unsupported Media Type: send the recording as multipart/form-data, in a part named "file"');
    }
    const charset = ctx.request.charset.toLowerCase();
    if (!ctx.request.is('json', '+json') || (charset !== '' && charset !== 'utf-8' && charset !== 'utf8')) {
      return sendError(ctx, 415, 'Unsupported Media Type: send the body as application/json in UTF-8');
    }
    const encoding = ctx.get('content-encoding').toLowerCase();
    if (encoding !== '' && encoding !== 'identity') return sendError(ctx, 415, 'Unsupported Media Type: compressed bodies are not accepted');
    const read = await readBody(ctx.req, limits.maxBytes);
    if (!read.ok) {
      if (read.reason === 'incomplete') return sendError(ctx, 400, 'Request body incomplete');
      // Keep reading (and dropping) what the client is still sending, even if it asked to close: closing now would
      // reset the connection under the 413 before the client reads it. The request timeout bounds the wait.
      ctx.res.shouldKeepAlive = true;
      return sendError(ctx, 413, 'Request body too large');
    }
    let text: string;
    try {
      text = utf8.decode(read.bytes);
    } catch {
      return sendError(ctx, 400, 'Request body is not valid UTF-8');
    }
    ctx.request.body = parseChecked(text);
    ctx.request.rawBody = text;
    return next();
  };
}

/** The parsed body, or the 400/422 that says what is wrong with it. */
function parseChecked(text: string): unknown {
  if (text.trim() === '') return {};
  const deep = tooDeepAt(text, MAX_JSON_DEPTH);
  if (deep) throw invalid([{ location: deep, message: `must not nest more than ${MAX_JSON_DEPTH} levels deep` }]);
  let parsed: unknown;
  try {
    if (!OBJECT_OR_ARRAY.test(text)) throw new SyntaxError('not an object or array');
    parsed = JSON.parse(text);
  } catch {
    throw new MalformedJson();
  }
  const problems = valueProblems(parsed, MAX_FREE_FORM_ENTRIES);
  if (problems.length > 0) throw invalid(problems);
  return parsed;
}

/** Answered as 400 "Malformed JSON" by the error handler, as Koa's body parser errors were. */
class MalformedJson extends SyntaxError {
  readonly status = 400;
}
