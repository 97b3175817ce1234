// First audio benchmark: from the POST of a 1,200-word article whose first paragraph has 150 words (the default
// voice, Piper's Joe) to its first HLS segment being playable, p50 and p95, with the service idle and with a backlog
// of bulk work (regenerations of `--backlog` items) queued before the article.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { bulkSeed } from '../test/support/bulkSeed.ts';
import { COUNCIL_PARAGRAPH, longArticleHtml } from '../test/fixtures/longArticle.ts';
import { benchEnv, percentile, startServer, type Server } from './service.ts';
import { API_KEY, CONTENT, createItem, errorText, getItem, guardRun, loadAverage, machineLine, ms, verdict, wholeOption } from './support.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    backlog: { type: 'string', default: '1000' },
    'poll-ms': { type: 'string', default: '50' },
    'round-timeout': { type: 'string', default: '600' },
  },
});
const rounds = wholeOption(args, 'rounds', 1);
const backlog = wholeOption(args, 'backlog', 1);
const pollMs = wholeOption(args, 'poll-ms', 1);
const ROUND_TIMEOUT_MS = wholeOption(args, 'round-timeout', 10) * 1000;
const TARGET_MS = 2_000;

// ---------------------------------------------------------------------------------------------
// The article: a first paragraph of 150 words (under 1,000 characters, so it stays one segment), then the long
// article fixture's paragraphs up to 1,200 words in all.

const FIRST_PARAGRAPH = COUNCIL_PARAGRAPH;
const title = 'City weighs the cost of its new bridge';
const body = `<p>${FIRST_PARAGRAPH}</p>${longArticleHtml(1_200 - 150).replace(/<h1>.*?<\/h1>\n?/, '')}`;
const words = (html: string) => html.replace(/<[^>]+>/g, ' ').split(/\s+/).filter(Boolean).length;

// ---------------------------------------------------------------------------------------------
// One round: POST, then GET every `pollMs` until the playlist announced while processing lists a first .ts segment
// that answers with bytes; then wait for `processed`, so that rounds do not overlap.

interface ItemView {
  status: string;
  error: string | null;
  audio: { content_type: string; url: string }[] | null;
}

async function firstPlayable(baseUrl: string, playlistUrl: string): Promise<boolean> {
  const playlistAt = new URL(new URL(playlistUrl, baseUrl).pathname, baseUrl);
  const playlist = await fetch(playlistAt, { signal: AbortSignal.timeout(10_000) });
  if (playlist.status !== 200) return false;
  const first = (await playlist.text()).split('\n').find((line) => line && !line.startsWith('#'));
  if (!first) return false;
  const segment = await fetch(new URL(first, playlistAt), { signal: AbortSignal.timeout(10_000) });
  return segment.status === 200 && (await segment.arrayBuffer()).byteLength > 0;
}

async function round(baseUrl: string): Promise<number> {
  const sent = performance.now();
  const id = await createItem(baseUrl, { title, body, summary_enabled: false });
  let firstMs: number | null = null;
  for (;;) {
    const polled = performance.now();
    if (polled - sent > ROUND_TIMEOUT_MS) throw new Error(`item ${id} not processed within ${ROUND_TIMEOUT_MS / 1000} s`);
    const item = await getItem<ItemView>(baseUrl, id, 'none');
    if (item.status === 'error' || item.status === 'skipped') throw new Error(`item ${id} ended ${item.status}: ${item.error}`);
    if (item.status === 'processed') {
      if (firstMs === null) throw new Error(`item ${id} was processed before its playlist was seen growing`);
      return firstMs;
    }
    const live = firstMs === null && item.status === 'processing' ? item.audio?.find((file) => file.content_type === 'application/x-mpegURL') : undefined;
    if (live && (await firstPlayable(baseUrl, live.url))) firstMs = performance.now() - sent;
    await sleep(Math.max(0, (firstMs === null ? pollMs : 500) - (performance.now() - polled)));
  }
}

