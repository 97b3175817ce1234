// Starts the service: configuration, adapters, projections, bootstrap, then the HTTP server.
import 'reflect-metadata';
import { loadConfig } from './config.ts';
import { audioLimitsOf, deliveryRetryOf, feedLimitsOf, feedRunnerOf, loadVoiceCatalogue, mediaDirOf, openInfrastructure, openWorkflowRunner, summarizerOf, synthesizerOf, videoRendererOf, webhookSettingsOf } from './composition.ts';
import { createGenerationReactor } from './generation/reactor.ts';
import { createWebhookReactor } from './webhooks/reactor.ts';
import { createPreviewReactor } from './pronunciation/preview.ts';
import { createApp } from './app.ts';
import type http from 'node:http';
import { createHttpServer } from './http/server.ts';
import { answerWhileStarting } from './http/starting.ts';
import { allProjections } from '../projections/index.ts';
import { analyticsProjection } from '../projections/analytics.ts';
import { catchUp } from '../projections/runner.ts';
import { startLeadership } from '../projections/leadership.ts';
import { sharedCounter } from './http/sharedCounter.ts';
import { bootstrapIfEmpty } from './organizations/bootstrap.ts';
import { createLogger, logFunction } from './logging.ts';
import { gracefulShutdown, within, SHUTDOWN_GRACE_MS } from './http/shutdown.ts';
import { startFeedSchedule, type FeedSchedule } from './feedImports/schedule.ts';

const loaded = loadConfig(process.env);
if (!loaded.ok) {
  console.error(loaded.message);
  process.exit(1);
}
const config = loaded.config;
const logger = createLogger(config.LOG_LEVEL);
const log = logFunction(logger);
const shutdown = gracefulShutdown(log);

// The stores open while the voice catalogue asks the speech engines which voices they have (a Python process).
const [infrastructure, voices] = await Promise.all([openInfrastructure(config), loadVoiceCatalogue(config, log)]);
const workflows = await openWorkflowRunner(config, infrastructure.events, voices, log, infrastructure.read);
const reactor = createGenerationReactor(workflows, log);
// Pronunciation rule previews are made in this process, one at a time, with a synthesizer of their own.
const previews = createPreviewReactor({ events: infrastructure.events, synthesizer: synthesizerOf(config, voices), voices, mediaDir: mediaDirOf(config), now: () => new Date(), log });
// Payload media URLs need the port actually listened on (PORT=0 picks one).
let listeningPort = config.PORT;
// Unfinished generations and deliveries are started again by whichever process becomes the projections leader.
const resumeReactors = async () => {
  await reactor.resume(infrastructure.read);
  await previews.resume(infrastructure.read);
  await webhookReactor.resume();
};
const webhookReactor = createWebhookReactor({
  events: infrastructure.events,
  read: infrastructure.read,
  runner: workflows,
  retry: deliveryRetryOf(config),
  baseUrl: () => config.PUBLIC_BASE_URL ?? `http://localhost:${listeningPort}`,
  now: () => new Date(),
  log,
});
// The port is taken before the catch-up, so notifications built meanwhile name it (PORT=0 picks one); until the
// app is ready, /health answers live and everything else 503.
let handle: http.RequestListener = answerWhileStarting;
const server = createHttpServer((request, response) => handle(request, response), {
  headersMs: config.HTTP_HEADERS_TIMEOUT_MS,
  requestMs: config.HTTP_REQUEST_TIMEOUT_MS,
});
await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
const address = server.address();
listeningPort = typeof address === 'object' && address ? address.port : config.PORT;

