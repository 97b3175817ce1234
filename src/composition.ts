// The composition root: turns configuration into adapters. Only main.ts and cli.ts call it.
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Config } from './config.ts';
import type { AudioFetchLimits } from './media/fetchAudio.ts';
import type { EventStore } from './infrastructure/eventStore/port.ts';
import type { ReadStore } from './infrastructure/readStore/port.ts';
import { createSqliteEventStore } from './infrastructure/eventStore/sqlite.ts';
import { createMemoryReadStore } from './infrastructure/readStore/memory.ts';
import { createSqliteReadStore } from './infrastructure/readStore/sqlite.ts';
import { CONTENT_ITEMS } from './content/readModel.ts';
import { createInProcessRunner } from './infrastructure/workflows/inProcess.ts';
import type { WorkflowRunner } from './infrastructure/workflows/port.ts';
import { createGenerationActivities } from './generation/activities.ts';
import { createSynthesizer, SAMPLE_RATE } from './media/synthesizer.ts';
import { createEspeakEngine } from './media/engines/espeak.ts';
import { createKokoroEngine } from './media/engines/kokoro.ts';
import { createPicoEngine } from './media/engines/pico.ts';
import { createRhvoiceEngine } from './media/engines/rhvoice.ts';
import { createPiperEngine } from './media/engines/piper.ts';
import { createDeliveryActivities } from './webhooks/activities.ts';
import { createLimit } from './media/limit.ts';
import { createFetchLimits, type FetchLimits } from './media/fetches.ts';
import { createVideoRenderer } from './video/render.ts';
import type { DeliveryRetryPolicy } from './webhooks/delivery.ts';
import { routedSummarizer, type Summarizer } from './infrastructure/summarizer/port.ts';
import { createExtractiveSummarizer } from './infrastructure/summarizer/extractive.ts';
import { createOpenAiCompatibleSummarizer } from './infrastructure/summarizer/openaiCompatible.ts';
import { loadVoiceCatalogue as loadCatalogue, type VoiceCatalogue } from './voices/catalogue.ts';
import { createContentHandlers } from './content/handlers.ts';
import { createFeedImportActivities } from './feedImports/activities.ts';
import { createFeedRunner } from './feedImports/run.ts';
import { createPageRenderer } from './extraction/browser.ts';
import type { ExtractionStepDeps } from './extraction/activity.ts';
import { enabledFiltersOfProject } from './contentFilters/projectFilters.ts';

export interface Infrastructure {
  events: EventStore;
  read: ReadStore;
  /** True when the read models live in this process and are rebuilt from the log at every start. */
  readModelsInProcess: boolean;
  close(): Promise<void>;
}

// The production adapters are imported only when their server is configured: their client libraries take about
// two seconds to load on a busy machine, which the embedded default would otherwise pay at every start.

export async function openEventStore(config: Config): Promise<EventStore> {
  mkdirSync(config.DATA_DIR, { recursive: true });
  if (!config.EVENTSTORE_URL) return createSqliteEventStore(path.join(config.DATA_DIR, 'events.sqlite'));
  const { createEventStoreDbEventStore } = await import('./infrastructure/eventStore/eventstoredb.ts');
  return createEventStoreDbEventStore(config.EVENTSTORE_URL);
}

/** The word text the content list's `filter[title]` and `filter[body]` search (src/content/search.ts): the SQLite store keeps a word index of each. */
export const searchedFields = (collection: string): readonly string[] => (collection === CONTENT_ITEMS ? ['searchText.title', 'searchText.body'] : []);

/** MongoDB when MONGODB_URL is set; else SQLite tables in DATA_DIR, or memory with READ_STORE=memory. */
export async function openReadStore(config: Config): Promise<ReadStore> {
  if (config.MONGODB_URL) {
    const { createMongoReadStore } = await import('./infrastructure/readStore/mongo.ts');
    return createMongoReadStore(config.MONGODB_URL);
  }
  if (config.READ_STORE === 'memory') return createMemoryReadStore();
  mkdirSync(config.DATA_DIR, { recursive: true });
  return createSqliteReadStore(path.join(config.DATA_DIR, 'read.sqlite'), { searchedFields });
}

export async function openInfrastructure(config: Config): Promise<Infrastructure> {
  const [events, read] = await Promise.all([openEventStore(config), openReadStore(config)]);
  return {
    events,
    read,
    readModelsInProcess: !config.MONGODB_URL && config.READ_STORE === 'memory',
    async close() {
      await read.close();
      await events.close();
    },
  };
}

export const mediaDirOf = (config: Config) => path.join(config.DATA_DIR, 'media');

const piperPythonOf = (config: Config) => path.join(config.PIPER_VENV, 'bin', 'python');

