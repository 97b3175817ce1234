import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from '../../src/media/errors.ts';
import { admitAudio, admitImage, sniffFile } from '../../src/media/intake.ts';
import { runTool } from '../../src/media/tool.ts';

// The intake reads picture sizes from headers itself: checked on real files made by ffmpeg,
// in every variant of each format it writes (lossy, lossless and alpha WebP, JPEG, GIF, PNG with alpha).
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'intake-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function make(name: string, args: string[]): Promise<string> {
  const file = path.join(dir, name);
  const run = await runTool('ffmpeg', ['-v', 'error', '-y', ...args, file]);
  expect(run.code, run.stderr).toBe(0);
  return file;
}

const picture = (size: string) => ['-f', 'lavfi', '-i', `testsrc=s=${size}`, '-frames:v', '1'];

describe('picture sizes from headers', () => {
  it.each([
    ['a.png', []],
    ['alpha.png', ['-pix_fmt', 'rgba']],
    ['a.jpg', []],
    ['yuv444.jpg', ['-pix_fmt', 'yuvj444p']],
    ['lossy.webp', ['-c:v', 'libwebp']],
    ['lossless.webp', ['-c:v', 'libwebp', '-lossless', '1']],
    ['alpha.webp', ['-c:v', 'libwebp', '-pix_fmt', 'yuva420p']],
    ['a.gif', []],
  ])('reads the size of %s', async (name, extra) => {
    const file = await make(name, [...picture('333x217'), ...extra]);
    await expect(admitImage(file, name)).resolves.toMatchObject({ width: 333, height: 217 });
  });

  it('refuses pictures over the pixel limit, whatever their format, without decoding them', async () => {
    for (const name of ['big.png', 'big.jpg', 'big.webp', 'big.gif']) {
      const file = await make(name, picture('1000x900'));
      await expect(admitImage(file, name, { maxPixels: 899_999 })).rejects.toMatchObject({ reason: 'over-limit', message: expect.stringContaining('1000×900 pixels') });
      await expect(admitImage(file, name, { maxPixels: 900_000 })).resolves.toMatchObject({ width: 1000 });
    }
  });
});

describe('formats from bytes', () => {
  it('skips an ID3 tag before mp3, and refuses a playlist behind one', async () => {
    const mp3 = await make('tagged.mp3', ['-f', 'lavfi', '-i', 'sine=duration=1', '-metadata', 'title=Tagged', '-id3v2_version', '3']);
    expect((await sniffFile(mp3))?.name).toBe('mp3');
    const tag = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0]);
    const hidden = path.join(dir, 'hidden.mp3');
    await writeFile(hidden, Buffer.concat([tag, Buffer.from('#EXTM3U\n#EXTINF:1,\n/etc/passwd\n')]));
    expect(await sniffFile(hidden)).toBeNull();
  });

  it('reads the length of audio from its header and refuses what is too long', async () => {
    const flac = await make('ten.flac', ['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '10']);
    await expect(admitAudio(flac, 'ten.flac', { maxDurationMs: 10_000, timeoutMs: 10_000 })).resolves.toMatchObject({ durationMs: 10_000 });
    const refused = await admitAudio(flac, 'ten.flac', { maxDurationMs: 5_000, timeoutMs: 10_000 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MediaError);
    expect(refused).toMatchObject({ reason: 'over-limit', message: 'ten.flac plays 10 s, longer than the 5 s allowed' });
  });
});
