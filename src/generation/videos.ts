// Renders an item's videos from its finished narration: one mp4 per (variant, size), a bounded number at once,
// stopped as soon as the item is deleted or its generation superseded.
import { setMaxListeners } from 'node:events';
import { rm } from 'node:fs/promises';
import { generationFetches } from '../media/fetches.ts';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure } from '@temporalio/common';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { allocateId, foldStream } from '../shared/decider.ts';
import { contentDecider } from '../content/decider.ts';
import { contentStream, type GeneratedMedia, type MediaFileRecord } from '../content/events.ts';
import { projectStream } from '../projects/events.ts';
import type { Limit } from '../media/limit.ts';
import type { RenderedVideo, TimedSegment, VideoRenderer } from '../video/port.ts';
import type { GenerationInput } from './lifecycle.ts';
import { contentSourceOf, type ContentSource } from './source.ts';
import { VideoRenderError } from '../video/errors.ts';
import { videoRequestsOf, videoSettingsOfItem, type VideoRequest } from './videoPlan.ts';

export interface VideoDeps {
  renderer: VideoRenderer;
  /** Shared by every generation of the process: renders are CPU-heavy, so only this many run at once. */
  limit: Limit;
  /**
   * Where each generation keeps the images its renders fetched (`<contentId>/<generation>/` under it), so a retried
   * render fetches none again; removed once its videos are rendered or refused for good.
   */
  fetchedDir?: string;
}

interface Context {
  events: EventStore;
  mediaDir: string;
  videos: VideoDeps;
  log?: (message: string) => void;
}

/** How often a render looks whether its item is still wanted. */
const WATCH_INTERVAL_MS = 500;

const stillWanted = async (events: EventStore, input: GenerationInput) => {
  const state = foldStream(contentDecider, await events.readStream(contentStream(input.contentId)));
  return state.status === 'active' && state.generation === input.generation;
};

/** Aborts `controller` once the item is deleted or a newer generation is asked for; ends with `until`. */
async function watchItem(events: EventStore, input: GenerationInput, controller: AbortController, until: AbortSignal) {
  while (!until.aborted && !controller.signal.aborted) {
    await sleep(WATCH_INTERVAL_MS, undefined, { signal: until }).catch(() => undefined);
    if (until.aborted) return;
    if (!(await stillWanted(events, input).catch(() => true))) controller.abort(ApplicationFailure.nonRetryable('the item was deleted or regenerated'));
  }
}

/** Stored segments time words from the start of the narration already, as the renderer wants them. */
const timedSegments = (segments: Record<string, unknown>[]): TimedSegment[] =>
  segments.map((segment) => ({
    content_type: String(segment.content_type ?? 'text'),
    section: (segment.section as string | null) ?? null,
    text: (segment.text as string | null) ?? null,
    image_url: (segment.image_url as string | null) ?? null,
    video_url: (segment.video_url as string | null) ?? null,
    start_time: Number(segment.start_time ?? 0),
    duration: Number(segment.duration ?? 0),
    words: (segment.words as TimedSegment['words'] | undefined) ?? [],
    video_settings: (segment.video_settings as TimedSegment['video_settings']) ?? null,
  }));

const languageOf = (segments: Record<string, unknown>[]) =>
  segments.map((segment) => (segment.language as { code?: string } | null)?.code).find(Boolean) ?? 'en_US';

/** The item's feature image, unless its own video settings turn it off. */
function featureImageOf(source: ContentSource): string | null {
  const feature = source.fields.featureImage;
  if (feature) return feature.video_settings?.enabled === false ? null : feature.url;
  return source.fields.imageUrl ?? null;
}

/** A file name for the size that is safe on disk and in a URL, unique by its index. */
const fileName = (request: VideoRequest, index: number) =>
  `${request.variant}-${request.size.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'video'}-${index + 1}.mp4`;

/** The local path of a file the generation wrote, from its `/media/...` URL. */
const localPath = (mediaDir: string, url: string) => path.join(mediaDir, url.slice('/media/'.length));