/** The voices this process can speak with: espeak-ng's, and Piper's and Kokoro's when their virtual environments have them. */
export const loadVoiceCatalogue = (config: Config, log: (message: string) => void) =>
  loadCatalogue({ piperPython: piperPythonOf(config), kokoroVenv: config.KOKORO_VENV, log });

/**
 * A neural engine's worker pool (or Pico, RHVoice) only when the catalogue offers one of its voices; espeak-ng always. With `warmUp`
 * (a process that generates), when the default voice is Piper's, its workers start and load it now, so that the
 * first item does not wait for the model (1.5 to 2 s) before its first words.
 */
export function synthesizerOf(config: Config, voices: VoiceCatalogue, warmUp?: { log: (message: string) => void }) {
  const timeoutMs = config.SYNTHESIS_TIMEOUT_MS;
  const espeak = createEspeakEngine({ concurrency: config.SYNTHESIS_CONCURRENCY, timeoutMs });
  const offers = (engine: string) => voices.voices.some((voice) => voice.engine === engine);
  const piper = offers('piper')
    ? createPiperEngine({
        python: piperPythonOf(config),
        workers: config.PIPER_WORKERS,
        threads: Math.max(1, Math.floor(availableParallelism() / config.PIPER_WORKERS)),
        timeoutMs,
        maxRssMb: config.PIPER_WORKER_MAX_RSS_MB,
        seed: config.SPEECH_SEED,
      })
    : undefined;
  const kokoro = offers('kokoro')
    ? createKokoroEngine({ venv: config.KOKORO_VENV, workers: config.KOKORO_WORKERS, timeoutMs, maxRssMb: config.KOKORO_WORKER_MAX_RSS_MB })
    : undefined;
  const preferred = voices.defaultFor('en');
  if (warmUp && piper && preferred?.engine === 'piper') {
    const started = Date.now();
    const workers = config.PIPER_WORKERS;
    warmUp.log(`speech: warming ${workers} Piper worker(s) for the default voice ${preferred.name} (${preferred.language.code})`);
    Promise.all(Array.from({ length: workers }, () => piper.warm(preferred.engineVoice))).then(
      () => warmUp.log(`speech: ${workers} Piper worker(s) ready with ${preferred.name} in ${Date.now() - started} ms`),
      (error: unknown) => warmUp.log(`speech: a Piper worker could not load ${preferred.name} (${String(error)}); items start their own`),
    );
  }
  const concurrency = config.SYNTHESIS_CONCURRENCY;
  const pico = offers('pico') ? createPicoEngine({ concurrency, timeoutMs, espeak }) : undefined;
  const rhvoice = offers('rhvoice') ? createRhvoiceEngine({ concurrency, timeoutMs }) : undefined;
  return createSynthesizer({ espeak, piper, kokoro, pico, rhvoice });
}

/** How pre-recorded audio (segments, background tracks) is fetched: size, time and address limits. */
export const audioLimitsOf = (config: Config): AudioFetchLimits => ({
  maxBytes: config.AUDIO_FETCH_MAX_BYTES,
  timeoutMs: config.AUDIO_FETCH_TIMEOUT_MS,
  allowPrivate: config.FETCH_ALLOW_PRIVATE,
  maxDurationMs: config.AUDIO_MAX_DURATION_S * 1000,
});

/** The video renderer: fonts and images fetched under the same address, size and time rules as audio. */
export function videoRendererOf(config: Config) {
  const fetchLimits = { maxBytes: 20 * 1024 * 1024, timeoutMs: config.AUDIO_FETCH_TIMEOUT_MS, allowPrivate: config.FETCH_ALLOW_PRIVATE, maxPixels: config.IMAGE_MAX_PIXELS };
  const fontCacheDir = path.join(config.DATA_DIR, 'fonts');
  mkdirSync(fontCacheDir, { recursive: true });
  return createVideoRenderer({
    fontCacheDir,
    threads: config.VIDEO_RENDER_THREADS,
    maxRssBytes: config.VIDEO_RENDER_MAX_RSS_MB * 1024 * 1024,
    fonts: fetchLimits,
    images: fetchLimits,
    fetches: fetchLimitsOf(config),
  });
}

/** One bound of media fetches for the whole process (MEDIA_FETCH_CONCURRENCY), shared by renders and generations. */
const fetchLimitsByConfig = new WeakMap<Config, FetchLimits>();
export function fetchLimitsOf(config: Config): FetchLimits {
  let limits = fetchLimitsByConfig.get(config);
  if (!limits) fetchLimitsByConfig.set(config, (limits = createFetchLimits(config.MEDIA_FETCH_CONCURRENCY)));
  return limits;
}

/**
 * Extraction of pages for items created from a `source_url`: limits, the browser pool, and the project's content
 * filters from the read store (a worker without one extracts without filters).
 */
