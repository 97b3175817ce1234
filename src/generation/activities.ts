// The generation activities: every effect of the lifecycle, built from their dependencies.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { allocateId, handleCommand } from '../shared/decider.ts';
import { contentDecider, type ContentCommand } from '../content/decider.ts';
import { contentStream, type GeneratedMedia, type MediaFileRecord } from '../content/events.ts';
import { projectStream } from '../projects/events.ts';
import type { VoiceCatalogue } from '../voices/catalogue.ts';
import { projectCatalogue } from '../voices/custom.ts';
import type { GenerationActivities, GenerationInput } from './lifecycle.ts';
import { NoVoiceError, planGeneration } from './plan.ts';
import { renderVariant, type RenderDeps, type RenderedVariant } from './render.ts';
import { contentSourceOf, projectSettingsOf } from './source.ts';
import { MediaError, type MediaFailure } from '../media/errors.ts';
import { scopeRulesOf } from '../pronunciation/apply.ts';
import { enabledFiltersOfProject } from '../contentFilters/projectFilters.ts';
import { fetchIntroOutro, loadMusic, productionOf, renderWithIntroOutro } from './production.ts';
import { renderItemVideos, type VideoDeps } from './videos.ts';
import { VideoRenderError } from '../video/errors.ts';
import { fetchedFiles, generationFetches, type FetchLimits } from '../media/fetches.ts';
import { extractForItem, needsExtraction, type ExtractionStepDeps } from '../extraction/activity.ts';
import type { Summarizer } from '../infrastructure/summarizer/port.ts';
import { withCurrentSummary } from '../summaries/refresh.ts';

/** Failures no retry can change: the URL is malformed, or the outbound address rule refused it or a redirect. */
const PERMANENT_MEDIA_FAILURES = new Set<MediaFailure>(['bad-url', 'refused', 'redirects', 'unsupported-format', 'over-limit']);
const HLS = 'application/x-mpegURL';
/** Audio a generation works with that is not media: removed once the media exist. */
const SCRATCH_AUDIO = ['music.wav', 'intro.wav', 'outro.wav', 'article-timeline.wav'];

export interface GenerationDeps extends RenderDeps {
  /** Fetches at once per process and per item (src/media/fetches.ts). */
  fetches?: FetchLimits;
  events: EventStore;
  voices: VoiceCatalogue;
  /** Where media files are written; they are served under /media/. */
  mediaDir: string;
  videos: VideoDeps;
  /** Pages of items created from a `source_url` (src/extraction/); absent, such items are skipped for lack of text. */
  extraction?: ExtractionStepDeps;
  /** Makes the AI script summaries an item is due (src/summaries/refresh.ts); none are made without it. */
  summarizer?: Summarizer;
  now: () => Date;
  log?: (message: string) => void;
}

/** The plan, or a failure no retry mends: a text whose language no installed voice reads. */
function planOrRefuse(...args: Parameters<typeof planGeneration>) {
  try {
    return planGeneration(...args);
  } catch (error) {
    if (error instanceof NoVoiceError) throw ApplicationFailure.nonRetryable(error.message);
    throw error;
  }
}

/** Inside a Temporal activity, tells the server this worker is alive; elsewhere there is no one to tell. */
function heartbeat() {
  try {
    Context.current().heartbeat();
  } catch {
    // not running as a Temporal activity (the in-process runner)
  }
}

/** Inside a Temporal activity, aborted when the workflow is cancelled (heartbeats carry the news); elsewhere none. */
function cancellation(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined;
  }
}

export const mediaPath = (input: GenerationInput) => `${input.contentId}/${input.generation}`;

