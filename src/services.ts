// What every capability receives from the composition: adapters, settings and the command handlers.
import type { EventStore } from './infrastructure/eventStore/port.ts';
import type { ReadStore } from './infrastructure/readStore/port.ts';
import type { ProjectionRunner } from '../projections/runner.ts';
import type { VoiceCatalogue } from './voices/catalogue.ts';
import type { Synthesizer } from './media/synthesizer.ts';
import type { VideoRenderer } from './video/port.ts';
import type { AudioFetchLimits } from './media/fetchAudio.ts';
import type { Logger } from './logging.ts';
import type { RequestCounter } from './http/rateLimit.ts';
import type { Summarizer } from './infrastructure/summarizer/port.ts';
import { createContentHandlers } from './content/handlers.ts';
import { createProjectHandlers } from './projects/handlers.ts';
import { createWebhookHandlers, type WebhookSettings } from './webhooks/handlers.ts';
import { createAdHandlers } from './ads/handlers.ts';
import { createAccessTierHandlers } from './accessTiers/handlers.ts';
import { createFeedImportHandlers } from './feedImports/handlers.ts';
import type { FeedFetchLimits } from './feedImports/feed.ts';

export interface AppDeps {
  events: EventStore;
  read: ReadStore;
  runner: ProjectionRunner;
  voices: VoiceCatalogue;
  /** Speaks voice design previews (generation has its own, in the workflow runner or worker). */
  synthesizer: Synthesizer;
  /** Renders the video settings previews (generation has its own, in the workflow runner or worker). */
  videoRenderer: VideoRenderer;
  mediaDir: string;
  /** How pre-recorded audio is fetched (background tracks probe theirs on create). */
  audioLimits: AudioFetchLimits;
  /** Base of absolute media URLs; the request's own origin when unset. */
  publicBaseUrl: string | undefined;
  /** Requests per 60 s per key (`get`, `other`), per client address on public routes and to the player events endpoint; largest body in bytes. */
  limits: { get: number; other: number; publicPerAddress: number; analyticsPerAddress: number; maxBodyBytes: number };
  webhookSettings: WebhookSettings;
  /** How feeds are fetched (FEED_MAX_BYTES, FEED_FETCH_TIMEOUT_MS, FETCH_ALLOW_PRIVATE). */
  feedLimits: FeedFetchLimits;
  /** Writes AI script summaries: extractive, or the configured OpenAI-compatible model (src/infrastructure/summarizer/). */
  summarizer: Summarizer;
  now: () => Date;
  log: (message: string) => void;
  /** Structured logs: one line per request, with its id (src/logging.ts). */
  logger: Logger;
  /** True once graceful shutdown has begun (`/ready` then answers 503). */
  draining: () => boolean;
  /** Request counts every API process shares (the read store's, on the production stack); this process's own when unset. */
  requestCounter?: RequestCounter;
}

export type Services = AppDeps & {
  content: ReturnType<typeof createContentHandlers>;
  projects: ReturnType<typeof createProjectHandlers>;
  webhooks: ReturnType<typeof createWebhookHandlers>;
  ads: ReturnType<typeof createAdHandlers>;
  accessTiers: ReturnType<typeof createAccessTierHandlers>;
  feedImports: ReturnType<typeof createFeedImportHandlers>;
};

/** The command handlers of every capability, over the given adapters. */
export function createServices(deps: AppDeps): Services {
  return {
    ...deps,
    content: createContentHandlers(deps.events, deps.voices),
    projects: createProjectHandlers(deps.events),
    webhooks: createWebhookHandlers(deps.events, deps.webhookSettings, deps.now),
    ads: createAdHandlers(deps.events),
    accessTiers: createAccessTierHandlers(deps.events),
    feedImports: createFeedImportHandlers(deps.events),
  };
}