export function extractionOf(config: Config, events: EventStore): ExtractionStepDeps {
  return {
    limits: { maxBytes: config.EXTRACTION_MAX_BYTES, timeoutMs: config.EXTRACTION_TIMEOUT_MS, allowPrivate: config.FETCH_ALLOW_PRIVATE },
    renderer: createPageRenderer({ concurrency: config.EXTRACTION_BROWSER_CONCURRENCY }),
    // From the event store, as posted bodies' filters are: every process that generates has it, not every one a read store.
    filtersOf: (projectId) => enabledFiltersOfProject(events, projectId),
  };
}

/** The generation activities with their real dependencies (Piper, Kokoro, espeak-ng, ffmpeg, the event store). */
export function generationActivities(config: Config, events: EventStore, voices: VoiceCatalogue, log?: (message: string) => void) {
  return createGenerationActivities({
    extraction: extractionOf(config, events),
    events,
    voices,
    mediaDir: mediaDirOf(config),
    // In-process generation only runs when enabled; a Temporal worker (TEMPORAL_ADDRESS) always generates.
    synthesizer: synthesizerOf(config, voices, log && (config.GENERATION_ENABLED || config.TEMPORAL_ADDRESS) ? { log } : undefined),
    sampleRate: SAMPLE_RATE,
    audioLimits: audioLimitsOf(config),
    fetches: fetchLimitsOf(config),
    videos: { renderer: videoRendererOf(config), limit: createLimit(config.VIDEO_RENDER_CONCURRENCY), fetchedDir: path.join(config.DATA_DIR, 'fetched') },
    summarizer: summarizerOf(config),
    now: () => new Date(),
    log,
  });
}

/** What sending a webhook notification needs from the configuration. */
export const webhookSettingsOf = (config: Config) => ({ allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE, timeoutMs: config.WEBHOOK_TIMEOUT_MS });

export const deliveryRetryOf = (config: Config): DeliveryRetryPolicy => ({
  initialMs: config.WEBHOOK_RETRY_INITIAL_MS,
  maxMs: config.WEBHOOK_RETRY_MAX_MS,
  windowMs: config.WEBHOOK_RETRY_WINDOW_MS,
});

/** The webhook delivery activities: signed POSTs to receivers, each attempt recorded in the event store. */
export function deliveryActivities(config: Config, events: EventStore) {
  return createDeliveryActivities({ events, ...webhookSettingsOf(config), now: () => new Date() });
}

/** Temporal when TEMPORAL_ADDRESS is set (a worker process runs the activities), else the in-process runner. */
export async function openWorkflowRunner(config: Config, events: EventStore, voices: VoiceCatalogue, log: (message: string) => void, read?: ReadStore): Promise<WorkflowRunner> {
  if (config.TEMPORAL_ADDRESS) {
    const { createTemporalRunner } = await import('./infrastructure/workflows/temporal.ts');
    return createTemporalRunner(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, config.TEMPORAL_TASK_QUEUE);
  }
  return createInProcessRunner(generationActivities(config, events, voices, log), deliveryActivities(config, events), log, {
    interactive: config.GENERATION_CONCURRENCY,
    bulk: config.GENERATION_BULK_CONCURRENCY,
  });
}


/** How feeds are fetched: size, time and address limits. */
export const feedLimitsOf = (config: Config) => ({ maxBytes: config.FEED_MAX_BYTES, timeoutMs: config.FEED_FETCH_TIMEOUT_MS, allowPrivate: config.FETCH_ALLOW_PRIVATE });

/** Runs feed imports with the content commands of the REST API. */
export const feedRunnerOf = (config: Config, events: EventStore, read: ReadStore, voices: VoiceCatalogue) =>
  createFeedRunner({ events, read, content: createContentHandlers(events, voices), limits: feedLimitsOf(config), now: () => new Date() });

/** The activity the Temporal schedule of feed imports fires (src/feedImports/temporalSchedule.ts). */
export function feedImportActivities(config: Config, { events, read }: Pick<Infrastructure, 'events' | 'read'>, voices: VoiceCatalogue, log: (message: string) => void) {
  return createFeedImportActivities({
    events,
    read,
    content: createContentHandlers(events, voices),
    limits: feedLimitsOf(config),
    now: () => new Date(),
    intervalMs: config.FEED_IMPORT_INTERVAL_S * 1000,
    log,
  });
}

/** Extractive summaries always; with SUMMARIZER_URL, the configured OpenAI-compatible model too, and by default. */
export function summarizerOf(config: Config): Summarizer {
  const extractive = createExtractiveSummarizer();
  if (!config.SUMMARIZER_URL || !config.SUMMARIZER_MODEL) return routedSummarizer(extractive);
  const generative = createOpenAiCompatibleSummarizer({
    url: config.SUMMARIZER_URL,
    model: config.SUMMARIZER_MODEL,
    apiKey: config.SUMMARIZER_API_KEY,
    timeoutMs: config.SUMMARIZER_TIMEOUT_MS,
  });
  return routedSummarizer(extractive, generative);
}