export function createGenerationActivities(deps: GenerationDeps): GenerationActivities {
  const decide = (input: GenerationInput, command: ContentCommand) => handleCommand(deps.events, contentStream(input.contentId), contentDecider, command);
  const now = () => deps.now().toISOString();

  const url = (input: GenerationInput, file: string) => `/media/${mediaPath(input)}/${path.basename(file)}`;
  /** `hlsId`: the id the growing playlist was announced with, if it was. */
  const files = async (input: GenerationInput, variant: 'article' | 'summary', rendered: Pick<RenderedVariant, 'mp3Path' | 'hlsPlaylistPath' | 'durationMs'>, hlsId?: number): Promise<MediaFileRecord[]> => {
    const duration = rendered.durationMs;
    return [
      { id: await allocateId(deps.events, 'media'), content_type: 'audio/mpeg', url: url(input, rendered.mp3Path), duration, variant },
      { id: hlsId ?? (await allocateId(deps.events, 'media')), content_type: HLS, url: url(input, rendered.hlsPlaylistPath), duration, variant },
    ];
  };

  return {
    async startProcessing(input) {
      const { state } = await decide(input, { kind: 'StartProcessing', generation: input.generation, now: now() });
      return state.status === 'active' && state.generation === input.generation && state.generationStatus === 'processing';
    },

    async generateMedia(input) {
      let contentEvents = await deps.events.readStream(contentStream(input.contentId));
      let current = contentSourceOf(contentEvents);
      if (current.state.status !== 'active') throw ApplicationFailure.nonRetryable('the item was deleted');
      const projectEvents = await deps.events.readStream(projectStream(current.projectId));
      // The page is extracted, then a summary due is made of its text (a page rendered with JavaScript and a generative
      // summarizer may each take up to their time limits): Temporal hears the worker meanwhile.
      const preparing = setInterval(heartbeat, 2_000);
      const source = await (async () => {
        if (deps.extraction && needsExtraction(current, input.generation)) {
          const { url, fields } = await extractForItem(current, projectEvents, deps.extraction);
          await decide(input, { kind: 'RecordExtraction', generation: input.generation, url, fields, now: now() });
          contentEvents = await deps.events.readStream(contentStream(input.contentId));
          current = contentSourceOf(contentEvents);
        }
        return withCurrentSummary(deps, input.contentId, contentEvents, current);
      })().finally(() => clearInterval(preparing));
      const project = projectSettingsOf(projectEvents);
      // The filters as they are now: one added after the item was created applies at its next generation.
      const filters = await enabledFiltersOfProject(deps.events, source.projectId);
      const plan = planOrRefuse(source, project, await projectCatalogue(deps.events, deps.voices, projectEvents), filters);
      if (!plan.article.some((segment) => segment.content_type === 'text' || segment.content_type === 'audio')) {
        return { kind: 'nothing', reason: 'there is no text or audio to narrate' };
      }
      const dir = path.join(deps.mediaDir, mediaPath(input));
      // A retried attempt starts from a clean folder, so files of a killed attempt never mix in.
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      const pauses = { afterTitleMs: project.pauseAfterTitleSegmentsSeconds * 1000, afterSegmentMs: project.pauseAfterSegmentsSeconds * 1000 };
      const fetchLimit = deps.fetches?.forItem();
      // Downloads are kept beside the videos' until the generation is done, so a retried attempt fetches nothing again.
      const downloads = deps.videos.fetchedDir ? generationFetches(deps.videos.fetchedDir, input.contentId, input.generation, 'audio') : undefined;
      const fetched = downloads ? fetchedFiles(downloads.dir) : undefined;
      const forget = () => downloads?.forget() ?? Promise.resolve();
      const rendering = { ...deps, lane: input.lane, fetchLimit, fetched, rules: await scopeRulesOf(deps.events, projectEvents, { projectId: source.projectId, contentId: input.contentId }) };
      // The article's playlist is announced once per generation (the decider refuses a second time), and its id is
      // kept in the completed set: a retried attempt, which renders again from a clean folder, finds the id announced
      // and writes the playlist again under the same URL; an attempt that loses the race to announce takes the winner's.
      const announced = source.state.generation === input.generation ? source.state.liveAudio : null;
      let hlsId = announced?.id ?? (await allocateId(deps.events, 'media'));
      const onListenable = async () => {
        const media: MediaFileRecord = { id: hlsId, content_type: HLS, url: url(input, 'article.m3u8'), duration: 0, variant: 'article' };
        const { state } = await decide(input, { kind: 'StartStream', generation: input.generation, media, now: now() });
        if (state.generation === input.generation && state.liveAudio) hlsId = state.liveAudio.id;
      };
      const production = await productionOf(deps.events, source, project, projectEvents);
      // The track, the intro and the outro are fetched while the first sentences are spoken; the assembler waits for
      // the track before its first part.
      const music = production.track ? loadMusic(production.track, dir, { ...deps, fetchLimit, fetched }) : undefined;
      music?.catch(() => undefined);
      const introOutro = production.intro || production.outro ? fetchIntroOutro(production, dir, { ...deps, fetchLimit, fetched }) : undefined;
      introOutro?.catch(() => undefined);
      const timelineWavPath = introOutro ? path.join(dir, 'article-timeline.wav') : undefined;
      const beating = setInterval(heartbeat, 2_000);
      try {
        const article = await renderVariant(plan.article, dir, 'article', pauses, rendering, now(), { onListenable, music, timelineWavPath });
        const summary = plan.summary.length > 0 ? await renderVariant(plan.summary, dir, 'summary', pauses, rendering, now(), { music }) : null;
        const bookended = introOutro && timelineWavPath ? await renderWithIntroOutro(timelineWavPath, await introOutro, dir) : null;
        await Promise.all(SCRATCH_AUDIO.map((file) => rm(path.join(dir, file), { force: true })));
        const audio = [...(await files(input, 'article', article, hlsId)), ...(summary ? await files(input, 'summary', summary) : [])];
        const audioWithIntroOutro = bookended ? await files(input, 'article', { ...bookended, durationMs: Math.round(bookended.durationMs) }) : [];
        const media: GeneratedMedia = { audio, video: [], audioWithIntroOutro, segments: article.segments, summarySegments: summary?.segments ?? [], duration: article.durationMs };
        await forget();
        return { kind: 'media', media, published: source.fields.published ?? project.autoPublishEnabled };
      } catch (error) {
        // A failed attempt leaves no files behind; a fetch the address rule refused fails the same way every time.
        await rm(dir, { recursive: true, force: true });
        if (error instanceof MediaError && PERMANENT_MEDIA_FAILURES.has(error.reason)) {
          await forget();
          throw ApplicationFailure.nonRetryable(error.message);
        }
        throw error;
      } finally {
        clearInterval(beating);
      }
    },

    async renderVideos(input, media) {
      const beating = setInterval(heartbeat, 2_000);
      try {
        return await renderItemVideos(deps, input, media, cancellation());
      } catch (error) {
        // An image, video or font the media intake refused is refused again on every try.
        if (error instanceof VideoRenderError && error.reason === 'refused') throw ApplicationFailure.nonRetryable(error.message);
        throw error;
      } finally {
        clearInterval(beating);
      }
    },

    async recordProcessed(input, media, published) {
      // Like `published`: the item's own choice, else the project's auto_video_publish_enabled, for video it has.
      const source = contentSourceOf(await deps.events.readStream(contentStream(input.contentId)));
      const project = projectSettingsOf(await deps.events.readStream(projectStream(source.projectId)));
      const videoPublished = source.fields.videoPublished ?? (project.autoVideoPublishEnabled && media.video.length > 0);
      await decide(input, { kind: 'CompleteProcessing', generation: input.generation, media, published, videoPublished, now: now() });
    },
    async recordSkipped(input, reason) {
      await decide(input, { kind: 'SkipProcessing', generation: input.generation, reason, now: now() });
    },
    async recordFailed(input, reason) {
      await decide(input, { kind: 'FailProcessing', generation: input.generation, reason, now: now() });
    },
  };
}
