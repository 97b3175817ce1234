// One item cannot exhaust the API process: a 30-minute background track is mixed without the process holding it
// (its resident memory measured from /proc), an item with 300 image segments fetches and probes within the process's
// bounds (its ffmpeg/ffprobe children counted from /proc every 50 ms) while the service answers other requests, a
// retried render fetches none of its images and videos again, and the projections lease is never lost meanwhile.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../src/media/tool.ts';
import { settled } from '../support/generation.ts';
import { measureLoudness } from '../support/loudness.ts';
import { startServer, type TestServer } from '../support/server.ts';

/** The most ffmpeg/ffprobe processes the service may run at once for one item: its encoder, a render and its poster. */
const MOST_MEDIA_CHILDREN = 4;
const IMAGES = 300;
const TRACK_MINUTES = 30;

let scratch: string;
let host: Server;
let base: string;
/** Requests the host answered, per path. */
const asked = new Map<string, number>();
let server: TestServer;
let servicePid: number;
let voice: number;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'media-load-'));
  // Quiet pink noise, small as a file (8 kbit/s), 30 minutes long once decoded: 79 MB of samples at 22,050 Hz.
  const track = join(scratch, 'track.mp3');
  const madeTrack = await runTool('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.05:sample_rate=8000:duration=${TRACK_MINUTES * 60}`, '-ac', '1', '-c:a', 'libmp3lame', '-b:a', '8k', track]);
  expect(madeTrack.code, madeTrack.stderr).toBe(0);
  const png = join(scratch, 'image.png');
  const madePng = await runTool('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=teal:s=64x64', '-frames:v', '1', png]);
  expect(madePng.code, madePng.stderr).toBe(0);
  const mp4 = join(scratch, 'clip.mp4');
  const madeMp4 = await runTool('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x64:rate=10:duration=2', '-pix_fmt', 'yuv420p', mp4]);
  expect(madeMp4.code, madeMp4.stderr).toBe(0);
  const files = { mp3: await readFile(track), png: await readFile(png), mp4: await readFile(mp4) };
  host = createServer((request, response) => {
    const url = request.url ?? '';
    asked.set(url, (asked.get(url) ?? 0) + 1);
    if (url === '/track.mp3') return void response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': files.mp3.length }).end(files.mp3);
    if (url === '/clip.mp4') return void response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': files.mp4.length }).end(files.mp4);
    if (/^\/image-\d+\.png$/.test(url)) return void response.writeHead(200, { 'content-type': 'image/png', 'content-length': files.png.length }).end(files.png);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  server = await startServer({ env: { GENERATION_ENABLED: 'true', FETCH_ALLOW_PRIVATE: 'true' } });
  servicePid = pidOf(server.dataDir);
  voice = (await server.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=en_GB')).body[0].id;
}, 180_000);
afterAll(async () => {
  await server?.stop();
  host?.closeAllConnections();
  await new Promise((resolve) => host?.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

const procs = () => readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
const read = (pid: number, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
};

/** The service process: the one whose environment names this server's data directory. */
function pidOf(dataDir: string): number {
  const found = procs().filter((pid) => read(pid, 'cmdline').includes('src/main.ts') && read(pid, 'environ').split('\0').includes(`DATA_DIR=${dataDir}`));
  expect(found).toHaveLength(1);
  return found[0]!;
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(read(pid, 'status'))?.[1] ?? Number.NaN) / 1024;

/** The service's ffmpeg and ffprobe descendants: pid and command line. */
function mediaChildren(): { pid: number; args: string }[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const pid of procs()) {
    const stat = read(pid, 'stat');
    const close = stat.lastIndexOf(')');
    if (close < 0) continue;
    names.set(pid, stat.slice(stat.indexOf('(') + 1, close));
    parents.set(pid, Number(stat.slice(close + 2).split(' ')[1]));
  }
  const descends = (pid: number) => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === servicePid) return true;
    return false;
  };
  return [...names].filter(([pid, name]) => (name === 'ffmpeg' || name === 'ffprobe') && descends(pid)).map(([pid]) => ({ pid, args: read(pid, 'cmdline').replaceAll('\0', ' ') }));
}

/** Samples `sample` every 50 ms until `until` settles; answers what `until` gave. */
async function sampling<T>(sample: () => void, until: Promise<T>): Promise<T> {
  let done = false;
  const finished = until.finally(() => (done = true));
  while (!done) {
    sample();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return finished;
}

const leaseLost = () => /projections lease lost/.test(server.output());

// Runs once, in the embedded run: the real-server run (TEST_MONGODB_URL set) changes only where events and read
// models are kept, and the same media would be fetched and mixed again.
describe.skipIf(process.env.TEST_MONGODB_URL)('an item cannot exhaust the API process', () => {
  it(`mixes a ${TRACK_MINUTES}-minute background track within +150 MB of resident memory`, async () => {
    const before = rssMb(servicePid);
    const track = await server.request('POST', '/v1/background_tracks', { body: { name: 'Long bed', url: `${base}/track.mp3`, volume: 100 } });
    expect(track.status, JSON.stringify(track.body)).toBe(201);
    const created = await server.request('POST', '/v1/projects/1/content', {
      body: {
        title: 'Music under a short story',
        body: '<p>The council met on Tuesday evening.</p><p>It agreed a new budget for the libraries.</p>',
        title_voice_id: voice,
        body_voice_id: voice,
        summary_enabled: false,
        background_track: { enabled: true, track: { id: track.body.id } },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    let peak = before;
    const item = await sampling(() => (peak = Math.max(peak, rssMb(servicePid))), settled(server, created.body.id, 300_000));
    expect(item.status, item.error).toBe('processed');
    console.info(`30-minute track: resident memory ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most`);
    expect(peak - before, `resident memory went from ${before.toFixed(0)} MB to ${peak.toFixed(0)} MB`).toBeLessThan(150);
    expect(leaseLost(), server.output().slice(-2000)).toBe(false);
  }, 360_000);

  it(`levels and encodes a ${TRACK_MINUTES}-minute pre-recorded segment within +150 MB, at −16 LUFS`, async () => {
    const before = rssMb(servicePid);
    const created = await server.request('POST', '/v1/projects/1/content', {
      body: {
        type: 'manual_segment',
        title_voice_id: voice,
        body_voice_id: voice,
        summary_enabled: false,
        segments: [
          { content_type: 'text', section: 'title', text: 'A long recording' },
          { content_type: 'audio', audio_url: `${base}/track.mp3` },
          { content_type: 'text', text: 'That was the whole recording.' },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    let peak = before;
    const item = await sampling(() => (peak = Math.max(peak, rssMb(servicePid))), settled(server, created.body.id, 600_000));
    expect(item.status, item.error).toBe('processed');
    expect(item.duration).toBeGreaterThan(TRACK_MINUTES * 60_000);
    console.info(`30-minute recording: resident memory ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most`);
    expect(peak - before, `resident memory went from ${before.toFixed(0)} MB to ${peak.toFixed(0)} MB`).toBeLessThan(150);
    const loudness = await measureLoudness(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url);
    expect(Math.abs(loudness.integrated + 16), `${loudness.integrated} LUFS`).toBeLessThanOrEqual(1);
    expect(loudness.truePeak).toBeLessThanOrEqual(-1);
    expect(leaseLost(), server.output().slice(-2000)).toBe(false);
  }, 660_000);

  it(`renders an item with ${IMAGES} image segments within ${MOST_MEDIA_CHILDREN} media processes at once, answers meanwhile, and fetches each image and video once across a retried render`, async () => {
    const images = Array.from({ length: IMAGES }, (_, i) => ({ content_type: 'image', image_url: `${base}/image-${i}.png` }));
    const created = await server.request('POST', '/v1/projects/1/content', {
      body: {
        type: 'manual_segment',
        title_voice_id: voice,
        body_voice_id: voice,
        summary_enabled: false,
        segments: [
          { content_type: 'text', section: 'title', text: 'Three hundred pictures' },
          ...images,
          { content_type: 'video', video_url: `${base}/clip.mp4` },
          { content_type: 'text', text: 'That was every picture of the day.' },
        ],
        video_settings: { enabled: true, variants: ['article'], sizes: [{ name: 'small', width: 160, height: 90, enabled: true }], template: null },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id: string = created.body.id;
    let most = 0;
    let killed = false;
    const answers: number[] = [];
    let asking: Promise<void> | null = null;
    const item = await sampling(() => {
      const children = mediaChildren();
      most = Math.max(most, children.length);
      // The first render is killed: the workflow tries it again.
      const render = children.find((child) => child.args.includes(id) && child.args.includes('.mp4') && !child.args.includes(' -ss '));
      if (!killed && render) {
        killed = true;
        process.kill(render.pid, 'SIGKILL');
      }
      // A normal create meanwhile, one at a time.
      asking ??= (async () => {
        const started = Date.now();
        const other = await server.request('POST', '/v1/projects/1/content', { body: { title: 'Meanwhile', body: '<p>A short note.</p>', title_voice_id: voice, body_voice_id: voice } });
        expect(other.status).toBe(201);
        answers.push(Date.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        asking = null;
      })();
    }, settled(server, id, 600_000));
    expect(item.status, item.error).toBe('processed');
    expect(item.video).toHaveLength(1);
    expect(killed).toBe(true);
    console.info(`${IMAGES} images: at most ${most} media processes at once; creates answered in ${answers.join(', ')} ms`);
    expect(most).toBeLessThanOrEqual(MOST_MEDIA_CHILDREN);
    expect(answers.length).toBeGreaterThan(0);
    expect(Math.max(...answers), `create answered in ${answers.join(', ')} ms`).toBeLessThan(5000);
    for (let i = 0; i < IMAGES; i++) expect(asked.get(`/image-${i}.png`), `image-${i}.png`).toBe(1);
    expect(asked.get('/clip.mp4'), 'clip.mp4').toBe(1);
    expect(leaseLost(), server.output().slice(-2000)).toBe(false);
  }, 660_000);
});
