// The video renderer: one ffmpeg process per render draws the background, images, waveform, logo and the captions
// (an ASS script drawn by libass) over the narration, and encodes H.264 + AAC with the index at the front.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { textMeasure } from './boxes.ts';
import { captionScript, roundedBoxes } from './captions.ts';
import { clipSources, fetchClip } from './clips.ts';
import { runFfmpeg, type FfmpegOptions, type FfmpegRun } from './ffmpeg.ts';
import { chosenFonts, resolveFonts, scriptFonts, type FontLimits } from './fonts.ts';
import { composition, joinParts, partsList, type CompositionAssets, type EncodingOptions, type Span } from './composition.ts';
import type { FetchedImage, ImageLimits } from './images.ts';
import { admitted, download } from './assets.ts';
import { admitImage, inputOptions } from '../media/intake.ts';
import { createFetchLimits, DEFAULT_MEDIA_FETCH_CONCURRENCY, fetchedFiles, type FetchLimits } from '../media/fetches.ts';
import { imageSlots } from './slots.ts';
import type { RenderedVideo, VideoRenderer, VideoRenderRequest } from './port.ts';

export interface VideoRendererOptions {
  /** Where fonts fetched from `text_fonts` URLs are kept between renders. */
  fontCacheDir: string;
  /**
   * The cores one render may take: a long video is rendered in this many parts at once, each one ffmpeg process
   * with one encoder thread (ffmpeg draws a picture's layers on one thread, so one process alone keeps two cores
   * about three-quarters busy); a short one, or one with videos in it, is one process with this many encoder threads.
   */
  threads: number;
  /** x264 preset, `veryfast` by default: `superfast` saves a tenth of the time for files twice the size at the same CRF. */
  preset?: string;
  /** Frames per second of the video. */
  fps?: number;
  /** The resident memory one ffmpeg process may use (each part of a split render has this bound). */
  maxRssBytes?: number;
  /** The time limit of one render: a fixed part plus a share of the narration's length. */
  timeout?: { baseMs: number; perAudioMs: number };
  fonts: FontLimits;
  images: ImageLimits;
  /**
   * How many images and videos are fetched at once, per render and per process (src/media/fetches.ts); the service
   * shares one bound with its generations, a renderer alone has its own.
   */
  fetches?: FetchLimits;
}

export interface RenderedVideoDetails extends RenderedVideo {
  /** ffmpeg's resident-memory high-water mark, in bytes. */
  peakMemoryBytes: number;
  /** Wall-clock time of the ffmpeg process, in milliseconds. */
  renderMs: number;
}

/** The narration's share of the time limit is for frames of this many pixels; larger frames get as much more. */
const TIMED_PIXELS = 1280 * 720;

/** Each part of a split render lasts at least this long: below it, starting another process costs more than it saves. */
const MIN_PART_MS = 15_000;

/** The parts of a render, split at frame boundaries; one span for the whole video when it is not split. */
export function renderSpans(durationMs: number, fps: number, cores: number, hasClips: boolean): Span[] {
  const parts = hasClips ? 1 : Math.max(1, Math.min(cores, Math.floor(durationMs / MIN_PART_MS)));
  const frames = Math.round((durationMs * fps) / 1000);
  const boundary = (part: number) => (part === parts ? durationMs : (Math.round((frames * part) / parts) * 1000) / fps);
  return Array.from({ length: parts }, (_, part) => ({ fromMs: boundary(part), toMs: boundary(part + 1) }));
}

/**
 * Renders the parts at once and joins them; stops the others as soon as one fails. The peak memory is the sum of
 * the parts' (they run together).
 */
async function renderInParts(request: VideoRenderRequest, assets: CompositionAssets, encoding: EncodingOptions, spans: Span[], limits: Omit<FfmpegOptions, 'signal'>): Promise<FfmpegRun> {
  const stop = new AbortController();
  const stopAll = () => stop.abort();
  // A signal aborted already (while the assets were fetched) fires no more 'abort' events.
  if (request.signal?.aborted) stopAll();
  request.signal?.addEventListener('abort', stopAll, { once: true });
  try {
    const files = spans.map((_, part) => `part-${part}.mp4`);
    const runs = await Promise.all(
      spans.map((span, part) =>
        runFfmpeg(composition({ ...request, outPath: files[part]! }, assets, { ...encoding, threads: 1 }, span), { ...limits, signal: stop.signal }).catch((error: unknown) => {
          stop.abort();
          throw error;
        }),
      ),
    );
    await writeFile(path.join(limits.cwd, 'parts.txt'), partsList(files));
    const joined = await runFfmpeg(joinParts(request), { ...limits, signal: request.signal });
    return { stderr: runs.map((run) => run.stderr).join('\n'), peakMemoryBytes: Math.max(joined.peakMemoryBytes, runs.reduce((sum, run) => sum + run.peakMemoryBytes, 0)) };
  } finally {
    request.signal?.removeEventListener('abort', stopAll);
  }
}

