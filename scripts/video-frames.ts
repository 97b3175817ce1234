// Renders docs/video/<animation>.png: one frame per caption animation (classic, reveal, karaoke, pop) of the same
// sentence, spoken by espeak-ng, at the same word: `npm run docs:video-frames`.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEspeakEngine } from '../src/media/engines/espeak.ts';
import { defaultVideoSettings } from '../src/player/videoSettings.ts';
import { createVideoRenderer } from '../src/video/render.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'docs', 'video');
const TEXT = 'Every article becomes a captioned video, read aloud word by word.';
const animations = ['classic', 'reveal', 'karaoke', 'pop'] as const;

const dir = await mkdtemp(path.join(tmpdir(), 'video-frames-'));
try {
  await mkdir(OUT, { recursive: true });
  const spoken = await createEspeakEngine({ concurrency: 1, timeoutMs: 30_000 }).speak(TEXT, 'en-us', path.join(dir, 'speech.wav'));
  // The frame is taken in the middle of the seventh word ("aloud"): mid-sentence for reveal, karaoke and pop.
  const word = spoken.words[6]!;
  const limits = { maxBytes: 1, timeoutMs: 1, allowPrivate: false };
  const renderer = createVideoRenderer({ fontCacheDir: path.join(dir, 'fonts'), threads: 2, fonts: limits, images: limits });
  for (const animation of animations) {
    await renderer.render({
      audioPath: spoken.wavPath,
      durationMs: spoken.durationMs,
      segments: [{ content_type: 'text', section: null, text: TEXT, image_url: null, video_url: null, start_time: 0, duration: spoken.durationMs, words: spoken.words }],
      settings: {
        ...defaultVideoSettings,
        textAnimation: animation,
        backgroundColor: 'linear-gradient(to right, #1e3a8a, #7c3aed)',
        textHighlightBackgroundColor: animation === 'karaoke' ? 'rgba(250, 204, 21, 0.25)' : 'transparent',
        waveformColor: 'rgba(255, 255, 255, 0.5)',
      },
      featureImageUrl: null,
      language: 'en_US',
      size: { name: 'landscape', width: 854, height: 480 },
      outPath: path.join(dir, `${animation}.mp4`),
      posterPath: path.join(OUT, `${animation}.png`),
      posterAtMs: word.start_time + word.duration / 2,
    });
    console.log(`docs/video/${animation}.png`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
