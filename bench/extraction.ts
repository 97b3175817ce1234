// Extraction benchmark: a news page served on loopback, fetched through the guarded fetcher and its article found
// (mode automatic, with exclude filters), then the same page built by its scripts and rendered in headless Chromium.
// What an item created from a `source_url` spends before its text is segmented. Prints a markdown table.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createPageRenderer } from '../src/extraction/browser.ts';
import { extractPage } from '../src/extraction/extractor.ts';
import { defaultExtractionSettings } from '../src/extraction/settings.ts';
import { loadAverage, machineLine, verdict } from './support.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '40' }, 'js-runs': { type: 'string', default: '15' }, paragraphs: { type: 'string', default: '30' } } });
const runs = Number(args.runs);
const jsRuns = Number(args['js-runs']);
const paragraphs = Number(args.paragraphs);

const SENTENCES = [
  'The council approved the new budget for the river bridge after a long evening meeting.',
  'Residents of the harbour district asked for more funding for the library and its volunteers.',
  'The railway station reopened this morning, although several services were still delayed.',
  'Farmers brought their produce to the market as prices for housing and tenants kept rising.',
];
const article = Array.from({ length: paragraphs }, (_, index) => `<p>${SENTENCES[index % 4]} ${SENTENCES[(index + 1) % 4]}</p>`).join('\n');
const clutter = (count: number) => Array.from({ length: count }, (_, index) => `<li><a href="/story/${index}">Related story number ${index}</a></li>`).join('');
const staticPage = `<!doctype html><html><head><title>Bridge | Gazette</title><meta property="og:title" content="Bridge budget approved"><meta name="author" content="Desk">
<script>window.analytics = {};</script><style>body{font-family:serif}</style></head><body>
<nav><ul>${clutter(30)}</ul></nav><div class="cookie-banner"><p>We use cookies.</p><button>Accept</button></div><div class="ad">Advertisement</div>
<main><article><h1>Bridge budget approved</h1>${article}<img src="/bridge.jpg" data-service-image="true"></article><aside class="related"><ul>${clutter(20)}</ul></aside></main>
<footer>${clutter(40)}</footer></body></html>`;
const scriptPage = `<!doctype html><html><head><title>App</title></head><body><div id="app">Loading</div><script>
fetch('/data.json').then((r) => r.json()).then((d) => { document.getElementById('app').innerHTML = '<article><h1>' + d.title + '</h1>' + d.html + '</article>'; });
</script></body></html>`;

const server = createServer((request, response) => {
  if (request.url === '/static') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(staticPage);
  if (request.url === '/spa') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(scriptPage);
  if (request.url === '/data.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ title: 'Bridge budget approved', html: article }));
  response.writeHead(404).end();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const limits = { maxBytes: 10 * 1024 * 1024, timeoutMs: 20_000, allowPrivate: true };
const filters = [{ type: 'exclude' as const, selector: '.cookie-banner, .ad', enabled: true }];
const renderer = createPageRenderer({ concurrency: 2 });

async function timed(count: number, warmup: number, once: () => Promise<unknown>): Promise<number[]> {
  for (let index = 0; index < warmup; index++) await once();
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

const check = (result: { body: string }) => {
  if (!result.body.includes(SENTENCES[0]!) || result.body.includes('Related story')) throw new Error('the article was not extracted as expected');
};
const staticTimes = await timed(runs, 3, async () => check(await extractPage(`${base}/static`, defaultExtractionSettings, filters, { limits, renderer })));
const jsSettings = { ...defaultExtractionSettings, javascriptEnabled: true };
const jsTimes = await timed(jsRuns, 2, async () => check(await extractPage(`${base}/spa`, jsSettings, filters, { limits, renderer })));
await renderer.close();
server.close();

const row = (name: string, times: number[], target: number) =>
  `| ${name} | ${times.length} | ${Math.round(quantile(times, 0.5))} | ${Math.round(quantile(times, 0.95))} | ≤ ${target} | ${verdict(quantile(times, 0.5) <= target)} |`;
console.log(`Extraction of one page (${paragraphs} paragraphs, ${Math.round(staticPage.length / 1024)} KB, in its navigation, banner, ads, related links and footer), served on loopback.`);
console.log(`${machineLine()}; load average ${loadAverage()}\n`);
console.log('| Case | Runs | Median ms | p95 ms | Target (median) | |');
console.log('|---|---|---|---|---|---|');
console.log(row('static page (fetch, decode, Readability, filters)', staticTimes, 150));
console.log(row('with JavaScript (fetch, headless Chromium, Readability)', jsTimes, 2000));
