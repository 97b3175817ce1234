import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureLoudness } from '../support/loudness.ts';
import { decodeSamples, rmsDb, serveGeneratedAudio, toneDb, type AudioHost } from '../support/audioHost.ts';
import { settled } from '../support/generation.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

// A track is mixed under the narration: measured in the pauses between sentences, whose places the segments give
// exactly, and under speech. The track is a steady 1 kHz tone (shorter than the narration, so it loops), whose own
// level stands out from the voice's at that one frequency.
const TONE_HZ = 1000;
const PAUSE_S = 1.5;
/** Uploads and fetched tracks alike may be at most this large here. */
const MAX_AUDIO_BYTES = 200_000;
let server: TestServer;
let host: AudioHost;
let scratch: string;
let voice: number;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'background-music-'));
  host = await serveGeneratedAudio(scratch, { 'tone.mp3': `sine=frequency=${TONE_HZ}:duration=4` });
  server = await startServer({ env: { GENERATION_ENABLED: 'true', FETCH_ALLOW_PRIVATE: 'true', AUDIO_FETCH_MAX_BYTES: String(MAX_AUDIO_BYTES) } });
  const project = await server.request('PUT', '/v1/projects/1', { body: { pause_after_title_segments_seconds: PAUSE_S, pause_after_segments_seconds: PAUSE_S } });
  expect(project.status).toBe(200);
  voice = (await server.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=en_GB')).body[0].id;
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await host?.close();
  await rm(scratch, { recursive: true, force: true });
});

const article = {
  title: 'Music under the news',
  body: '<p>The council met on Tuesday evening.</p><p>It agreed a new budget for the libraries.</p><p>Work starts in the spring.</p>',
  summary_enabled: false,
};

