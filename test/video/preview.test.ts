import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { download, probe } from '../support/video.ts';

let server: TestServer;
let dir: string;
let projectId: number;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'video-preview-'));
  server = await startServer();
  projectId = (await server.request('POST', '/v1/projects', { body: { name: 'Preview desk' } })).body.id;
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const small = [{ name: 'small', width: 640, height: 360, enabled: true }];

describe('video settings previews', () => {
  it("renders the project's settings with the body's over them: an H.264 + AAC mp4 of at most 5 s and a PNG frame", async () => {
    const started = performance.now();
    const reply = await server.request('POST', `/v1/projects/${projectId}/video_settings/preview`, { body: { text_animation: 'karaoke', background_color: '#203040' } });
    const elapsed = performance.now() - started;
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ size: { name: 'landscape', width: 1280, height: 720 } });
    expect(reply.body.duration).toBeGreaterThan(1000);
    expect(reply.body.duration).toBeLessThanOrEqual(5000);
    expect(reply.body.words.length).toBeGreaterThan(3);
    const video = await download(reply.body.video_url, path.join(dir, 'project.mp4'));
    expect(video.contentType).toBe('video/mp4');
    const probed = await probe(path.join(dir, 'project.mp4'));
    expect(probed.video).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
    expect(probed.audio?.codec_name).toBe('aac');
    expect(Math.abs(probed.durationMs - reply.body.duration)).toBeLessThan(100);
    const image = await download(reply.body.image_url, path.join(dir, 'project.png'));
    expect(image.contentType).toBe('image/png');
    expect(image.bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(image.bytes.readUInt32BE(16)).toBe(1280);
    expect(image.bytes.readUInt32BE(20)).toBe(720);
    // A settings screen waits for this; the machine is shared, so the bound is loose.
    expect(elapsed).toBeLessThan(8000);
  });

  it("renders a template's settings, in the size the body names", async () => {
    const template = await server.request('POST', '/v1/video_settings_templates', {
      body: { name: 'Square pop', settings: { text_animation: 'pop', sizes: [...small, { name: 'square', width: 480, height: 480, enabled: true }] } },
    });
    expect(template.status).toBe(201);
    const reply = await server.request('POST', `/v1/video_settings_templates/${template.body.id}/preview`, { body: { size: 'square', sample_text: 'A square frame.' } });
    expect(reply.status).toBe(200);
    expect(reply.body.size).toEqual({ name: 'square', width: 480, height: 480 });
    await download(reply.body.video_url, path.join(dir, 'template.mp4'));
    expect((await probe(path.join(dir, 'template.mp4'))).video).toMatchObject({ width: 480, height: 480 });
  });

  it('answers 422 for settings the video settings schema refuses, and for a size the settings lack', async () => {
    const bad = await server.request('POST', `/v1/projects/${projectId}/video_settings/preview`, { body: { text_color: 'not a colour', text_lines: 9 } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((error: { location: string }) => error.location).sort()).toEqual(['text_color', 'text_lines']);
    const size = await server.request('POST', `/v1/projects/${projectId}/video_settings/preview`, { body: { sizes: small, size: 'huge' } });
    expect(size.status).toBe(422);
    expect(size.body.errors[0].location).toBe('size');
    const template = await server.request('POST', `/v1/projects/${projectId}/video_settings/preview`, { body: { template: { id: 999999 } } });
    expect(template.status).toBe(422);
    // Marks alone are spoken as silence: no words to caption, no frame to draw.
    for (const sample_text of ['-', '…', '\u200b']) {
      const silent = await server.request('POST', `/v1/projects/${projectId}/video_settings/preview`, { body: { sizes: small, sample_text } });
      expect(silent.status, JSON.stringify(sample_text)).toBe(422);
      expect(silent.body.errors.map((error: { location: string }) => error.location)).toEqual(['sample_text']);
    }
  });

  it('renders the largest frame accepted, 3840×3840, with a turned gradient, within the memory bound', async () => {
    const body = { background_color: 'linear-gradient(33deg, red, blue, green)', sample_text: 'A large frame.', sizes: [{ name: 'max', width: 3840, height: 3840, enabled: true }] };
    const reply = await server.request('POST', `/v1/projects/${projectId}/video_settings/preview`, { body });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    await download(reply.body.video_url, path.join(dir, 'max.mp4'));
    expect((await probe(path.join(dir, 'max.mp4'))).video).toMatchObject({ width: 3840, height: 3840 });
  }, 240_000);

  it('answers 422 at the size for a frame past 3840 pixels a side, which ffmpeg could not draw within its memory bound', async () => {
    const reply = await server.request('POST', `/v1/projects/${projectId}/video_settings/preview`, { body: { sizes: [{ name: 'huge', width: 7680, height: 7680, enabled: true }] } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((error: { location: string }) => error.location).sort()).toEqual(['sizes.0.height', 'sizes.0.width']);
  });

  it('answers 404 for a template that does not exist', async () => {
    const reply = await server.request('POST', '/v1/video_settings_templates/999999/preview', { body: {} });
    expect(reply.status).toBe(404);
  });
});
