import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, keyIn } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let otherProject: number;
beforeAll(async () => {
  server = await startServer();
  otherProject = (await server.request('POST', '/v1/projects', { body: { name: 'Sports desk' } })).body.id;
});
afterAll(() => server.stop());

const theme = { text_color: expect.any(String), background_color: expect.any(String), icon_color: expect.any(String), highlight_color: expect.any(String), word_highlight_color: expect.any(String) };

describe('player settings', () => {
  it('has complete defaults the web player renders with', async () => {
    const reply = await server.request('GET', `/v1/projects/${otherProject}/player_settings`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      player_style: 'standard',
      player_title: null,
      call_to_action: null,
      image_url: null,
      theme: 'auto',
      dark_theme: theme,
      light_theme: theme,
      video_theme: theme,
      title_enabled: true,
      image_enabled: true,
      persistent_ad_image: false,
      widget_style: 'standard',
      widget_position: 'auto',
      segment_playback_enabled: true,
      segment_highlights_enabled: true,
      word_highlights_enabled: false,
      skip_button_style: 'seconds-15-30',
      intro_url: null,
      outro_url: null,
      intro_outro_enabled: false,
      download_button_enabled: false,
      logo_icon_enabled: true,
      analytics_enabled: true,
      analytics_url: `${server.baseUrl}/v1/analytics/events`,
      analytics_id: null,
      segment_limit: null,
    });
  });

  it("gives the service's own events endpoint as analytics_url while analytics are on, a chosen one instead, and null when off", async () => {
    const custom = 'https://stats.example.com/events';
    const chosen = await server.request('PUT', '/v1/projects/1/player_settings', { body: { analytics_url: custom } });
    expect(chosen.body.analytics_url).toBe(custom);
    const off = await server.request('PUT', '/v1/projects/1/player_settings', { body: { analytics_enabled: false } });
    expect([off.body.analytics_enabled, off.body.analytics_url]).toEqual([false, null]);
    const on = await server.request('PUT', '/v1/projects/1/player_settings', { body: { analytics_enabled: true, analytics_url: null } });
    expect(on.body.analytics_url).toBe(`${server.baseUrl}/v1/analytics/events`);
  });

  it('changes the fields sent, theme colours one by one, and answers the whole resource', async () => {
    const before = (await server.request('GET', '/v1/projects/1/player_settings')).body;
    const reply = await server.request('PUT', '/v1/projects/1/player_settings', {
      body: {
        player_style: 'large',
        theme: 'dark',
        dark_theme: { text_color: 'rgb(250, 250, 250)', word_highlight_color: 'hsla(45, 100%, 50%, 0.6)' },
        video_theme: { background_color: 'linear-gradient(to right, #fcf, rgba(255, 204, 204, 0.9))' },
        skip_button_style: 'seconds-10-10',
        intro_url: 'https://cdn.example.com/intro.mp3',
        intro_outro_enabled: true,
        segment_limit: 50,
        unknown_field: 'ignored',
      },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      player_style: 'large',
      theme: 'dark',
      dark_theme: { ...before.dark_theme, text_color: 'rgb(250, 250, 250)', word_highlight_color: 'hsla(45, 100%, 50%, 0.6)' },
      video_theme: { ...before.video_theme, background_color: 'linear-gradient(to right, #fcf, rgba(255, 204, 204, 0.9))' },
      light_theme: before.light_theme,
      skip_button_style: 'seconds-10-10',
      intro_url: 'https://cdn.example.com/intro.mp3',
      segment_limit: 50,
      widget_style: before.widget_style,
    });
    expect(reply.body.unknown_field).toBeUndefined();
    expect((await server.request('GET', '/v1/projects/1/player_settings')).body).toEqual(reply.body);
    // Settings are their own resource: the project answer does not carry them.
    expect((await server.request('GET', '/v1/projects/1')).body.player_settings).toBeUndefined();
  });

  it.each([
    [{ light_theme: { text_color: 'blu' } }, 'light_theme.text_color', /^must be a CSS colour/],
    [{ light_theme: { icon_color: '#12345' } }, 'light_theme.icon_color', /^must be a CSS colour/],
    [{ dark_theme: { highlight_color: 'rgb(300, 0, 0)' } }, 'dark_theme.highlight_color', /^must be a CSS colour/],
    [{ video_theme: { word_highlight_color: 'red; background: url(x)' } }, 'video_theme.word_highlight_color', /^must be a CSS colour/],
    [{ light_theme: { background_color: 'linear-gradient(to right, #fff)' } }, 'light_theme.background_color', /linear-gradient/],
    [{ theme: 'sepia' }, 'theme', /^must be one of: light, dark, auto$/],
    [{ player_style: 'huge' }, 'player_style', /^must be one of: small, standard, large, screen, video$/],
    [{ widget_position: 'top' }, 'widget_position', /^must be one of: auto, left, center, right$/],
    [{ skip_button_style: 'seconds-0' }, 'skip_button_style', /^must be auto, segments, tracks, seconds/],
    [{ segment_limit: 0 }, 'segment_limit', /^must be greater than or equal to 1$/],
    [{ intro_url: 'ftp://example.com/a.mp3' }, 'intro_url', /^must be a valid http\(s\) URL$/],
    [{ download_button_enabled: 'yes' }, 'download_button_enabled', /^must be a boolean$/],
  ])('rejects %j with 422 at the field and changes nothing', async (change, location, message) => {
    const before = (await server.request('GET', '/v1/projects/1/player_settings')).body;
    const reply = await server.request('PUT', '/v1/projects/1/player_settings', { body: change });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ code: 422, message: 'Invalid request body' });
    expect(reply.body.errors).toHaveLength(1);
    expect(reply.body.errors[0].location).toBe(location);
    expect(reply.body.errors[0].message).toMatch(message);
    expect((await server.request('GET', '/v1/projects/1/player_settings')).body).toEqual(before);
  });

  it('reports every bad field at once', async () => {
    const reply = await server.request('PUT', '/v1/projects/1/player_settings', { body: { theme: 'x', light_theme: { text_color: 'nope' }, segment_limit: 1.5 } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((error: { location: string }) => error.location).sort()).toEqual(['light_theme.text_color', 'segment_limit', 'theme']);
  });
});