// With generation off, this process only serves the API; another process (or none, while paused) generates
// and delivers webhooks. Deliveries are requested by a checkpointed reactor, so a kill cannot lose one.
// Of the processes sharing the read store, the holder of the projections lease runs the projections and the
// reactors; the others follow it and take over when it dies (docs/deployment.md).
const runner = await startLeadership(infrastructure.events, infrastructure.read, allProjections, {
  log,
  leaseMs: config.PROJECTION_LEASE_MS,
  onLeading: config.GENERATION_ENABLED ? () => resumeReactors() : undefined,
  onApplied: config.GENERATION_ENABLED
    ? (event) => {
        reactor.onEvent(event);
        previews.onEvent(event);
      }
    : undefined,
  reactors: config.GENERATION_ENABLED ? [webhookReactor.projection] : [],
});
await catchUp(infrastructure.events, runner);
// Player events run through a runner of their own, so that a burst of them never holds up content's read models
// (and the read-your-writes waits of commands); the other projections pass their streams over (docs/analytics.md).
const analyticsRunner = await startLeadership(infrastructure.events, infrastructure.read, [analyticsProjection(infrastructure.read)], {
  log,
  leaseMs: config.PROJECTION_LEASE_MS,
  leaseName: 'analytics',
});

const bootstrapped = await bootstrapIfEmpty(infrastructure.events, config.BOOTSTRAP_API_KEY, new Date());
if (bootstrapped) {
  await runner.waitFor(bootstrapped.position);
  log(
    `first start: created organization ${bootstrapped.organizationId}, project ${bootstrapped.projectId} ` +
      `and organization API key ${bootstrapped.apiKey} (shown once; keep it)`,
  );
}

// A MongoDB read store is shared by every API process, and so are the request counts kept in it.
const requestCounter = config.MONGODB_URL ? await sharedCounter(infrastructure.read, log) : undefined;
const listener = await createApp({
  events: infrastructure.events,
  read: infrastructure.read,
  runner,
  voices,
  synthesizer: synthesizerOf(config, voices),
  videoRenderer: videoRendererOf(config),
  mediaDir: mediaDirOf(config),
  audioLimits: audioLimitsOf(config),
  publicBaseUrl: config.PUBLIC_BASE_URL,
  limits: {
    get: config.RATE_LIMIT_GET,
    other: config.RATE_LIMIT_OTHER,
    publicPerAddress: config.RATE_LIMIT_PUBLIC,
    analyticsPerAddress: config.RATE_LIMIT_ANALYTICS,
    maxBodyBytes: config.MAX_BODY_BYTES,
  },
  webhookSettings: webhookSettingsOf(config),
  feedLimits: feedLimitsOf(config),
  summarizer: summarizerOf(config),
  now: () => new Date(),
  log,
  logger,
  draining: shutdown.draining,
  requestCounter,
});
handle = listener;
// Feed imports run every FEED_IMPORT_INTERVAL_S: on Temporal by a Temporal schedule the worker serves; embedded, in
// this process (every API process looks for due imports; each import's stream lets one of them run it).
let feedSchedule: FeedSchedule | null = null;
if (config.TEMPORAL_ADDRESS) {
  const { ensureFeedSchedule } = await import('./feedImports/temporalSchedule.ts');
  await ensureFeedSchedule(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, config.TEMPORAL_TASK_QUEUE, config.FEED_IMPORT_INTERVAL_S * 1000);
} else {
  feedSchedule = startFeedSchedule({
    read: infrastructure.read,
    runner: feedRunnerOf(config, infrastructure.events, infrastructure.read, voices),
    intervalMs: config.FEED_IMPORT_INTERVAL_S * 1000,
    now: () => new Date(),
    log,
  });
}
log(`listening on http://127.0.0.1:${listeningPort}/v1`);

shutdown.install(server, async () => {
  webhookReactor.close();
  requestCounter?.close();
  if (feedSchedule) await within(feedSchedule.close(), SHUTDOWN_GRACE_MS);
  // Generations still running are left to the next start, which resumes every unfinished item.
  await within(workflows.close(), SHUTDOWN_GRACE_MS);
  // A projection held up by a store that does not answer must not keep the process from exiting.
  await within(runner.close(), SHUTDOWN_GRACE_MS);
  await within(analyticsRunner.close(), SHUTDOWN_GRACE_MS);
  await infrastructure.close();
});