async function narrate(extra: object) {
  const created = await server.request('POST', '/v1/projects/1/content', { body: { ...article, title_voice_id: voice, body_voice_id: voice, ...extra } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const item = await settled(server, created.body.id, 60_000);
  expect(item.status, item.error).toBe('processed');
  const mp3 = item.audio.find((file: any) => file.content_type === 'audio/mpeg');
  return { item, mp3: mp3.url as string, audio: await decodeSamples(mp3.url) };
}

/** Between sentences, after the music has come back up and before it goes down again; and within each sentence. */
function windowsOf(segments: any[]) {
  const pauses: [number, number][] = [];
  const speech: [number, number][] = [];
  for (const [i, segment] of segments.entries()) {
    const end = segment.start_time + segment.duration;
    speech.push([segment.start_time + 100, end - 300]);
    const next = segments[i + 1];
    if (next) pauses.push([end + 500, next.start_time - 250]);
  }
  return { pauses, speech };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('background music', () => {
  it('is heard between sentences, ducked under speech, and keeps the narration at −16 LUFS', async () => {
    const track = await server.request('POST', '/v1/background_tracks', { body: { name: 'Tone bed', url: `${host.base}/tone.mp3`, volume: 100 } });
    expect(track.status, JSON.stringify(track.body)).toBe(201);
    const [plain, mixed] = await Promise.all([narrate({}), narrate({ background_track: { enabled: true, track: { id: track.body.id } } })]);
    expect(mixed.item.segments.map((segment: any) => segment.start_time)).toEqual(plain.item.segments.map((segment: any) => segment.start_time));
    const { pauses, speech } = windowsOf(mixed.item.segments);
    expect(pauses.length).toBe(3);

    // Louder between sentences than the narration alone, and there the track is the tone at its bed level.
    const pauseLevels = pauses.map((window) => ({ plain: rmsDb(plain.audio, window), mixed: rmsDb(mixed.audio, window), tone: toneDb(mixed.audio, window, TONE_HZ) }));
    for (const level of pauseLevels) {
      expect(level.mixed).toBeGreaterThan(level.plain + 20);
      expect(level.tone).toBeGreaterThan(-30);
    }
    // Under speech the tone is at least 12 dB lower than between sentences, and still there (the narration alone has
    // far less at that frequency).
    const toneUnderSpeech = median(speech.map((window) => toneDb(mixed.audio, window, TONE_HZ)));
    const voiceAtTone = median(speech.map((window) => toneDb(plain.audio, window, TONE_HZ)));
    const toneBetween = median(pauseLevels.map((level) => level.tone));
    expect(toneBetween - toneUnderSpeech).toBeGreaterThan(12);
    expect(toneUnderSpeech).toBeGreaterThan(voiceAtTone + 6);

    // The music fades out after the last sentence, which makes the narration that much longer.
    const last = mixed.item.segments.at(-1);
    expect(mixed.item.duration).toBeGreaterThan(last.start_time + last.duration + 1_900);
    expect(rmsDb(mixed.audio, [mixed.item.duration - 150, mixed.item.duration - 60])).toBeLessThan(toneBetween - 15);

    // The HLS rendition is the same encode: the music is there too (50 ms later: its segments carry the encoder's priming).
    const hls = await decodeSamples(mixed.item.audio.find((file: any) => file.content_type === 'application/x-mpegURL').url);
    for (const window of pauses) expect(toneDb(hls, window, TONE_HZ)).toBeGreaterThan(-30);

    const loudness = await measureLoudness(mixed.mp3);
    expect(loudness.integrated).toBeGreaterThan(-17);
    expect(loudness.integrated).toBeLessThan(-15);
    expect(loudness.truePeak).toBeLessThanOrEqual(-1);
  }, 120_000);

  it("uses the project's track unless the item turns music off", async () => {
    const track = await server.request('POST', '/v1/background_tracks', { body: { name: 'Quiet tone', url: `${host.base}/tone.mp3`, volume: 40 } });
    const project = await server.request('PUT', '/v1/projects/1', { body: { background_track: { enabled: true, track: { id: track.body.id } } } });
    expect(project.status).toBe(200);
    try {
      const [byProject, off] = await Promise.all([narrate({}), narrate({ background_track: { enabled: false, track: null } })]);
      const pause = windowsOf(byProject.item.segments).pauses[0]!;
      // Volume 40 is 8 dB under volume 100's bed.
      expect(toneDb(byProject.audio, pause, TONE_HZ)).toBeGreaterThan(-40);
      expect(rmsDb(off.audio, pause)).toBeLessThan(rmsDb(byProject.audio, pause) - 20);
    } finally {
      await server.request('PUT', '/v1/projects/1', { body: { background_track: { enabled: false, track: null } } });
    }
  }, 120_000);

  describe('a track uploaded as a file', () => {
    /** POST /v1/background_tracks as multipart/form-data. */
    async function upload(fields: Record<string, string>, file?: { bytes: Buffer; name: string }) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      if (file) form.append('file', new Blob([Uint8Array.from(file.bytes)], { type: 'audio/mpeg' }), file.name);
      const response = await fetch(`${server.baseUrl}/v1/background_tracks`, { method: 'POST', headers: { 'x-api-key': TEST_KEY }, body: form });
      return { status: response.status, body: await response.json() };
    }

    it('is kept, measured, served at its url, and mixed like any track', async () => {
      const bytes = await readFile(join(scratch, 'tone.mp3'));
      const created = await upload({ name: 'Uploaded tone', volume: '100' }, { bytes, name: 'tone.mp3' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ name: 'Uploaded tone', volume: 100, project: null });
      expect(created.body.duration).toBeGreaterThan(3.9);
      expect(created.body.duration).toBeLessThan(4.2);
      const served = await fetch(created.body.url);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
      expect((await server.request('GET', `/v1/background_tracks/${created.body.id}`)).body).toEqual(created.body);

      const mixed = await narrate({ background_track: { enabled: true, track: { id: created.body.id } } });
      const pause = windowsOf(mixed.item.segments).pauses[0]!;
      expect(toneDb(mixed.audio, pause, TONE_HZ)).toBeGreaterThan(-30);
    }, 120_000);

    it.each([
      ['no file', { name: 'Nothing' }, undefined, 422, 'file'],
      ['a file that is not audio', { name: 'Notes' }, { bytes: Buffer.from('not audio frames\n'.repeat(100)), name: 'notes.mp3' }, 422, 'file'],
      ['no name', {}, 'TONE', 422, 'name'],
      ['a volume out of range', { name: 'Loud', volume: '101' }, 'TONE', 422, 'volume'],
      ['a file over the size limit', { name: 'Huge' }, { bytes: Buffer.alloc(MAX_AUDIO_BYTES + 1), name: 'huge.mp3' }, 413, undefined],
    ])('refuses %s', async (_, fields, file, status, location) => {
      const bytes = typeof file === 'string' ? { bytes: await readFile(join(scratch, 'tone.mp3')), name: 'tone.mp3' } : file;
      const reply = await upload(fields, bytes);
      expect(reply.status, JSON.stringify(reply.body)).toBe(status);
      expect(reply.body.code).toBe(status);
      if (location) expect(reply.body.errors.map((error: { location: string }) => error.location)).toContain(location);
      // Only the one upload accepted above is kept.
      expect(await readdir(join(server.dataDir, 'media', 'background_tracks'))).toHaveLength(1);
    });

    it('is deleted with its track', async () => {
      const created = await upload({ name: 'Short-lived' }, { bytes: await readFile(join(scratch, 'tone.mp3')), name: 'tone.mp3' });
      expect(created.status).toBe(201);
      expect((await fetch(created.body.url)).status).toBe(200);
      expect((await server.request('DELETE', `/v1/background_tracks/${created.body.id}`)).status).toBe(204);
      expect((await fetch(created.body.url)).status).toBe(404);
    });

    it('is the only multipart body accepted', async () => {
      const form = new FormData();
      form.append('title', 'Not here');
      const response = await fetch(`${server.baseUrl}/v1/projects/1/content`, { method: 'POST', headers: { 'x-api-key': TEST_KEY }, body: form });
      expect(response.status).toBe(415);
    });
  });
});
