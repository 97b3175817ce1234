// Every field of the spec's resource tables is in every answer: null when unset, [] for lists, {} where the spec says object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runTool } from '../../src/media/tool.ts';
import { settled } from '../support/generation.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

/** The spec's content item table, and the fields we answer beyond it. */
const CONTENT_FIELDS = [
  'id', 'status', 'type', 'title', 'summary', 'body', 'title_enabled', 'body_enabled', 'summary_enabled', 'summary_title_enabled',
  'source_id', 'source_url', 'author', 'image_url', 'metadata', 'audio', 'video', 'audio_with_intro_outro', 'summarization', 'segments',
  'published', 'video_published', 'publish_date', 'ads_enabled', 'ai_summary_prompt', 'ai_summary_updates_enabled',
  'auto_segment_updates_enabled', 'background_track', 'feature_image', 'feature_video', 'summarization_settings', 'video_settings',
  'preprocessing_settings', 'language', 'created', 'updated',
];
const CONTENT_EXTRAS = ['legacy_id', 'error', 'audio_url', 'tags', 'access_tiers', 'duration', 'title_voice_id', 'summary_voice_id', 'body_voice_id', 'preview_token'];
const SEGMENT_FIELDS = [
  'id', 'marker', 'section', 'content_type', 'text', 'audio_url', 'image_url', 'video_url', 'start_time', 'duration', 'voice', 'language',
  'preprocessing_settings', 'xpath', 'md5', 'video_settings', 'pauses', 'created', 'updated',
];
const MEDIA_FIELDS = ['id', 'content_type', 'url', 'duration', 'variant'];
const PROJECT_FIELDS = [
  'id', 'name', 'language', 'language_data', 'environment', 'logo_color', 'content_total_count', 'content_updated', 'title', 'summary', 'body',
  'background_track', 'auto_publish_enabled', 'auto_video_publish_enabled', 'time_zone', 'avatar_url', 'pause_after_title_segments_seconds',
  'pause_after_segments_seconds', 'created', 'updated',
];
const WEBHOOK_FIELDS = ['id', 'url', 'enabled', 'use_static_ip', 'headers', 'created', 'updated'];
const AD_FIELDS = ['id', 'type', 'placement', 'vast_url', 'title', 'click_through_url', 'media_url', 'media', 'theme', 'dark_theme', 'light_theme'];
const PLAYLIST_FIELDS = ['id', 'title', 'type', 'image_url', 'content_limit'];
const CMS_INTEGRATION_FIELDS = ['enabled', 'platform', 'publish', 'allowed_domains', 'created', 'updated'];
const CONTENT_FILTER_FIELDS = ['id', 'project', 'type', 'selector', 'enabled', 'created', 'updated'];
const PLAYER_CONTENT_FIELDS = ['id', 'title', 'source_id', 'source_url', 'author', 'image_url', 'audio', 'video', 'segments', 'ads_enabled'];
const PLAYER_SETTINGS_FIELDS = [
  'player_style', 'player_title', 'call_to_action', 'image_url', 'theme', 'dark_theme', 'light_theme', 'video_theme', 'title_enabled',
  'image_enabled', 'persistent_ad_image', 'widget_style', 'widget_position', 'segment_playback_enabled', 'segment_highlights_enabled',
  'skip_button_style', 'intro_url', 'outro_url', 'intro_outro_enabled', 'download_button_enabled', 'logo_icon_enabled',
  // What the web player reads beyond the spec (client facts).
  'word_highlights_enabled', 'intros_outros', 'analytics_enabled', 'analytics_url', 'analytics_id', 'segment_limit', 'access_tier',
  'outro_playback_mode', 'analytics_uuid_enabled', 'analytics_custom_url', 'analytics_tag',
];

const SCRIPT_TEMPLATE_FIELDS = ['id', 'slug', 'name', 'prompt', 'model', 'temperature', 'limit_token_usage', 'created', 'updated'];
const SUMMARIZATION_SETTINGS_FIELDS = ['enabled', 'model', 'prompt', 'temperature', 'limit_token_usage', 'template'];

