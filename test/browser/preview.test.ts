// The preview page in a real browser (Debian chromium through playwright-core): it plays, follows and seeks.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { ROOT, startServer, type TestServer } from '../support/server.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = path.join(ROOT, 'test-artifacts', 'preview.png');
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

const PARAGRAPHS = [
  'The river rose overnight after three days of rain in the hills above the town.',
  'By morning the water had reached the steps of the old mill, and the footbridge was closed.',
  'Volunteers filled sandbags outside the library while the council opened the school hall.',
  'Farmers on the valley floor moved their animals to higher fields before dawn.',
  'The railway station stayed open, but trains to the coast ran more than an hour late.',
  'Forecasters expect the level to fall by the weekend if the rain eases as predicted.',
];

let server: TestServer;
let browser: Browser;
let page: Page;
let item: any;
/** The segments as player data gives them, in the page's order. */
let segments: { start_time: number; text: string }[];

const playerPath = (id: string, query = '') => `/v1/projects/1/player/preview/${id}${query}`;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (scripts/install-tools.sh does)`);
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
  const body = `<h2>Rivers rise</h2>${PARAGRAPHS.map((text) => `<p>${text}</p>`).join('')}`;
  const created = await server.request('POST', '/v1/projects/1/content', { body: { title: 'Rivers rise <again> & "more"', body, published: false } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  item = await settled(server, created.body.id);
  expect(item.status, item.error).toBe('processed');
  const data = await server.request('GET', `/v1/projects/1/player/by_content_id/${item.id}?preview_token=${item.preview_token}`, { key: null });
  segments = data.body.content[0].segments;
  expect(segments.length).toBeGreaterThanOrEqual(PARAGRAPHS.length);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  page = await browser.newPage({ viewport: { width: 900, height: 900 } });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The segments as the page draws them, and the index of the one lit. */
const pageState = () =>
  page.evaluate(() => {
    const audio = document.querySelector('audio')!;
    const buttons = [...document.querySelectorAll('.segment')];
    return {
      currentTime: audio.currentTime,
      paused: audio.paused,
      format: audio.dataset.format,
      active: buttons.findIndex((button) => button.classList.contains('active')),
      ariaCurrent: buttons.findIndex((button) => button.getAttribute('aria-current') === 'true'),
      activeWords: document.querySelectorAll('.word-active').length,
    };
  });

describe('the preview page', () => {
  it('answers 404 in the error shape when the item is not visible, and an HTML page with its token', async () => {
    const hidden = await server.request('GET', playerPath(item.id), { key: null });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ code: 404, message: 'Not Found' });
    const wrong = await server.request('GET', playerPath(item.id, '?preview_token=wrong'), { key: null });
    expect(wrong.status).toBe(404);
    const shown = await server.request('GET', playerPath(item.id, `?preview_token=${item.preview_token}`), { key: null });
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
    expect(shown.body).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });

  it('plays, follows the segment and word being read, and seeks to a clicked segment', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${server.baseUrl}${playerPath(item.id, `?preview_token=${item.preview_token}`)}`);
    const buttons = page.locator('.segment');
    await expect.poll(() => buttons.count()).toBe(segments.length);
    // Text goes in as text: the title's markup characters show as typed.
    expect(await page.locator('h1').textContent()).toBe('Rivers rise <again> & "more"');
    expect(await buttons.allTextContents()).toContain(PARAGRAPHS[2]);

    await page.locator('#play').click();
    await expect.poll(async () => (await pageState()).currentTime, { timeout: 10_000 }).toBeGreaterThan(0.5);
    const first = await pageState();
    expect(first.paused).toBe(false);
    expect(first.active).toBeGreaterThanOrEqual(0);
    expect(first.ariaCurrent).toBe(first.active);

    // Jump just before the next segment's start and keep playing: the highlight moves on by itself.
    const next = segments[first.active + 1]!;
    await page.evaluate((seconds) => (document.querySelector('audio')!.currentTime = seconds), next.start_time / 1000 - 0.4);
    await expect.poll(async () => (await pageState()).active, { timeout: 10_000 }).toBe(first.active + 1);
    await expect.poll(async () => (await pageState()).activeWords, { timeout: 5_000 }).toBe(1);

    const target = segments.length - 2;
    await buttons.nth(target).click();
    const jumped = await pageState();
    expect(Math.abs(jumped.currentTime - segments[target]!.start_time / 1000)).toBeLessThan(0.3);
    await expect.poll(async () => (await pageState()).active).toBe(target);
    expect((await pageState()).ariaCurrent).toBe(target);
    await expect.poll(async () => (await pageState()).activeWords, { timeout: 5_000 }).toBe(1);

    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.evaluate(() => document.querySelector('audio')!.pause());
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(errors).toEqual([]);
  }, 60_000);

  it('plays the mp3 where the browser has no native HLS', async () => {
    const context = await browser.newContext();
    try {
      await context.addInitScript(() => {
        const canPlayType = HTMLMediaElement.prototype.canPlayType;
        HTMLMediaElement.prototype.canPlayType = function (type: string) {
          return /mpegurl/i.test(type) ? '' : canPlayType.call(this, type);
        };
      });
      const mp3Page = await context.newPage();
      await mp3Page.goto(`${server.baseUrl}${playerPath(item.id, `?preview_token=${item.preview_token}`)}`);
      await mp3Page.locator('#play:not([disabled])').click();
      const audio = () => mp3Page.evaluate(() => ({ format: document.querySelector('audio')!.dataset.format, time: document.querySelector('audio')!.currentTime, src: document.querySelector('audio')!.currentSrc }));
      await expect.poll(async () => (await audio()).time, { timeout: 10_000 }).toBeGreaterThan(0.3);
      expect(await audio()).toMatchObject({ format: 'mp3', src: expect.stringMatching(/\.mp3$/) });
    } finally {
      await context.close();
    }
  });
});
