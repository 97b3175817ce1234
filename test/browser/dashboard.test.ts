// The dashboard in a real browser (Debian chromium through playwright-core): a publisher signs in with a key, picks a
// project and a range, and sees charts drawn from real figures; a player page on another origin posts its events.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { ROOT, startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { generateTraffic } from '../../bench/traffic.ts';
import { eventually, playerEvent } from '../analytics/support.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = path.join(ROOT, 'test-artifacts', 'dashboard.png');
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TITLES = ['Flood warning lifted', 'Council budget vote', 'Harbour reopens', 'New library wing', 'Marathon results', 'School term dates'];

let server: TestServer;
let browser: Browser;
let page: Page;
let items: string[];

/** Canvas pixels that are not blank (the page's white): a drawn chart has thousands. */
const drawnPixels = (page: Page, id: string) =>
  page.evaluate((canvasId) => {
    const canvas = document.getElementById(canvasId) as HTMLCanvasElement;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = 0;
    for (let at = 0; at < data.length; at += 4) if (data[at + 3]! > 0 && (data[at]! < 240 || data[at + 1]! < 240 || data[at + 2]! < 240)) drawn += 1;
    return drawn;
  }, id);

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (scripts/install-tools.sh does)`);
  server = await startServer();
  items = [];
  for (const title of TITLES) items.push((await server.request('POST', '/v1/projects/1/content', { body: { title, body: `${title}.` } })).body.id);
  const file = path.join(server.dataDir, 'traffic.ndjson');
  const events = [...generateTraffic({ projectId: 1, contentIds: items, sessions: 4_000, from: new Date(Date.now() - 29 * 86_400_000), to: new Date(Date.now() - 3_600_000), seed: 11 })];
  writeFileSync(file, events.map((event) => JSON.stringify(event)).join('\n'));
  expect((await cli(server.env, 'analytics', 'import', file)).code).toBe(0);
  await eventually<any[]>(server, '/v1/projects/1/analytics?aggregation=all', (body) => body[0]?.player_impressions.total >= 4_000, 60_000);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the dashboard', () => {
  it("takes a player's events posted from a page of another origin: the browser reads the 200", async () => {
    const port = new URL(server.baseUrl).port;
    // A page of another origin (localhost, not 127.0.0.1) without a policy of its own, as a publisher's article page.
    await page.goto(`http://localhost:${port}/an-article-page`);
    const event = playerEvent({ content_id: items[0] });
    const status = await page.evaluate(
      async ([url, body]) => {
        const response = await fetch(url!, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
        return [response.status, (await response.json()).accepted];
      },
      [`${server.baseUrl}/v1/analytics/events`, JSON.stringify(event)],
    );
    expect(status).toEqual([200, 1]);
  });

  it('signs in with a key, shows a project over a chosen range, and draws every chart with data', async () => {
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.fill('#key', 'not-a-key');
    await page.click('#signin-form button');
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.textContent('#error')).toContain('Could not sign in');
    await page.fill('#key', TEST_KEY);
    await page.click('#signin-form button');
    await page.waitForSelector('#dashboard[data-ready="true"]');
    await page.click('[data-days="30"]');
    await page.waitForFunction(() => document.querySelectorAll('#top-rows tr').length > 0);
    expect(await page.$$eval('#top-rows tr', (rows) => rows.length)).toBe(TITLES.length);
    expect(TITLES).toContain(await page.textContent('#top-rows tr td'));
    const listens = await page.textContent('#cards .card .value');
    expect(Number(listens!.replace(/,/g, ''))).toBeGreaterThan(500);
    for (const chart of ['over-time', 'devices', 'retention', 'top']) expect(await drawnPixels(page, chart), chart).toBeGreaterThan(2_000);
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    // The key stays for the tab's session: a reload shows the figures without signing in again.
    await page.reload();
    await page.waitForSelector('#dashboard[data-ready="true"]');
    expect(await page.isHidden('#signin')).toBe(true);
  });

  it('fits a phone screen: nothing wider than the viewport, charts still drawn', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.waitForSelector('#dashboard[data-ready="true"]');
    await page.waitForFunction(() => document.querySelectorAll('#top-rows tr').length > 0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await drawnPixels(page, 'over-time')).toBeGreaterThan(1_000);
    await page.screenshot({ path: SCREENSHOT.replace('.png', '-phone.png'), fullPage: true });
  });
});
