// Serves the OpenAPI document at /v1/openapi.json and a Swagger UI page at /v1/docs from swagger-ui-dist (no CDN, no key).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Context, Middleware, Next } from 'koa';
import { sendError } from '../http/errors.ts';
import { openApiJson } from './document.ts';
import type { Capability } from '../http/capability.ts';

const DOCUMENT_PATH = '/v1/openapi.json';
const DOCS_PATH = '/v1/docs';

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The package files the page loads; nothing else under the folder is served. */
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** The package's own initializer points at its demo document; this one points at ours. */
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(DOCUMENT_PATH)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
};
`;

const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Narration service API</title>
    <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
    <link rel="stylesheet" href="${DOCS_PATH}/index.css">
    <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" sizes="32x32">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="${DOCS_PATH}/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="${DOCS_PATH}/initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;

/** Swagger UI draws inline styles and SVG data images; scripts come only from this origin. */
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
};

const etagOf = (body: string | Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

function answer(ctx: Context, type: string, body: string | Buffer, cacheControl: string) {
  const etag = etagOf(body);
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', etag);
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (ctx.get('if-none-match') === etag) {
    ctx.status = 304;
    return;
  }
  ctx.type = type;
  ctx.body = body;
}

/** Mounts the document and the docs page; goes after the error handler and before route matching and authentication. */
export function apiDocs(): Middleware {
  const document = openApiJson();
  const files = new Map<string, Promise<Buffer>>();
  const asset = (name: string) => {
    if (!files.has(name)) files.set(name, readFile(path.join(swaggerUiDir, name)));
    return files.get(name)!;
  };

  return async function serveApiDocs(ctx: Context, next: Next) {
    if (ctx.path !== DOCUMENT_PATH && ctx.path !== DOCS_PATH && !ctx.path.startsWith(`${DOCS_PATH}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      return sendError(ctx, 405, 'Method Not Allowed');
    }
    ctx.set('Access-Control-Allow-Origin', '*');
    if (ctx.path === DOCUMENT_PATH) return answer(ctx, 'application/json; charset=utf-8', document, 'public, max-age=300');
    if (ctx.path === DOCS_PATH || ctx.path === `${DOCS_PATH}/`) {
      ctx.set(PAGE_HEADERS);
      return answer(ctx, 'text/html; charset=utf-8', PAGE, 'public, max-age=300');
    }
    const name = ctx.path.slice(DOCS_PATH.length + 1);
    if (name === 'initializer.js') return answer(ctx, 'application/javascript; charset=utf-8', INITIALIZER, 'public, max-age=300');
    const type = Object.hasOwn(assets, name) ? assets[name] : undefined;
    if (!type) return sendError(ctx, 404, 'Not Found');
    return answer(ctx, type, await asset(name), 'public, max-age=86400');
  };
}

export const apiDocsCapability: Capability = { publicRoutes: () => [apiDocs()] };