describe('video settings', () => {
  it('has every field of the spec with defaults', async () => {
    const reply = await server.request('GET', `/v1/projects/${otherProject}/video_settings`);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(
      [
        'enabled', 'logo_image_url', 'logo_image_position', 'background_color', 'text_transform', 'text_background_color', 'text_color',
        'text_secondary_color', 'text_highlight_color', 'text_highlight_secondary_color', 'text_highlight_background_color', 'text_shadow',
        'text_highlight_shadow', 'text_stroke', 'text_highlight_stroke', 'text_fonts', 'text_font_size', 'text_lines', 'text_words',
        'text_horizontal_align', 'text_vertical_align', 'text_animation', 'entrance_animation', 'exit_animation', 'waveform_color',
        'content_image_enabled', 'image_extraction_enabled', 'pan_and_zoom_enabled', 'audio_and_waveform_enabled', 'text_captions_enabled',
        'playback_mode', 'cycle_time', 'variants', 'text_background_radius', 'text_highlight_background_radius', 'text_width',
        'text_horizontal_offset', 'text_vertical_offset', 'sizes', 'template',
      ].sort(),
    );
    expect(reply.body).toMatchObject({ enabled: false, logo_image_position: 'top-right', text_font_size: 48, text_lines: null, text_words: null, cycle_time: 5000 });
  });

  it('accepts values at the bounds', async () => {
    const change = {
      enabled: true,
      logo_image_url: `https://cdn.example.com/${'l'.repeat(2000)}.png`,
      logo_image_position: 'top-left',
      background_color: 'linear-gradient(to right, #000, hsl(210 40% 20%), transparent)',
      text_font_size: 90,
      text_lines: 5,
      text_words: 1,
      cycle_time: 1000,
      text_fonts: ['Noto Sans', 'https://fonts.example.com/Inter-Bold.ttf', 'https://fonts.example.com/a/Serif.OTF'],
      text_highlight_background_color: 'rgba(255, 255, 0, 0.25)',
      text_shadow: '0 2px 4px rgba(0, 0, 0, 0.5)',
      text_stroke: '2px #000000 outside',
      playback_mode: 'follow-article',
      exit_animation: 'slide-left',
      text_width: 100,
      text_vertical_offset: -50,
    };
    const reply = await server.request('PUT', '/v1/projects/1/video_settings', { body: change });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject(change);
    expect((await server.request('GET', '/v1/projects/1/video_settings')).body).toEqual(reply.body);
    const lowest = await server.request('PUT', '/v1/projects/1/video_settings', { body: { text_font_size: 30, cycle_time: 60_000, text_lines: null, text_lines_unknown: 3 } });
    expect(lowest.body).toMatchObject({ text_font_size: 30, cycle_time: 60_000, text_lines: null, text_words: 1 });
  });

  it.each([
    [{ text_font_size: 29 }, 'text_font_size', 'must be greater than or equal to 30'],
    [{ text_font_size: 91 }, 'text_font_size', 'must be less than or equal to 90'],
    [{ text_font_size: 40.5 }, 'text_font_size', 'must be an integer'],
    [{ text_lines: 0 }, 'text_lines', 'must be greater than or equal to 1'],
    [{ text_lines: 6 }, 'text_lines', 'must be less than or equal to 5'],
    [{ text_words: 0 }, 'text_words', 'must be greater than or equal to 1'],
    [{ cycle_time: 999 }, 'cycle_time', 'must be greater than or equal to 1000'],
    [{ cycle_time: 60_001 }, 'cycle_time', 'must be less than or equal to 60000'],
    [{ logo_image_url: 'not a url' }, 'logo_image_url', 'must be a valid http(s) URL'],
    [{ logo_image_url: `https://cdn.example.com/${'l'.repeat(2030)}` }, 'logo_image_url', 'must have at most 2048 characters'],
    [{ logo_image_position: 'bottom-left' }, 'logo_image_position', 'must be one of: top-left, top-right'],
    [{ text_transform: 'capitalize' }, 'text_transform', 'must be one of: none, uppercase, lowercase, titlecase'],
    [{ text_animation: 'bounce' }, 'text_animation', 'must be one of: classic, reveal, karaoke, pop'],
    [{ entrance_animation: 'spin' }, 'entrance_animation', 'must be one of: none, fade, zoom-in, zoom-out, slide-up, slide-down, slide-left, slide-right, pop'],
    [{ playback_mode: 'random' }, 'playback_mode', 'must be one of: cycle, space-evenly, follow-article'],
    [{ text_horizontal_align: 'left' }, 'text_horizontal_align', 'must be one of: start, center, end'],
    [{ text_color: 'bluish' }, 'text_color', expect.stringMatching(/^must be a CSS colour/)],
    [{ waveform_color: '#ggg' }, 'waveform_color', expect.stringMatching(/^must be a CSS colour/)],
    [{ background_color: 'linear-gradient(to right, red, nope)' }, 'background_color', expect.stringMatching(/linear-gradient/)],
    [{ text_highlight_background_color: `rgba(${' '.repeat(95)}1, 2, 3, 0.5)` }, 'text_highlight_background_color', 'must have at most 100 characters'],
    [{ text_shadow: `0 0 ${'1'.repeat(200)}px black` }, 'text_shadow', 'must have at most 200 characters'],
    [{ text_highlight_stroke: `${'2'.repeat(199)}px red` }, 'text_highlight_stroke', 'must have at most 200 characters'],
    [{ text_stroke: '1px red; } body { display: none' }, 'text_stroke', expect.stringMatching(/^must be a CSS value without/)],
    [{ text_fonts: ['http://fonts.example.com/a.ttf'] }, 'text_fonts.0', 'must be a font name or an https URL of a .ttf or .otf file'],
    [{ text_fonts: ['Noto Sans', 'https://fonts.example.com/a.woff2'] }, 'text_fonts.1', 'must be a font name or an https URL of a .ttf or .otf file'],
    [{ text_width: 5 }, 'text_width', 'must be greater than or equal to 10'],
    [{ text_background_radius: -1 }, 'text_background_radius', 'must be greater than or equal to 0'],
    [{ text_horizontal_offset: 51 }, 'text_horizontal_offset', 'must be less than or equal to 50'],
    [{ variants: ['article', 'teaser'] }, 'variants.1', 'must be one of: article, summary'],
  ])('rejects %j with 422 at the field', async (change, location, message) => {
    const before = (await server.request('GET', '/v1/projects/1/video_settings')).body;
    const reply = await server.request('PUT', '/v1/projects/1/video_settings', { body: change });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([{ location, message }]);
    expect((await server.request('GET', '/v1/projects/1/video_settings')).body).toEqual(before);
  });
});

