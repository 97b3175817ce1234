import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureLoudness } from '../support/loudness.ts';
import { decodeSamples, SAMPLE_RATE, serveGeneratedAudio, toneDb, type AudioHost } from '../support/audioHost.ts';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

// With intros and outros on in the player settings, an item also gets the article with them around it.
const INTRO_HZ = 440;
const OUTRO_HZ = 660;
let server: TestServer;
let host: AudioHost;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'intros-outros-'));
  host = await serveGeneratedAudio(scratch, { 'intro.wav': `sine=frequency=${INTRO_HZ}:duration=2`, 'outro.mp3': `sine=frequency=${OUTRO_HZ}:duration=1.5` });
  server = await startServer({ env: { GENERATION_ENABLED: 'true', FETCH_ALLOW_PRIVATE: 'true' } });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await host?.close();
  await rm(scratch, { recursive: true, force: true });
});

const msOf = (samples: Float32Array) => (samples.length * 1000) / SAMPLE_RATE;

describe('intros and outros', () => {
  it('renders the article between the intro and the outro, as mp3 and HLS, and lists them for the player', async () => {
    const settings = await server.request('PUT', '/v1/projects/1/player_settings', {
      body: { intro_url: `${host.base}/intro.wav`, outro_url: `${host.base}/outro.mp3`, intro_outro_enabled: true },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const voice = (await server.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=en_GB')).body[0].id;
    const body = { title: 'Framed', body: '<p>The bridge reopens on Monday after repairs.</p>', title_voice_id: voice, body_voice_id: voice, summary_enabled: false };
    const created = await server.request('POST', '/v1/projects/1/content', { body });
    expect(created.status).toBe(201);
    const item = await settled(server, created.body.id, 60_000);
    expect(item.status, item.error).toBe('processed');

    // The article's own audio is unchanged; the framed one is beside it, in both formats.
    expect(item.audio.map((file: any) => file.content_type).sort()).toEqual(['application/x-mpegURL', 'audio/mpeg']);
    expect(item.audio_with_intro_outro.map((file: any) => [file.content_type, file.variant]).sort()).toEqual([
      ['application/x-mpegURL', 'article'],
      ['audio/mpeg', 'article'],
    ]);
    const article = await decodeSamples(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url);
    const framedFile = item.audio_with_intro_outro.find((file: any) => file.content_type === 'audio/mpeg');
    const framed = await decodeSamples(framedFile.url);
    const [intro, outro] = await Promise.all([decodeSamples(`${host.base}/intro.wav`), decodeSamples(`${host.base}/outro.mp3`)]);

    const expectedMs = msOf(intro) + msOf(article) + msOf(outro);
    expect(Math.abs(msOf(framed) - expectedMs)).toBeLessThan(100);
    expect(Math.abs(framedFile.duration - expectedMs)).toBeLessThan(100);
    // The intro's tone opens it, the outro's closes it, and neither is in the narration between.
    const introEnd = msOf(intro);
    const outroStart = introEnd + msOf(article);
    expect(toneDb(framed, [100, introEnd - 100], INTRO_HZ)).toBeGreaterThan(-30);
    expect(toneDb(framed, [outroStart + 100, msOf(framed) - 100], OUTRO_HZ)).toBeGreaterThan(-30);
    expect(toneDb(framed, [introEnd + 100, outroStart - 100], INTRO_HZ)).toBeLessThan(-45);

    const playlist = await fetch(item.audio_with_intro_outro.find((file: any) => file.content_type === 'application/x-mpegURL').url);
    expect(playlist.status).toBe(200);
    expect(await playlist.text()).toContain('#EXT-X-ENDLIST');
    const loudness = await measureLoudness(framedFile.url);
    expect(Math.abs(loudness.integrated + 16)).toBeLessThanOrEqual(1);
    expect(loudness.truePeak).toBeLessThanOrEqual(-1);

    const player = await server.request('GET', `/v1/projects/1/player/by_content_id/${item.id}`, { key: null });
    expect(player.body.settings.intros_outros).toEqual([
      { placement: 'pre-roll', audio: [{ url: `${host.base}/intro.wav` }], video: [] },
      { placement: 'post-roll', audio: [{ url: `${host.base}/outro.mp3`, content_type: 'audio/mpeg' }], video: [] },
    ]);
  }, 120_000);
});
