// The preview page at /v1/projects/{p}/player/preview/{id}: one item read aloud with its segments, for editors.
import { createHash } from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import type { Services } from '../services.ts';
import { sendError } from '../http/errors.ts';
import { rawQuery } from '../http/query.ts';
import { baseUrlOf } from '../http/public.ts';
import { notFound } from '../shared/errors.ts';
import { playerActions } from './actions.ts';
import { PREVIEW_SCRIPT, PREVIEW_STYLE, previewHtml } from './previewPage.ts';
import { parsePlayerQuery } from './query.ts';

const PREVIEW_PATH = /^\/v1\/projects\/(\d{1,12})\/player\/preview\/([^/]+)$/;

const PAGE = previewHtml(PREVIEW_STYLE, PREVIEW_SCRIPT);
const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Only the page's own script and style run; data comes from this origin, media from wherever its URLs point. */
const HEADERS = {
  'Content-Security-Policy': [
    "default-src 'none'",
    `script-src ${hash(PREVIEW_SCRIPT)}`,
    `style-src ${hash(PREVIEW_STYLE)}`,
    "connect-src 'self'",
    'media-src * blob:',
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; '),
  // The preview token is in the page's URL: keep it out of Referer headers.
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'private, no-cache',
};

/**
 * The preview page's handler; goes before the player-data routes, whose path it shares. Public like player
 * data: the item must be one that `by_content_id` with the same query would show, else the answer is 404.
 */
export function previewPage(services: Services): Middleware {
  const player = playerActions(services);

  return async function servePreview(ctx: Context, next: Next) {
    const match = PREVIEW_PATH.exec(ctx.path);
    if (!match) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      return sendError(ctx, 405, 'Method Not Allowed');
    }
    let id: string;
    try {
      id = decodeURIComponent(match[2]!);
    } catch {
      throw notFound();
    }
    const query = parsePlayerQuery(rawQuery(ctx));
    const baseUrl = baseUrlOf(ctx, services.publicBaseUrl);
    const answer = await player.answer({ projectId: Number(match[1]), identifiers: [{ kind: 'content_id', value: id }], query, baseUrl });
    if (!answer.found) throw notFound();
    ctx.set(HEADERS);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  };
}
