// Configuration: every setting comes from an environment variable, validated once at start-up.
import path from 'node:path';
import { z } from 'zod';
import { logLevels } from './logging.ts';
import { DEFAULT_MEDIA_FETCH_CONCURRENCY } from './media/fetches.ts';

const optionalUrl = (protocols: RegExp) =>
  z
    .string()
    .trim()
    .transform((value) => (value === '' ? undefined : value))
    .optional()
    .refine((value) => value === undefined || protocols.test(value), {
      message: `must be a URL starting with ${protocols.source.replace(/[\^\\()]/g, '').replace('|', ' or ')}`,
    });

/** The venvs setup installs sit beside its tools directory (TOOLS_DIR, as scripts/install-tools.sh places them). */
const toolsVenv = (name: string) => path.join(path.dirname(process.env.TOOLS_DIR ?? '/root/.cache/service-tools/bin'), name);

const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  EVENTSTORE_URL: optionalUrl(/^(esdb|esdb\+discover|kurrentdb):\/\//),
  MONGODB_URL: optionalUrl(/^mongodb(\+srv)?:\/\//),
  /** Where read models live without MONGODB_URL: SQLite tables in DATA_DIR (kept across restarts), or in process memory (rebuilt at every start). */
  READ_STORE: z.enum(['sqlite', 'memory'], { message: 'must be sqlite or memory' }).default('sqlite'),
  TEMPORAL_ADDRESS: z
    .string()
    .trim()
    .transform((value) => (value === '' ? undefined : value))
    .optional()
    .refine((value) => value === undefined || /^[\w.-]+:\d+$/.test(value), { message: 'must be host:port' }),
  BOOTSTRAP_API_KEY: z
    .string()
    .transform((value) => (value === '' ? undefined : value))
    .optional()
    .refine((value) => value === undefined || /^[\w-]{16,128}$/.test(value), {
      message: 'must be 16 to 128 letters, digits, "_" or "-"',
    }),
  GENERATION_ENABLED: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('generation'),
  /**
   * Narrations made at once per process for interactive work (items just created), and for bulk work (regenerations)
   * on slots of its own, so a new item never waits for a backlog (docs/generation.md#queues-and-priorities).
   */
  GENERATION_CONCURRENCY: positiveInt(2),
  GENERATION_BULK_CONCURRENCY: positiveInt(1),
  SYNTHESIS_TIMEOUT_MS: positiveInt(60_000),
  SYNTHESIS_CONCURRENCY: positiveInt(2),
  /** Piper's virtual environment (scripts/install-venv.sh puts it beside the tools directory); without it, espeak-ng speaks every language. */
  PIPER_VENV: z.string().min(1).default(toolsVenv('piper')),
  /**
   * Long-lived Piper worker processes, each about 500 MB: how many texts Piper speaks at once. The cores are shared
   * among them (onnxruntime threads per worker: cores / workers); two one-thread workers on two cores narrate an
   * article in about three quarters of the time one two-thread worker takes.
   */
  PIPER_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  /** A Piper worker whose peak memory passes this is replaced after its request. */
  PIPER_WORKER_MAX_RSS_MB: z.coerce.number().int().min(256).default(1024),
  /**
   * The seed Piper's voices draw their noise from: set, the same text, voice and speed always give the same samples
   * (the tests set it, so that what the recognizer hears does not change from run to run); unset, each reading varies
   * a little, as the voice was trained. Kokoro's speech is the same every time either way.
   */
  SPEECH_SEED: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(0).max(2 ** 32 - 1).optional()),
  /** Kokoro's virtual environment, its English voices in voices/ (scripts/install-tools.sh); without it, no Kokoro voice is offered. */
  KOKORO_VENV: z.string().min(1).default(toolsVenv('kokoro')),
  /** Long-lived Kokoro worker processes (one core each while speaking): how many texts Kokoro speaks at once. */
  KOKORO_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  /** A Kokoro worker whose peak memory passes this is replaced after its request. */
  KOKORO_WORKER_MAX_RSS_MB: z.coerce.number().int().min(256).default(2048),
  /** Video renders running at once in a process, and the cores each may take (a long render runs that many ffmpeg parts at once). */
  VIDEO_RENDER_CONCURRENCY: positiveInt(1),
  MEDIA_FETCH_CONCURRENCY: positiveInt(DEFAULT_MEDIA_FETCH_CONCURRENCY),
  VIDEO_RENDER_THREADS: positiveInt(2),
  /** An ffmpeg process of a render (a part of a split one) is killed past this resident memory, and the render retried. */
  VIDEO_RENDER_MAX_RSS_MB: z.coerce.number().int().min(64).default(1024),
  AUDIO_FETCH_MAX_BYTES: positiveInt(100 * 1024 * 1024),
  AUDIO_FETCH_TIMEOUT_MS: positiveInt(30_000),
  /** The largest web page read for an item created from a `source_url` (docs/intake.md#extraction). */
  EXTRACTION_MAX_BYTES: positiveInt(10 * 1024 * 1024),
  /** How long fetching (and rendering) such a page may take, redirects included. */
  EXTRACTION_TIMEOUT_MS: positiveInt(20_000),
  /** Pages rendered at once in headless Chromium for projects with `javascript_enabled`; the others wait. */
  EXTRACTION_BROWSER_CONCURRENCY: positiveInt(2),
  /** The longest background track, intro, outro or pre-recorded segment accepted, read from its header before decoding. */
  AUDIO_MAX_DURATION_S: positiveInt(30 * 60),
  /** The most pixels an image from outside (logo, feature image, image segment) or a video's frame may have. */
  IMAGE_MAX_PIXELS: positiveInt(40_000_000),
  /** Lets outbound fetches (audio files, ...) reach loopback, private and link-local addresses: for local use and tests. */
  FETCH_ALLOW_PRIVATE: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  /** Seconds between two runs of each enabled feed import (docs/feeds.md); tests shorten it. */
  FEED_IMPORT_INTERVAL_S: z.coerce.number().int().min(1).max(7 * 24 * 3600).default(600),
  /** Largest feed document read. */
  FEED_MAX_BYTES: positiveInt(10 * 1024 * 1024),
  /** Time limit of one fetch of a feed, redirects and body included. */
  FEED_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  /** How long a projections lease term lasts unrenewed: the longest projections stand still after their leader dies. */
  PROJECTION_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(10_000),
  RATE_LIMIT_GET: positiveInt(100),
  RATE_LIMIT_OTHER: positiveInt(25),
  /** Requests per 60 s per client address on the public routes (player data, preview, feeds, media files). */
  RATE_LIMIT_PUBLIC: positiveInt(1200),
  /** Requests per 60 s per client address to the player events endpoint (each may carry up to 1,000 events). */
  RATE_LIMIT_ANALYTICS: positiveInt(3000),
  /** Player events an analytics rebuild counts in memory before it writes what they add up to (about 1 GB a million). */
  ANALYTICS_REBUILD_EVENTS: z.coerce.number().int().min(1).max(100_000_000).default(1_000_000),
  MAX_BODY_BYTES: positiveInt(1024 * 1024),
  HTTP_HEADERS_TIMEOUT_MS: positiveInt(10_000),
  HTTP_REQUEST_TIMEOUT_MS: positiveInt(30_000),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * An OpenAI-compatible chat-completions endpoint for AI script summaries (a hosted provider, or llama.cpp's server,
   * Ollama, vLLM): its base URL (`.../v1`), the model it serves, and its key if it wants one. Unset, summaries are
   * extractive (docs/summaries.md).
   */
  SUMMARIZER_URL: optionalUrl(/^(http|https):\/\//),
  SUMMARIZER_MODEL: z.string().trim().max(200).optional().transform((value) => (value === '' ? undefined : value)),
  SUMMARIZER_API_KEY: z.string().optional().transform((value) => (value === '' ? undefined : value)),
  /** The longest one summary request to that endpoint may take. */
  SUMMARIZER_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  LOG_LEVEL: z.enum(logLevels, { message: `must be one of ${logLevels.join(', ')}` }).default('info'),
  /** Lets webhooks use http:// and reach loopback, private and link-local addresses: for local use and tests. */
  WEBHOOKS_ALLOW_PRIVATE: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  WEBHOOK_RETRY_INITIAL_MS: positiveInt(5_000),
  // One wait is one timer: capped well below the 24.8 days a Node timer can span.
  WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().min(1).max(24 * 60 * 60_000).default(6 * 60 * 60_000),
  WEBHOOK_RETRY_WINDOW_MS: positiveInt(3 * 24 * 60 * 60_000),
  // Bounded so one attempt always fits in the delivery activity's two minutes.
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(10_000),
});

export type Config = z.infer<typeof configSchema>;

/** Parses the environment; a bad value yields one line naming the variable and what is allowed. */
export function loadConfig(env: NodeJS.ProcessEnv): { ok: true; config: Config } | { ok: false; message: string } {
  const parsed = configSchema.safeParse(env);
  if (parsed.success && parsed.data.SUMMARIZER_URL && !parsed.data.SUMMARIZER_MODEL) {
    return { ok: false, message: 'Invalid configuration: SUMMARIZER_MODEL must name the model SUMMARIZER_URL serves (got "")' };
  }
  if (parsed.success) return { ok: true, config: parsed.data };
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0] ?? 'environment');
  return { ok: false, message: `Invalid configuration: ${name} ${describeIssue(issue)} (got ${JSON.stringify(env[name] ?? '')})` };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_type':
      return `must be ${issue.expected === 'number' ? 'a whole number' : `a ${issue.expected}`}`;
    default:
      return issue.message.startsWith('must') ? issue.message : `is invalid: ${issue.message}`;
  }
}
