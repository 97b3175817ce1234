// POST /v1/projects/{p}/content/upload: an `audio_upload` item from an uploaded recording, streamed to the media folder,
// admitted by the media intake and narrated as the item's audio. Refused (not audio, a playlist named .mp3, six hours of
// FLAC silence, too large, malformed) or cut-off uploads leave no item and no file.
import { createReadStream, openAsBlob } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeDurationMs } from '../../src/media/probe.ts';
import { runTool } from '../../src/media/tool.ts';
import { download, settled } from '../support/generation.ts';
import { measureLoudness } from '../support/loudness.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

const UPLOAD = '/v1/projects/1/content/upload';
/** Room for the 100 MB recording; the oversized ones pass it. */
const MAX_BYTES = 120 * 1024 * 1024;
const MB = 1024 * 1024;

let server: TestServer;
let scratch: string;

const made = async (name: string, args: string[]) => {
  const file = path.join(scratch, name);
  const run = await runTool('ffmpeg', ['-v', 'error', '-y', ...args, file]);
  expect(run.code, run.stderr).toBe(0);
  return file;
};

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'content-upload-'));
  server = await startServer({ env: { GENERATION_ENABLED: 'true', AUDIO_FETCH_MAX_BYTES: String(MAX_BYTES) } });
  // A quiet recording (about −33 LUFS), two seconds of a tone.
  await made('interview.mp3', ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2:sample_rate=44100', '-af', 'volume=0.03', '-c:a', 'libmp3lame', '-b:a', '96k']);
});
afterAll(async () => {
  await server?.stop();
  await rm(scratch, { recursive: true, force: true });
});

type Reply = { status: number; body: any };

/** The form: text fields, and the file (a path on disk, streamed from there, or bytes). */
async function upload(fields: Record<string, string>, file?: { path: string } | { bytes: Buffer; name: string }, requestPath = UPLOAD): Promise<Reply> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file && 'path' in file) form.append('file', await openAsBlob(file.path), path.basename(file.path));
  else if (file) form.append('file', new Blob([Uint8Array.from(file.bytes)]), file.name);
  const response = await fetch(`${server.baseUrl}${requestPath}`, { method: 'POST', headers: { 'x-api-key': TEST_KEY }, body: form });
  return { status: response.status, body: await response.json() };
}

/**
 * A form of `title` and `file` sent as it is made (chunked, no Content-Length): the file's bytes are `chunks`; with
 * `abortAfter`, the client gives up after that many; `onSent` runs once the last byte is handed over.
 */
function streamed(chunks: AsyncIterable<Buffer> | Iterable<Buffer>, options: { abortAfter?: number; onSent?: () => Promise<void> } = {}) {
  const boundary = 'upl0adb0undary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nStreamed\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const controller = new AbortController();
  async function* parts() {
    yield head;
    let sent = 0;
    for await (const chunk of chunks) {
      if (sent++ === options.abortAfter) return controller.abort();
      yield chunk;
    }
    yield tail;
    await options.onSent?.();
  }
  const init = { method: 'POST', headers: { 'x-api-key': TEST_KEY, 'content-type': `multipart/form-data; boundary=${boundary}` }, body: (ReadableStream as unknown as { from: (source: AsyncIterable<Buffer>) => ReadableStream }).from(parts()), duplex: 'half', signal: controller.signal };
  return fetch(`${server.baseUrl}${UPLOAD}`, init as RequestInit);
}

const repeated = (count: number, chunk: Buffer) => Array.from({ length: count }, () => chunk);

