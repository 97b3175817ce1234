// A summarized item is narrated with its summary; summaries follow the text when `ai_summary_updates_enabled`, and
// an item of a project with summarization enabled gets one when it is first narrated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

const summaryAudio = (item: any) => item.audio.filter((file: any) => file.variant === 'summary');

describe('narrated summaries', () => {
  it('narrates the summary summarize wrote, and writes it again when the text changes', async () => {
    const created = await server.request('POST', '/v1/projects/1/content', {
      body: { body: '<p>The ferry to the island runs again from Monday. Storms had stopped it for a week.</p>', ai_summary_updates_enabled: true },
    });
    const summarized = await server.request('POST', `/v1/projects/1/content/${created.body.id}/summarize`, { body: { limit_token_usage: 16 } });
    expect(summarized.status, JSON.stringify(summarized.body)).toBe(200);
    expect(summarized.body.map((segment: any) => segment.text)).toEqual(['The ferry to the island runs again from Monday.']);
    const item = await settled(server, created.body.id);
    expect(item.status, item.error).toBe('processed');
    expect(item.summary).toBe('The ferry to the island runs again from Monday.');
    expect(summaryAudio(item).length).toBeGreaterThan(0);
    const spoken = item.segments.filter((segment: any) => segment.section === 'summary');
    expect(spoken.map((segment: any) => segment.text)).toEqual(['The ferry to the island runs again from Monday.']);
    expect(spoken[0].marker).toBe(summarized.body[0].marker);
    expect(spoken[0].duration).toBeGreaterThan(1000);

    await server.request('PUT', `/v1/projects/1/content/${item.id}`, { body: { body: '<p>The bridge to the island reopens on Friday. Repairs took a month.</p>' } });
    const again = await settled(server, item.id);
    expect(again.status, again.error).toBe('processed');
    expect(again.summary).toBe('The bridge to the island reopens on Friday.');
    expect(again.segments.filter((segment: any) => segment.section === 'summary').map((segment: any) => segment.text)).toEqual(['The bridge to the island reopens on Friday.']);
  }, 180_000);

  it('gives an item of a project with summarization enabled a summary when it is first narrated', async () => {
    const project = (await server.request('POST', '/v1/projects', { body: { name: 'Summaries desk' } })).body;
    await server.request('PUT', `/v1/projects/${project.id}/summarization_settings`, { body: { enabled: true, limit_token_usage: 16 } });
    const created = await server.request('POST', `/v1/projects/${project.id}/content`, { body: { body: '<p>The library opens on Sundays from May. Its hours were cut last year.</p>' } });
    let item: any;
    await expect
      .poll(async () => (item = (await server.request('GET', `/v1/projects/${project.id}/content/${created.body.id}?segments=full`)).body).status, { timeout: 120_000, interval: 500 })
      .toBe('processed');
    expect(item.summary).toBe('The library opens on Sundays from May.');
    expect(item.ai_summary_prompt).toContain('Summarize');
    expect(summaryAudio(item).length).toBeGreaterThan(0);
  }, 150_000);
});