async function posterFrame(request: VideoRenderRequest, work: string): Promise<void> {
  const at = Math.min(request.posterAtMs ?? request.durationMs / 2, Math.max(0, request.durationMs - 100));
  const args = ['-nostdin', '-v', 'error', '-y', '-ss', (at / 1000).toFixed(3), '-i', path.resolve(request.outPath), '-frames:v', '1', '-update', '1', path.resolve(request.posterPath!)];
  await runFfmpeg(args, { cwd: work, timeoutMs: 15_000, signal: request.signal });
}

/** An image fetched once per URL into `fetched` (src/video/images.ts's steps), admitted from its header each time. */
async function fetchImage(url: string, fetched: ReturnType<typeof fetchedFiles>, limits: ImageLimits, signal?: AbortSignal): Promise<FetchedImage> {
  const file = await fetched.once(url, (target) => download(url, target, limits, signal));
  const image = await admitted(url, file, () => admitImage(file, url, { maxPixels: limits.maxPixels }));
  return { path: file, width: image.width, height: image.height, inputOptions: inputOptions(image.format), format: image.format };
}

/** A VideoRenderer whose answers also say how long ffmpeg took and how much memory it used. */
export interface MeasuredVideoRenderer extends VideoRenderer {
  render(request: VideoRenderRequest): Promise<RenderedVideoDetails>;
}

export function createVideoRenderer(options: VideoRendererOptions): MeasuredVideoRenderer {
  const fps = options.fps ?? 25;
  const timeout = options.timeout ?? { baseMs: 30_000, perAudioMs: 1 };
  const fetches = options.fetches ?? createFetchLimits(DEFAULT_MEDIA_FETCH_CONCURRENCY);
  return {
    async render(request) {
      const work = await mkdtemp(path.join(tmpdir(), 'video-'));
      try {
        const { settings, size } = request;
        const fonts = await resolveFonts(settings.textFonts, options.fontCacheDir, options.fonts, request.signal);
        const slots = imageSlots(request);
        // Images and videos come from the request's fetch folder when a try before this one fetched them.
        const fetched = fetchedFiles(request.fetchedDir ?? path.join(work, 'fetched'));
        const bounded = fetches.forItem();
        const image = (url: string) => bounded(() => fetchImage(url, fetched, options.images, request.signal));
        const images = await Promise.all(slots.images.map(async ({ url, crop }) => ({ ...(await image(url)), crop })));
        const sources = clipSources(request);
        const clips = await Promise.all(
          sources.map((source, index) =>
            bounded(() => fetchClip(source, sources[index + 1], request.durationMs, fetched, options.images, request.signal)),
          ),
        );
        const logo = settings.logoImageUrl ? await image(settings.logoImageUrl) : null;
        const captions = settings.textCaptionsEnabled && request.segments.some((segment) => segment.words.length > 0);
        if (captions) {
          const words = request.segments.flatMap((segment) => segment.words.map((word) => word.text));
          const fontFor = await scriptFonts(fonts.fonts, words, request.language);
          const families = [fonts.family, ...words.map((word) => fontFor(word) ?? fonts.family)];
          const measure = roundedBoxes(settings) ? await textMeasure(families, options.fontCacheDir) : undefined;
          const script = captionScript({ ...request, width: size.width, height: size.height, fontFamily: fonts.family, fontFor, measure });
          await writeFile(path.join(work, 'captions.ass'), script);
        }
        // A link keeps the fonts directory's path out of the filter graph's quoting rules.
        await mkdir(options.fontCacheDir, { recursive: true });
        await symlink(path.resolve(options.fontCacheDir), path.join(work, 'fonts'));
        const assets: CompositionAssets = { images, slots: slots.slots, clips, logo, captions, fontsDir: 'fonts' };
        await mkdir(path.dirname(path.resolve(request.outPath)), { recursive: true });
        const target = { ...request, outPath: path.resolve(request.outPath) };
        const encoding = { fps, threads: options.threads, preset: options.preset ?? 'veryfast' };
        const largeness = Math.max(1, (size.width * size.height) / TIMED_PIXELS);
        const limits = { cwd: work, timeoutMs: timeout.baseMs + timeout.perAudioMs * request.durationMs * largeness, maxRssBytes: options.maxRssBytes };
        const spans = renderSpans(request.durationMs, fps, options.threads, clips.length > 0);
        const started = performance.now();
        const run =
          spans.length > 1
            ? await renderInParts(target, assets, encoding, spans, limits)
            : await runFfmpeg(composition(target, assets, encoding), { ...limits, signal: request.signal });
        // The poster is read back from the mp4: a second output of the render's own graph can stall ffmpeg 5's scheduler.
        if (request.posterPath) await posterFrame(request, work);
        return {
          path: request.outPath,
          durationMs: request.durationMs,
          width: size.width,
          height: size.height,
          fonts: captions ? chosenFonts(run.stderr) : [],
          peakMemoryBytes: run.peakMemoryBytes,
          renderMs: Math.round(performance.now() - started),
        };
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  };
}