/**
 * The item's video files, rendered from the narration `media` holds. `signal` stops every render (workflow cancelled);
 * a deleted or superseded item stops them too, with a failure no retry repeats.
 */
export async function renderItemVideos(context: Context, input: GenerationInput, media: GeneratedMedia, signal?: AbortSignal): Promise<MediaFileRecord[]> {
  const { events, mediaDir, videos } = context;
  const source = contentSourceOf(await events.readStream(contentStream(input.contentId)));
  if (source.state.status !== 'active') throw ApplicationFailure.nonRetryable('the item was deleted');
  const settings = await videoSettingsOfItem(events, await events.readStream(projectStream(source.projectId)), source.fields.videoSettings);
  const narration = (variant: 'article' | 'summary') => media.audio.find((file) => file.variant === variant && file.content_type === 'audio/mpeg');
  const requests = videoRequestsOf(settings, narration('summary') !== undefined);
  if (requests.length === 0) return [];

  const stopped = new AbortController();
  const finished = new AbortController();
  const stop = AbortSignal.any([stopped.signal, ...(signal ? [signal] : [])]);
  // Every render of the item, and each of its downloads, listens to it.
  setMaxListeners(0, stop);
  void watchItem(events, input, stopped, finished.signal);
  // Beside the generation's narration, under the same URL folder.
  const folder = path.posix.dirname(narration('article')!.url);
  const names = requests.map(fileName);
  const downloads = videos.fetchedDir ? generationFetches(videos.fetchedDir, input.contentId, input.generation) : undefined;
  const fetchedDir = downloads?.dir;
  const forget = () => downloads?.forget() ?? Promise.resolve();
  const outPaths = names.map((name) => localPath(mediaDir, `${folder}/${name}`));
  const renderOne = (request: VideoRequest, index: number) =>
    videos.limit(async () => {
      stop.throwIfAborted();
      const audio = narration(request.variant)!;
      const segments = request.variant === 'article' ? media.segments : media.summarySegments;
      const result = await videos.renderer.render({
        audioPath: localPath(mediaDir, audio.url),
        durationMs: audio.duration,
        segments: timedSegments(segments),
        settings,
        featureImageUrl: featureImageOf(source),
        featureImageCrop: source.fields.featureImage?.video_settings?.crop_coordinates ?? null,
        featureVideo: source.fields.featureVideo ?? null,
        language: languageOf(segments),
        size: request.size,
        outPath: outPaths[index]!,
        signal: stop,
        ...(fetchedDir ? { fetchedDir } : {}),
      });
      context.log?.(`video ${path.basename(result.path)} of ${input.contentId} rendered with fonts ${result.fonts.join(', ') || 'none'}`);
      return result;
    });
  try {
    // One failed render stops the others, and every render has ended before its files are removed.
    const stopOthers = (error: unknown): never => {
      stopped.abort(error);
      throw error;
    };
    const settled = await Promise.allSettled(requests.map((request, index) => renderOne(request, index).catch(stopOthers)));
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) {
      await Promise.all(outPaths.map((file) => rm(file, { force: true })));
      // A render stopped because the item went away fails for good; one the workflow cancelled ends as Temporal says.
      const reason: unknown = signal?.aborted ? signal.reason : stopped.signal.reason;
      // The fetched images stay for the next try, unless there is none (src/generation/activities.ts).
      if (reason instanceof ApplicationFailure || (reason instanceof VideoRenderError && reason.reason === 'refused')) await forget();
      throw reason;
    }
    await forget();
    const records: MediaFileRecord[] = [];
    for (const [index, request] of requests.entries()) {
      const { durationMs } = (settled[index] as PromiseFulfilledResult<RenderedVideo>).value;
      const id = await allocateId(events, 'media');
      records.push({ id, content_type: 'video/mp4', url: `${folder}/${names[index]}`, duration: Math.round(durationMs), variant: request.variant, video_size: request.size });
    }
    return records;
  } finally {
    finished.abort();
  }
}
