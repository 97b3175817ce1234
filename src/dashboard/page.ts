// The dashboard at /dashboard: a page of the service, its script bundled from src/dashboard/client.ts and chart.js
// (npm) with esbuild at the first request and kept in memory; no CDN, nothing fetched at run time.
import path from 'node:path';
import type { Context, Middleware, Next } from 'koa';
import { build } from 'esbuild';
import type { Capability } from '../http/capability.ts';
import { sendError } from '../http/errors.ts';

const PAGE_PATH = '/dashboard';
const SCRIPT_PATH = '/dashboard/app.js';
const STYLE_PATH = '/dashboard/app.css';

const STYLE = `
:root { color-scheme: light; --ink: #0f172a; --muted: #64748b; --line: #e2e8f0; --accent: #2563eb; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f8fafc; }
header { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: 0.9rem 1.25rem; background: #fff; border-bottom: 1px solid var(--line); }
header h1 { margin: 0; font-size: 1.1rem; }
main { max-width: 1200px; margin: 0 auto; padding: 1rem; }
form { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
label { display: flex; flex-direction: column; font-size: 0.8rem; color: var(--muted); gap: 0.2rem; }
input, select, button { font: inherit; padding: 0.45rem 0.6rem; border: 1px solid #cbd5e1; border-radius: 6px; background: #fff; color: var(--ink); }
button { cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
#signin { max-width: 26rem; margin: 3rem auto; background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 1.5rem; }
#signin input { width: 100%; }
#signin label { flex: 1 1 100%; }
#error { margin: 0.75rem 0; padding: 0.6rem 0.8rem; border-radius: 6px; background: #fef2f2; color: #991b1b; border: 1px solid #fecaca; }
#cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(9.5rem, 1fr)); gap: 0.75rem; margin: 1rem 0; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 0.8rem 1rem; display: flex; flex-direction: column; }
.card .value { font-size: 1.45rem; font-weight: 650; }
.card .label { color: var(--muted); font-size: 0.8rem; }
.grid { display: grid; grid-template-columns: 1fr; gap: 0.75rem; }
@media (min-width: 900px) { .grid { grid-template-columns: 2fr 1fr; } .grid .wide { grid-column: 1 / -1; } }
section.panel { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 0.9rem 1rem; min-width: 0; }
section.panel h2 { margin: 0 0 0.5rem; font-size: 0.95rem; }
.chart { position: relative; height: 260px; }
table { width: 100%; border-collapse: collapse; font-size: 0.9rem; }
th, td { text-align: left; padding: 0.4rem 0.3rem; border-bottom: 1px solid var(--line); }
td:not(:first-child), th:not(:first-child) { text-align: right; white-space: nowrap; }
td:first-child { overflow-wrap: anywhere; }
#empty { color: var(--muted); }
`;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Listening analytics</title>
<link rel="stylesheet" href="${STYLE_PATH}">
<script defer src="${SCRIPT_PATH}"></script>
</head>
<body>
<header><h1>Listening analytics</h1><button id="signout" type="button">Sign out</button></header>
<main>
<div id="error" role="alert" hidden></div>
<section id="signin">
  <h2>Sign in</h2>
  <p>With an API key of your organization or of one project. It is kept in this browser tab only.</p>
  <form id="signin-form">
    <label>API key <input id="key" name="key" type="password" autocomplete="off" required></label>
    <button class="primary" type="submit">Sign in</button>
  </form>
</section>
<div id="dashboard" hidden>
  <form id="controls">
    <label>Project <select id="project"></select></label>
    <label>From <input id="from" type="date"></label>
    <label>To <input id="to" type="date"></label>
    <button class="primary" type="submit">Show</button>
    <button type="button" data-days="7">7 days</button>
    <button type="button" data-days="30">30 days</button>
    <button type="button" data-days="90">90 days</button>
  </form>
  <div id="cards"></div>
  <p id="empty" hidden>No listening in this range yet.</p>
  <div class="grid">
    <section class="panel wide"><h2>Listens and impressions per day</h2><div class="chart"><canvas id="over-time" aria-label="Listens and impressions per day"></canvas></div></section>
    <section class="panel"><h2>Retention: listens that reached each tenth</h2><div class="chart"><canvas id="retention" aria-label="Retention"></canvas></div></section>
    <section class="panel"><h2>Listens by device</h2><div class="chart"><canvas id="devices" aria-label="Listens by device"></canvas></div></section>
    <section class="panel"><h2>Top content</h2><div class="chart"><canvas id="top" aria-label="Top content by listens"></canvas></div></section>
    <section class="panel"><h2>Top content, figures</h2>
      <table><thead><tr><th>Item</th><th>Listens</th><th>Impressions</th><th>Completion</th></tr></thead><tbody id="top-rows"></tbody></table>
    </section>
  </div>
</div>
</main>
</body>
</html>
`;

const HEADERS = {
  'Content-Security-Policy': ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "img-src 'self' data:", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join('; '),
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

let bundle: Promise<string> | null = null;
/** The page's script with chart.js, bundled once per process. */
function script(): Promise<string> {
  bundle ??= build({
    entryPoints: [path.join(import.meta.dirname, 'client.ts')],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    legalComments: 'none',
    logLevel: 'silent',
  })
    .then((result) => result.outputFiles[0]!.text)
    .catch((error: unknown) => {
      bundle = null;
      throw error;
    });
  return bundle;
}

function dashboard(): Middleware {
  const files: Record<string, [type: string, body: () => string | Promise<string>]> = {
    [PAGE_PATH]: ['text/html; charset=utf-8', () => HTML],
    [SCRIPT_PATH]: ['text/javascript; charset=utf-8', script],
    [STYLE_PATH]: ['text/css; charset=utf-8', () => STYLE],
  };
  return async function serveDashboard(ctx: Context, next: Next) {
    const file = files[ctx.path === `${PAGE_PATH}/` ? PAGE_PATH : ctx.path];
    if (!file) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      return sendError(ctx, 405, 'Method Not Allowed');
    }
    ctx.set(HEADERS);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = file[0];
    ctx.body = await file[1]();
  };
}

export const dashboardCapability: Capability = { publicRoutes: () => [dashboard()] };
