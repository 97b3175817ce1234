// Feed import speed: a 1,000-entry RSS feed imported by `run` (items created, narration off), then run again, over
// several rounds, each on a fresh service and data dir. Prints a markdown table of medians.
//   npm run bench:feeds -- [--rounds 3] [--entries 1000]
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { benchEnv, median, startServer, TSX_MAIN, type Server } from './service.ts';
import { API_KEY, guardRun, machineLine, verdict, wholeOption } from './support.ts';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, entries: { type: 'string', default: '1000' } } });
const rounds = wholeOption(args, 'rounds', 1);
const entries = wholeOption(args, 'entries', 1);

/** A WordPress-shaped feed of `count` short posts. */
function feedOf(count: number): string {
  const items = Array.from({ length: count }, (_, index) => {
    const n = index + 1;
    return `<item><title>Post number ${n}</title><link>https://bench.example.com/${n}/</link><dc:creator><![CDATA[Bench Writer]]></dc:creator>
<pubDate>${new Date(Date.UTC(2025, 0, 1) + n * 60_000).toUTCString()}</pubDate><guid isPermaLink="false">https://bench.example.com/?p=${n}</guid>
<description><![CDATA[Short summary ${n}.]]></description><content:encoded><![CDATA[<p>Paragraph one of post ${n}.</p><p>Paragraph two of post ${n}.</p>]]></content:encoded></item>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Bench</title><link>https://bench.example.com</link><description>d</description>${items.join('\n')}</channel></rss>`;
}

const feed = feedOf(entries);
/** `/etag` answers validators (a second run is a 304); `/plain` answers none (a second run reads and skips every entry). */
const feedServer = http.createServer((request, response) => {
  const conditional = request.url === '/etag';
  if (conditional && request.headers['if-none-match'] === '"bench"') return void response.writeHead(304, { etag: '"bench"' }).end();
  response.writeHead(200, { 'content-type': 'application/rss+xml', ...(conditional ? { etag: '"bench"' } : {}) }).end(feed);
});
await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
const feedBase = `http://127.0.0.1:${(feedServer.address() as { port: number }).port}`;

let server: Server | undefined;
let dataDir: string | undefined;
const { cleanUp, fail } = guardRun(60 * 30, async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  feedServer.close();
});

async function call(method: string, pathname: string, body?: unknown) {
  const response = await fetch(`${server!.baseUrl}${pathname}`, {
    method,
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function timedRun(id: number) {
  const started = performance.now();
  const counts = await call('POST', `/v1/projects/1/rss_feed_imports/${id}/run`);
  return { ms: performance.now() - started, counts };
}

interface Round {
  first: number;
  second304: number;
  secondSkipped: number;
}

async function round(): Promise<Round> {
  dataDir = mkdtempSync(path.join(tmpdir(), 'bench-feeds-'));
  server = await startServer({ ...benchEnv(dataDir, API_KEY, { generation: false }), FETCH_ALLOW_PRIVATE: 'true' }, [], fail, undefined, TSX_MAIN);
  try {
    const conditional = await call('POST', '/v1/projects/1/rss_feed_imports', { url: `${feedBase}/etag`, enabled: false });
    const first = await timedRun(conditional.id);
    if (first.counts.imported !== entries) throw new Error(`first run imported ${JSON.stringify(first.counts)}`);
    const second = await timedRun(conditional.id);
    if (second.counts.imported + second.counts.updated + second.counts.skipped !== 0) throw new Error(`second run did ${JSON.stringify(second.counts)}`);
    // The same entries through an import whose feed answers no validators: every entry is read, found and skipped.
    const plain = await call('POST', '/v1/projects/1/rss_feed_imports', { url: `${feedBase}/plain`, enabled: false });
    const skipped = await timedRun(plain.id);
    if (skipped.counts.skipped !== entries) throw new Error(`unconditional run did ${JSON.stringify(skipped.counts)}`);
    return { first: first.ms, second304: second.ms, secondSkipped: skipped.ms };
  } finally {
    await server.stop();
    server = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  const results: Round[] = [];
  for (let index = 0; index < rounds; index++) {
    results.push(await round());
    console.error(`round ${index + 1}/${rounds}: ${JSON.stringify(results.at(-1))}`);
  }
  const seconds = (values: number[]) => (median(values) / 1000).toFixed(2);
  const first = median(results.map((r) => r.first));
  const second = median(results.map((r) => r.second304));
  console.log(`\nFeed import, ${entries} entries, ${rounds} rounds (medians), embedded default, narration off; ${machineLine()}\n`);
  console.log('| run | median (s) | target | |');
  console.log('|---|---|---|---|');
  console.log(`| first run: ${entries} items created | ${seconds(results.map((r) => r.first))} | ≤ 30 s | ${verdict(first <= 30_000)} |`);
  console.log(`| second run: the feed answers 304 | ${seconds(results.map((r) => r.second304))} | ≤ 2 s | ${verdict(second <= 2_000)} |`);
  console.log(`| second run without validators: every entry read and skipped | ${seconds(results.map((r) => r.secondSkipped))} | — | |`);
} catch (error) {
  fail(String((error as Error).stack ?? error));
}
await cleanUp();