describe('embed settings', () => {
  it('has defaults, and normalises host names', async () => {
    expect((await server.request('GET', `/v1/projects/${otherProject}/embed_settings`)).body).toEqual({
      enabled: true,
      allowed_domains: [],
      default_media_format: 'audio',
    });
    const reply = await server.request('PUT', `/v1/projects/${otherProject}/embed_settings`, { body: { allowed_domains: ['News.Example.com.', 'localhost'] } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ enabled: true, allowed_domains: ['news.example.com', 'localhost'], default_media_format: 'audio' });
  });

  it.each([
    [{ allowed_domains: ['https://example.com'] }, 'allowed_domains.0'],
    [{ allowed_domains: ['example.com/path'] }, 'allowed_domains.0'],
    [{ allowed_domains: 'example.com' }, 'allowed_domains'],
    [{ default_media_format: 'podcast' }, 'default_media_format'],
    [{ enabled: 1 }, 'enabled'],
  ])('rejects %j', async (change, location) => {
    const reply = await server.request('PUT', `/v1/projects/${otherProject}/embed_settings`, { body: change });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((error: { location: string }) => error.location)).toEqual([location]);
  });
});

describe('access', () => {
  it('needs a key that reaches the project', async () => {
    for (const path of ['player_settings', 'video_settings', 'embed_settings']) {
      expect((await server.request('GET', `/v1/projects/1/${path}`, { key: null })).status).toBe(401);
      expect((await server.request('GET', `/v1/projects/999/${path}`)).status).toBe(404);
      expect((await server.request('PUT', `/v1/projects/999/${path}`, { body: {} })).status).toBe(404);
      expect((await server.request('DELETE', `/v1/projects/1/${path}`)).status).toBe(405);
    }
  });

  it('keeps a project key to its own project', async () => {
    const made = await cli(server.env, 'keys', 'create', '--organization', '1', '--project', String(otherProject));
    expect(made.code, made.stderr).toBe(0);
    const key = keyIn(made.stdout);
    await expect.poll(async () => (await server.request('GET', `/v1/projects/${otherProject}/player_settings`, { key })).status, { timeout: 10_000 }).toBe(200);
    const own = await server.request('PUT', `/v1/projects/${otherProject}/player_settings`, { key, body: { theme: 'light' } });
    expect(own.body.theme).toBe('light');
    expect((await server.request('GET', '/v1/projects/1/player_settings', { key })).status).toBe(404);
    expect((await server.request('PUT', '/v1/projects/1/video_settings', { key, body: { enabled: true } })).status).toBe(404);
    expect((await server.request('GET', '/v1/projects/1/embed_settings', { key })).status).toBe(404);
  });

  it('answers malformed JSON with 400', async () => {
    const reply = await server.request('PUT', '/v1/projects/1/player_settings', { rawBody: '{"theme": ' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ code: 400, message: 'Malformed JSON' });
  });
});
