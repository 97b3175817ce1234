// The public player-data routes under /v1/projects/{p}/player/: no API key, open to every origin, cached by HTTP caches.
import type { Context, Middleware, Next } from 'koa';
import type { Services } from '../services.ts';
import { rawQuery } from '../http/query.ts';
import { baseUrlOf, openToAnyOrigin } from '../http/public.ts';
import { AppError, notFound } from '../shared/errors.ts';
import { playerActions } from './actions.ts';
import { embeddableFrom } from './embedSettings.ts';
import { previewPage } from './preview.ts';
import type { Capability } from '../http/capability.ts';
import { lookupRoutes, parseIdentifiers, parsePlayerQuery, type Identifier } from './query.ts';
import { cmsIntegrationActions } from '../cmsIntegration/actions.ts';

const PLAYER_PATH = /^\/v1\/projects\/([^/]+)\/player(?:\/(.*))?$/;

export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';
/** Previews are for editors waiting on their item: always revalidated, and kept out of shared caches. */
const PREVIEW_CACHE_CONTROL = 'private, no-cache';

/** The identifiers a path names: `by_content_id/{id}`, ..., `by_identifiers/{URL-encoded JSON array}`, or `playlist`. */
function identifiersOf(rest: string): Identifier[] {
  if (rest === 'playlist') return [{ kind: 'first_playlist', value: '' }];
  const slash = rest.indexOf('/');
  const route = slash < 0 ? rest : rest.slice(0, slash);
  const encoded = slash < 0 ? '' : rest.slice(slash + 1);
  const kind = lookupRoutes[route];
  if ((!kind && route !== 'by_identifiers') || encoded === '') throw notFound();
  let value: string;
  try {
    value = decodeURIComponent(encoded);
  } catch {
    throw route === 'by_identifiers' ? new AppError('BadRequest', 'Malformed URL encoding in identifiers') : notFound();
  }
  return kind ? [{ kind, value }] : parseIdentifiers(value);
}

/**
 * Whether `If-None-Match` names this entity tag (weak comparison, as RFC 9110 asks for GET). Evaluated here
 * rather than with `ctx.fresh`, which ignores the header whenever the request says `Cache-Control: no-cache`,
 * as fetch() does for every request with a conditional header set by hand.
 */
export function notModified(ctx: Context, etag: string): boolean {
  const header = ctx.get('if-none-match');
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** Host of the page asking, from the browser's Origin header; null when there is none. */
function originHost(ctx: Context): string | null {
  const origin = ctx.get('origin');
  if (!origin || origin === 'null') return null;
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The player-data handler: public, so it runs before route matching and authentication and needs no key.
 */
export function playerData(services: Services): Middleware {
  const player = playerActions(services);
  const cms = cmsIntegrationActions(services);

  /**
   * Client-side import: a lookup by source id that found nothing, sent with `X-Import: true` and the page's address
   * in `X-Referer`, creates the item (src/cmsIntegration/actions.ts); the answer stays the 404 of an item not yet
   * processed, and a later lookup finds it once it is.
   */
  const importOnMiss = async (ctx: Context, projectId: number, identifiers: Identifier[]) => {
    const [only] = identifiers;
    if (identifiers.length !== 1 || only!.kind !== 'source_id' || ctx.get('x-import').toLowerCase() !== 'true') return;
    const referrer = ctx.get('x-referer');
    if (!referrer) return;
    try {
      await cms.importPage(projectId, only!.value, referrer);
    } catch (error) {
      // A page the content API refuses to take is not imported; the player still gets its usual answer.
      if (!(error instanceof AppError)) throw error;
    }
  };

  return async function servePlayerData(ctx: Context, next: Next) {
    const match = PLAYER_PATH.exec(ctx.path);
    if (!match) return next();
    if (!openToAnyOrigin(ctx)) return;
    const projectId = /^\d{1,12}$/.test(match[1]!) ? Number(match[1]) : NaN;
    const identifiers = identifiersOf(match[2] ?? '');
    const query = parsePlayerQuery(rawQuery(ctx));
    if (!Number.isSafeInteger(projectId)) throw notFound();
    const baseUrl = baseUrlOf(ctx, services.publicBaseUrl);
    const answer = await player.answer({ projectId, identifiers, query, baseUrl });
    if (!answer.found) await importOnMiss(ctx, projectId, identifiers);
    if (!answer.found || !embeddableFrom(answer.allowedDomains, originHost(ctx))) throw notFound();
    if (answer.allowedDomains.length > 0) ctx.vary('Origin');
    ctx.set('Cache-Control', query.preview_token === undefined ? PUBLIC_CACHE_CONTROL : PREVIEW_CACHE_CONTROL);
    ctx.set('ETag', answer.etag);
    if (notModified(ctx, answer.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = answer.body;
  };
}

/** The preview page first: its path lies under the player's. */
export const playerCapability: Capability = { publicRoutes: (services) => [previewPage(services), playerData(services)] };