const keysOf = (value: object) => Object.keys(value).sort();
const withAll = (fields: string[]) => expect.arrayContaining(fields);

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

describe('full answer shapes', () => {
  it('answers a content item created with a body only with every field, unset ones null, [] or {}', async () => {
    const reply = await server.request('POST', '/v1/projects/1/content', { body: { body: '<p>The river rose overnight.</p>' } });
    expect(reply.status).toBe(201);
    expect(keysOf(reply.body)).toEqual([...CONTENT_FIELDS, ...CONTENT_EXTRAS].sort());
    expect(reply.body).toMatchObject({
      status: 'queued',
      type: 'auto_segment',
      title: null,
      summary: null,
      source_id: null,
      source_url: null,
      author: null,
      image_url: null,
      metadata: null,
      publish_date: null,
      language: null,
      ai_summary_prompt: null,
      background_track: null,
      feature_image: null,
      feature_video: null,
      video_settings: null,
      preprocessing_settings: null,
      summarization_settings: {},
      summarization: {},
      audio: [],
      video: [],
      audio_with_intro_outro: [],
      segments: [],
      tags: [],
      access_tiers: [],
      error: null,
      audio_url: null,
      duration: null,
      title_voice_id: null,
      summary_voice_id: null,
      body_voice_id: null,
    });
    const listed = await server.request('GET', `/v1/projects/1/content?filter[id]=${reply.body.id}`);
    // Generation runs meanwhile: the list shows the same fields, whatever the status.
    expect(listed.body.map(keysOf)).toEqual([keysOf(reply.body)]);
  });

  it('answers generated segments and media with every field, at each level of detail', async () => {
    const created = await server.request('POST', '/v1/projects/1/content', {
      body: { title: 'Rivers rise', body: '<p>The river rose overnight.</p><p>The bridge is closed.</p>', published: true },
    });
    const item = await settled(server, created.body.id);
    expect(item.status).toBe('processed');
    expect(item.audio.length).toBeGreaterThan(0);
    for (const file of item.audio) expect(keysOf(file)).toEqual([...MEDIA_FIELDS].sort());
    expect(item.segments.length).toBe(3);
    for (const segment of item.segments) {
      expect(keysOf(segment)).toEqual([...SEGMENT_FIELDS, 'words'].sort());
      expect(typeof segment.text).toBe('string');
      expect(segment.words.length).toBeGreaterThan(0);
    }
    const partial = (await server.request('GET', `/v1/projects/1/content/${item.id}`)).body;
    for (const segment of partial.segments) {
      expect(keysOf(segment)).toEqual([...SEGMENT_FIELDS].sort());
      expect(segment.text).toBeNull();
    }
    expect((await server.request('GET', `/v1/projects/1/content/${item.id}?segments=none`)).body.segments).toBeNull();

    const player = await server.request('GET', `/v1/projects/1/player/by_content_id/${item.id}`, { key: null });
    expect(player.status).toBe(200);
    expect(keysOf(player.body)).toEqual(['ads', 'content', 'continuous_playback_content_id', 'language', 'playlist', 'settings', 'video_settings']);
    expect(keysOf(player.body.content[0])).toEqual(withAll(PLAYER_CONTENT_FIELDS));
    expect(keysOf(player.body.settings)).toEqual(withAll(PLAYER_SETTINGS_FIELDS));
    for (const segment of player.body.content[0].segments) expect(keysOf(segment)).toEqual(withAll(['marker', 'start_time', 'duration']));
  });

  it('answers content extraction settings with every field of the spec', async () => {
    const fields = ['javascript_enabled', 'mode', 'request_headers', 'static_ip_enabled'];
    expect(keysOf((await server.request('GET', '/v1/projects/1/content_extraction_settings')).body)).toEqual(fields);
    expect(keysOf((await server.request('PUT', '/v1/projects/1/content_extraction_settings', { body: { mode: 'automatic' } })).body)).toEqual(fields);
  });

  it('answers a project created with a name only with every field of the spec', async () => {
    const reply = await server.request('POST', '/v1/projects', { body: { name: 'Shapes' } });
    expect(reply.status).toBe(201);
    expect(keysOf(reply.body)).toEqual([...PROJECT_FIELDS].sort());
    expect(reply.body).toMatchObject({ environment: null, logo_color: null, avatar_url: null, content_total_count: 0, content_updated: null });
    expect(reply.body.title).toEqual({ enabled: true, voice_id: null });
    const changed = await server.request('PUT', `/v1/projects/${reply.body.id}`, { body: { title: { enabled: false } } });
    expect(changed.body.title).toEqual({ enabled: false, voice_id: null });
  });

  it('answers script templates and summarization settings with every field, unset ones null', async () => {
    const template = await server.request('POST', '/v1/summarization_settings_templates', { body: { name: 'Shapes' } });
    expect(keysOf(template.body)).toEqual([...SCRIPT_TEMPLATE_FIELDS].sort());
    expect(template.body).toMatchObject({ prompt: null, model: null, temperature: null, limit_token_usage: null });
    expect((await server.request('GET', '/v1/summarization_settings_templates')).body.map(keysOf)).toContainEqual(['id', 'name', 'slug']);
    const settings = await server.request('GET', '/v1/projects/1/summarization_settings');
    expect(keysOf(settings.body)).toEqual([...SUMMARIZATION_SETTINGS_FIELDS, 'models'].sort());
    expect(settings.body).toMatchObject({ model: null, prompt: null, temperature: null, limit_token_usage: null, template: null });
    const item = await server.request('POST', '/v1/projects/1/content', { body: { body: '<p>The river rose overnight. The bridge is closed.</p>' } });
    const summary = await server.request('POST', `/v1/projects/1/content/${item.body.id}/summarize`);
    for (const segment of summary.body) expect(keysOf(segment)).toEqual([...SEGMENT_FIELDS].sort());
  });

  it('answers webhooks, ads, access tiers, playlists and feed imports with every field', async () => {
    const webhook = await server.request('POST', '/v1/projects/1/webhooks', { body: { url: 'https://hooks.example.com/audio' } });
    expect(keysOf(webhook.body)).toEqual([...WEBHOOK_FIELDS, 'secret'].sort());
    expect(keysOf((await server.request('GET', `/v1/projects/1/webhooks/${webhook.body.id}`)).body)).toEqual([...WEBHOOK_FIELDS].sort());

    const ad = await server.request('POST', '/v1/projects/1/ads', { body: { type: 'custom', media_url: 'https://ads.example.com/spot.mp3' } });
    expect(keysOf(ad.body)).toEqual(withAll(AD_FIELDS));
    expect(ad.body.media).toEqual([{ id: ad.body.id, content_type: 'audio/mpeg', url: 'https://ads.example.com/spot.mp3', duration: null }]);

    const tier = await server.request('POST', '/v1/projects/1/access_tiers', { body: { name: 'Members' } });
    expect(keysOf(tier.body)).toEqual(['created', 'description', 'id', 'name', 'updated']);
    expect(tier.body.description).toBeNull();

    const playlist = await server.request('POST', '/v1/projects/1/playlists', { body: { title: 'Morning' } });
    expect(keysOf(playlist.body)).toEqual(withAll(PLAYLIST_FIELDS));
    expect(playlist.body).toMatchObject({ image_url: null, source_url_prefix: null, content_ids: [], tags: [], authors: [] });

    const feedImport = await server.request('POST', '/v1/projects/1/rss_feed_imports', { body: { url: 'https://news.example.com/feed/' } });
    const FEED_IMPORT_FIELDS = ['id', 'url', 'enabled', 'field_map', 'fetch_full_article', 'publish', 'request_headers', 'last_run', 'created', 'updated'];
    expect(keysOf(feedImport.body)).toEqual([...FEED_IMPORT_FIELDS].sort());
    expect(keysOf(feedImport.body.field_map)).toEqual(['author', 'body', 'image_url', 'publish_date', 'source_id', 'source_url', 'summary', 'title']);
    expect(keysOf((await server.request('GET', `/v1/projects/1/rss_feed_imports/${feedImport.body.id}`)).body)).toEqual([...FEED_IMPORT_FIELDS].sort());
  });

  it('answers the CMS integration with every field, before and after it is configured', async () => {
    const project = (await server.request('POST', '/v1/projects', { body: { name: 'CMS shapes' } })).body.id;
    const before = await server.request('GET', `/v1/projects/${project}/integrations/cms`);
    expect(keysOf(before.body)).toEqual([...CMS_INTEGRATION_FIELDS].sort());
    const put = await server.request('PUT', `/v1/projects/${project}/integrations/cms`, { body: { enabled: true } });
    expect(keysOf(put.body)).toEqual([...CMS_INTEGRATION_FIELDS].sort());
    expect(keysOf((await server.request('GET', `/v1/projects/${project}/integrations/cms`)).body)).toEqual([...CMS_INTEGRATION_FIELDS].sort());
  });

  it('answers content filters with every field', async () => {
    const filter = await server.request('POST', '/v1/projects/1/content_filters', { body: { type: 'exclude', selector: '.ad' } });
    expect(keysOf(filter.body)).toEqual([...CONTENT_FILTER_FIELDS].sort());
    expect(keysOf(filter.body.project)).toEqual(['id']);
    for (const answer of [await server.request('GET', `/v1/projects/1/content_filters/${filter.body.id}`), await server.request('PUT', `/v1/projects/1/content_filters/${filter.body.id}`, { body: {} })]) {
      expect(keysOf(answer.body)).toEqual([...CONTENT_FILTER_FIELDS].sort());
    }
    for (const listed of (await server.request('GET', '/v1/projects/1/content_filters')).body) expect(keysOf(listed)).toEqual([...CONTENT_FILTER_FIELDS].sort());
    expect((await server.request('DELETE', `/v1/projects/1/content_filters/${filter.body.id}`)).status).toBe(204);
  });

  it('answers voices and languages with their code and name', async () => {
    const voices = await server.request('GET', '/v1/organization/voices?filter[language.code]=en_US');
    expect(voices.body.length).toBeGreaterThan(0);
    for (const voice of voices.body) expect(voice.language.code).toBe('en_US');
    const languages = await server.request('GET', '/v1/organization/languages');
    expect(languages.body).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'en_US', name: expect.any(String) })]));
  });

  it('answers an item created by upload with every field, and its audio segment with every segment field', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'shapes-upload-'));
    const file = path.join(dir, 'clip.mp3');
    const made = await runTool('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'libmp3lame', file]);
    expect(made.code, made.stderr).toBe(0);
    const form = new FormData();
    form.append('title', 'Clip');
    form.append('file', await openAsBlob(file), 'clip.mp3');
    const response = await fetch(`${server.baseUrl}/v1/projects/1/content/upload`, { method: 'POST', headers: { 'x-api-key': TEST_KEY }, body: form });
    const created = await response.json();
    await rm(dir, { recursive: true, force: true });
    expect(response.status).toBe(201);
    expect(keysOf(created)).toEqual([...CONTENT_FIELDS, ...CONTENT_EXTRAS].sort());
    expect(created).toMatchObject({ type: 'audio_upload', body: null, source_id: null, metadata: null, audio: [], segments: [], audio_url: expect.stringContaining('/media/uploads/') });
    const item = await settled(server, created.id);
    expect(item.status, item.error).toBe('processed');
    expect(keysOf(item.segments[0])).toEqual([...SEGMENT_FIELDS, 'words'].sort());
    for (const media of item.audio) expect(keysOf(media)).toEqual([...MEDIA_FIELDS].sort());
  });
});