/** The ids of the seeded backlog's items with one of `statuses` (all when none is given), a page of 100 at a time. */
async function backlogIds(baseUrl: string, statuses: string[] = []): Promise<string[]> {
  const ids: string[] = [];
  const filter = statuses.map((status) => `&filter[statuses][]=${status}`).join('');
  for (let offset = 0; ; offset += 100) {
    const page = await fetch(`${baseUrl}${CONTENT}?filter[title]=Backlog${filter}&pagination[limit]=100&pagination[offset]=${offset}`, { headers: { 'x-api-key': API_KEY } });
    if (page.status !== 200) throw new Error(`listing the backlog answered ${page.status}: ${await page.text()}`);
    const items = (await page.json()) as { id: string }[];
    ids.push(...items.map((item) => item.id));
    if (items.length < 100) return ids;
  }
}

const backlogLeft = async (baseUrl: string) => (await backlogIds(baseUrl, ['queued', 'processing'])).length;

// ---------------------------------------------------------------------------------------------
// The run.

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-first-audio-'));
let server: Server | undefined;
const { cleanUp, fail } = guardRun(600 + 2 * rounds * (ROUND_TIMEOUT_MS / 1000), async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

try {
  const env = benchEnv(dataDir, API_KEY, { generation: true });
  // A first start creates the organization and project 1; the backlog's items are then written into the stopped
  // service's event store through the command path, each ended in error, so that nothing narrates them until asked.
  server = await startServer(env, [], fail);
  await server.stop();
  await bulkSeed(env, backlog, 'Backlog');
  server = await startServer(env, [], fail);
  const loadAtStart = loadAverage();

  const idle: number[] = [];
  for (let index = 0; index < rounds; index++) idle.push(await round(server.baseUrl));

  // Bulk work: every backlog item regenerated, all asked for before the first measured article.
  const ids = await backlogIds(server.baseUrl);
  if (ids.length !== backlog) throw new Error(`found ${ids.length} backlog items, seeded ${backlog}`);
  for (const id of ids) {
    const asked = await fetch(`${server.baseUrl}${CONTENT}/${id}/regenerate`, { method: 'POST', headers: { 'x-api-key': API_KEY } });
    if (asked.status !== 200) throw new Error(`regenerate answered ${asked.status}: ${await asked.text()}`);
  }
  const leftBefore = await backlogLeft(server.baseUrl);
  const busy: number[] = [];
  for (let index = 0; index < rounds; index++) busy.push(await round(server.baseUrl));
  const leftAfter = await backlogLeft(server.baseUrl);
  const loadAtEnd = loadAverage();
  await cleanUp();

  console.log(machineLine());
  console.log(`load average (1/5/15 min): ${loadAtStart} at start, ${loadAtEnd} at end`);
  console.log(`article: ${words(body)} words in the body (first paragraph ${words(FIRST_PARAGRAPH)} words, ${FIRST_PARAGRAPH.length} characters) and a title; default voice (Piper's Joe)`);
  console.log(`${rounds} rounds per row, one article at a time, polled every ${pollMs} ms; backlog: ${backlog} regenerations asked for before the first round, ${leftBefore} waiting then, ${leftAfter} after the last\n`);
  console.log('| service | first HLS segment playable after create, p50 ms | p95 ms | rounds (ms) |');
  console.log('|---|---:|---:|---|');
  const row = (name: string, values: number[]) => console.log(`| ${name} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 95))} | ${values.map((value) => ms(value)).join(', ')} |`);
  row('idle', idle);
  row(`${backlog} regenerations queued (bulk work)`, busy);
  console.log('\nTargets');
  console.log(`- idle p95 ≤ ${TARGET_MS} ms: ${verdict(percentile(idle, 95) <= TARGET_MS)}`);
  console.log(`- behind bulk work p95 ≤ ${TARGET_MS} ms: ${verdict(percentile(busy, 95) <= TARGET_MS)}`);
} catch (error) {
  fail(errorText(error));
}