const uploadsKept = async () => (await readdir(path.join(server.dataDir, 'media', 'uploads')).catch(() => [] as string[])).sort();
const itemCount = async () => (await server.request('GET', '/v1/projects/1/content?pagination[limit]=100')).body.length;
/** Peak resident memory of the API process so far (VmHWM), in bytes. */
const peakRss = async () => Number(/VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${server.pid}/status`, 'utf8'))![1]) * 1024;

/** Runs a refused upload and checks that it left nothing: no new item, no new file. */
async function refusedLeavingNothing(send: () => Promise<Reply>): Promise<Reply> {
  const [items, files] = [await itemCount(), await uploadsKept()];
  const reply = await send();
  expect(await itemCount()).toBe(items);
  expect(await uploadsKept()).toEqual(files);
  return reply;
}

describe('uploading a recording', () => {
  it('creates an audio_upload item with the form fields, whose narration is the recording, levelled', async () => {
    const reply = await upload(
      { title: 'Interview with the mayor', source_id: 'upload-1', published: 'true', tags: '["city","interview"]', author: 'Ana Ruiz', metadata: '{"desk":"city"}' },
      { path: path.join(scratch, 'interview.mp3') },
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({
      type: 'audio_upload',
      status: 'queued',
      title: 'Interview with the mayor',
      source_id: 'upload-1',
      author: 'Ana Ruiz',
      tags: ['city', 'interview'],
      metadata: { desk: 'city' },
      audio_url: expect.stringMatching(new RegExp(`^${server.baseUrl}/media/uploads/[0-9a-f-]{36}\\.mp3$`)),
    });
    // The kept file is the upload itself, served at the item's audio_url, named by us.
    const kept = await fetch(reply.body.audio_url);
    expect(kept.status).toBe(200);
    expect(Buffer.from(await kept.arrayBuffer())).toEqual(await readFile(path.join(scratch, 'interview.mp3')));
    expect(await uploadsKept()).toEqual([path.basename(new URL(reply.body.audio_url).pathname)]);

    const item = await settled(server, reply.body.id);
    expect(item.status, item.error).toBe('processed');
    expect(item.published).toBe(true);
    expect(item.segments).toEqual([expect.objectContaining({ content_type: 'audio', section: 'body', audio_url: reply.body.audio_url })]);
    const mp3 = item.audio.find((file: any) => file.content_type === 'audio/mpeg');
    const narration = await download(mp3.url, scratch);
    expect(Math.abs((await probeDurationMs(narration)) - 2000)).toBeLessThan(150);
    // Levelled like every sound of a narration (docs/generation.md, Loudness): the quiet recording comes out at −16 LUFS.
    const loudness = await measureLoudness(narration);
    expect(Math.abs(loudness.integrated + 16)).toBeLessThan(1);
    expect(loudness.truePeak).toBeLessThanOrEqual(-1);
    // Players find it by its source id.
    const player = await server.request('GET', '/v1/projects/1/player/by_source_id/upload-1', { key: null });
    expect(player.status).toBe(200);
  });

  it('streams a 100 MB recording to disk with bounded memory', async () => {
    // 138 s of 96 kHz stereo 32-bit PCM: 106 MB, twice the 50 MB the bound is meant for: the garbage collector lets a few
    // tens of MB of received chunks wait, however large the file, so a whole file kept in memory shows only above that.
    const big = await made('long.wav', ['-f', 'lavfi', '-i', 'sine=frequency=330:duration=138:sample_rate=96000', '-ac', '2', '-c:a', 'pcm_s32le']);
    const size = (await openAsBlob(big)).size;
    expect(size).toBeGreaterThan(100 * MB);
    // The peak is read once the whole body is sent and on disk, before the item (and its narration) is made.
    const before = await peakRss();
    let peak = 0;
    const onSent = async () => {
      const sizes = async () => Promise.all((await uploadsKept()).map(async (name) => (await stat(path.join(server.dataDir, 'media', 'uploads', name))).size));
      await expect.poll(sizes).toContain(size);
      peak = await peakRss();
    };
    const response = await streamed(createReadStream(big, { highWaterMark: MB }), { onSent });
    const reply = { status: response.status, body: await response.json() };
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const grown = peak - before;
    expect(grown, `peak RSS grew by ${Math.round(grown / MB)} MB`).toBeLessThan(48 * MB);
    const kept = path.join(server.dataDir, 'media', new URL(reply.body.audio_url).pathname.slice('/media/'.length));
    expect((await openAsBlob(kept)).size).toBe(size);
    const item = await settled(server, reply.body.id);
    expect(item.status, item.error).toBe('processed');
    expect(Math.abs(item.duration - 138_000)).toBeLessThan(200);
  });
});

describe('refused uploads leave no item and no file', () => {
  it('answers 422 at `file` for a file that is not audio', async () => {
    const reply = await refusedLeavingNothing(() => upload({ title: 'Not audio' }, { bytes: Buffer.from('<html><body><p>An article, not a recording.</p></body></html>'), name: 'story.mp3' }));
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ code: 422, errors: [{ location: 'file', message: expect.stringMatching(/the uploaded file is not an audio format allowed here/) }] });
  });

  it('answers 422 at `file` for a playlist or a list named as audio, and for six hours of FLAC silence in a few MB', async () => {
    const sentinel = path.join(scratch, 'interview.mp3');
    const playlist = ['#EXTM3U', '#EXT-X-TARGETDURATION:5', '#EXTINF:5.0,', `file:${sentinel}`, '#EXT-X-ENDLIST', ''].join('\n');
    const concat = ['ffconcat version 1.0', `file '${sentinel}'`, ''].join('\n');
    for (const [name, text] of [['x.mp3', playlist], ['list.mp3', concat]] as const) {
      const reply = await refusedLeavingNothing(() => upload({ title: 'Playlist' }, { bytes: Buffer.from(text), name }));
      expect(reply.status).toBe(422);
      expect(reply.body.errors).toEqual([{ location: 'file', message: expect.stringMatching(/the uploaded file is not an audio format allowed here/) }]);
    }
    const silence = await made('six-hours.flac', ['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', String(6 * 3600), '-c:a', 'flac']);
    const long = await refusedLeavingNothing(() => upload({ title: 'Six hours' }, { path: silence }));
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual([{ location: 'file', message: expect.stringMatching(/the uploaded file plays 360 min, longer than the 30 min allowed/) }]);
  }, 60_000);

  it('answers 422 at `file` for audio that cannot be decoded', async () => {
    const real = await readFile(path.join(scratch, 'interview.mp3'));
    // An ID3 tag and the first frame header of a real mp3, then bytes that are no mp3 frames.
    const broken = Buffer.concat([real.subarray(0, real.indexOf(Buffer.from([0xff, 0xfb])) + 4), Buffer.alloc(20_000, 0x5a)]);
    const reply = await refusedLeavingNothing(() => upload({ title: 'Broken' }, { bytes: broken, name: 'broken.mp3' }));
    expect(reply.status, JSON.stringify(reply.body)).toBe(422);
    expect(reply.body.errors).toEqual([{ location: 'file', message: expect.stringMatching(/the uploaded file/) }]);
  });

  it('answers 413 for a file past AUDIO_FETCH_MAX_BYTES, sent with its length', async () => {
    const huge = path.join(scratch, 'huge.wav');
    await writeFile(huge, Buffer.alloc(MAX_BYTES + 2 * MB));
    const reply = await refusedLeavingNothing(() => upload({ title: 'Too large' }, { path: huge }));
    expect(reply.status).toBe(413);
    expect(reply.body.message).toMatch(new RegExp(`at most ${MAX_BYTES} bytes`));
  });

  it('answers 413 for a file that passes the limit while it streams, without a length', async () => {
    const reply = await refusedLeavingNothing(async () => {
      const response = await streamed(repeated(122, Buffer.alloc(MB, 1)));
      return { status: response.status, body: await response.json() };
    });
    expect(reply.status).toBe(413);
  });

  it('keeps nothing of an upload the client abandons half-way', async () => {
    const [items, files] = [await itemCount(), await uploadsKept()];
    await expect(streamed(repeated(40, Buffer.alloc(MB, 1)), { abortAfter: 20 })).rejects.toThrow();
    await expect.poll(uploadsKept, { timeout: 5_000 }).toEqual(files);
    expect(await itemCount()).toBe(items);
  });

  it('answers 400 for a malformed multipart body', async () => {
    const reply = await refusedLeavingNothing(async () => {
      const body = Buffer.concat([Buffer.from('--b0undary\r\nContent-Disposition: form-data; name="X'), Buffer.from([0x15, 0xf1, 0x97]), Buffer.from('"\r\n\r\nx\r\n--b0undary--\r\n')]);
      const response = await fetch(`${server.baseUrl}${UPLOAD}`, { method: 'POST', headers: { 'x-api-key': TEST_KEY, 'content-type': 'multipart/form-data; boundary=b0undary' }, body });
      return { status: response.status, body: await response.json() };
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/Malformed multipart body/);
  });

  it('answers 422 at `file` for a form without a file', async () => {
    const reply = await refusedLeavingNothing(() => upload({ title: 'No file' }));
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([{ location: 'file', message: 'is required: the audio, as a multipart file part named "file"' }]);
  });

  it('answers 422 at the field for a form field the create body refuses, keeping nothing of the file', async () => {
    const reply = await refusedLeavingNothing(() => upload({ title: 'Bad flag', published: 'maybe', source_id: 'upload-1' }, { path: path.join(scratch, 'interview.mp3') }));
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ location: 'published' })]));
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const hostile = await refusedLeavingNothing(() => upload({ title: 'Hostile\u0000', metadata: `{"a":${deep}}`, tags: '{"__proto__":{"x":1}}' }, { path: path.join(scratch, 'interview.mp3') }));
    expect(hostile.status).toBe(422);
    expect(hostile.body.errors).toEqual([{ location: expect.stringMatching(/^metadata\.a(\.0)+$/), message: 'must not nest more than 32 levels deep' }]);
    const poisoned = await refusedLeavingNothing(() => upload({ title: 'Hostile\u0000', tags: '{"__proto__":{"x":1}}' }, { path: path.join(scratch, 'interview.mp3') }));
    expect(poisoned.status).toBe(422);
    expect(poisoned.body.errors.map((error: any) => error.location).sort()).toEqual(['tags.__proto__', 'title']);
    const taken = await refusedLeavingNothing(() => upload({ title: 'Same source id', source_id: 'upload-1' }, { path: path.join(scratch, 'interview.mp3') }));
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual([{ location: 'source_id', message: 'has already been taken' }]);
  });

  it('answers 415 for a JSON body, 404 for a project out of reach', async () => {
    const json = await refusedLeavingNothing(async () => {
      const response = await fetch(`${server.baseUrl}${UPLOAD}`, { method: 'POST', headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'JSON', audio_url: 'https://example.com/a.mp3' }) });
      return { status: response.status, body: await response.json() };
    });
    expect(json.status).toBe(415);
    const missing = await refusedLeavingNothing(() => upload({ title: 'Elsewhere' }, { path: path.join(scratch, 'interview.mp3') }, '/v1/projects/999/content/upload'));
    expect(missing.status).toBe(404);
  });

  it('never takes the kept file from a client: `audio_file` in a body is ignored', async () => {
    const created = await upload({ title: 'Kept', audio_file: '../../../etc/passwd' }, { path: path.join(scratch, 'interview.mp3') });
    expect(created.status).toBe(201);
    const updated = await server.request('PUT', `/v1/projects/1/content/${created.body.id}`, { body: { audio_file: '../../../etc/passwd', title: 'Kept still' } });
    expect(updated.status).toBe(200);
    expect(updated.body.audio_url).toBe(created.body.audio_url);
    const item = await settled(server, created.body.id);
    expect(item.status, item.error).toBe('processed');
  });
});
