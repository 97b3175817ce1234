// Starts the service: configuration, adapters, projections, bootstrap, then the HTTP server.
import 'reflect-metadata';
import { loadConfig } from './config.ts';
import { deliveryRetryOf, loadVoiceCatalogue, mediaDirOf, openInfrastructure, openWorkflowRunner, webhookSettingsOf } from './composition.ts';
import { createGenerationReactor } from './generation/reactor.ts';
import { createWebhookReactor } from './webhooks/reactor.ts';
import { createApp } from './app.ts';
import { allProjections } from '../projections/index.ts';
import { catchUp, startProjections } from '../projections/runner.ts';
import { bootstrapIfEmpty } from './organizations/bootstrap.ts';
import type { RecordedEvent } from './infrastructure/eventStore/port.ts';

const log = (message: string) => console.log(`${new Date().toISOString()} ${message}`);

const loaded = loadConfig(process.env);
if (!loaded.ok) {
  console.error(loaded.message);
  process.exit(1);
}
const config = loaded.config;

const infrastructure = await openInfrastructure(config);
const voices = await loadVoiceCatalogue();
const workflows = await openWorkflowRunner(config, infrastructure.events, voices, log);
const reactor = createGenerationReactor(workflows, log);
// Payload media URLs need the port actually listened on (PORT=0 picks one).
let listeningPort = config.PORT;
const webhookReactor = createWebhookReactor({
  events: infrastructure.events,
  read: infrastructure.read,
  runner: workflows,
  retry: deliveryRetryOf(config),
  baseUrl: () => config.PUBLIC_BASE_URL ?? `http://localhost:${listeningPort}`,
  now: () => new Date(),
  log,
});
// With generation off, this process only serves the API; another process (or none, while paused) generates
// and delivers webhooks.
const onApplied = config.GENERATION_ENABLED
  ? (event: RecordedEvent) => {
      reactor.onEvent(event);
      webhookReactor.onEvent(event);
    }
  : undefined;
const runner = await startProjections(infrastructure.events, infrastructure.read, allProjections, { log, onApplied });
await catchUp(infrastructure.events, runner);

const bootstrapped = await bootstrapIfEmpty(infrastructure.events, config.BOOTSTRAP_API_KEY, new Date());
if (bootstrapped) {
  await runner.waitFor(bootstrapped.position);
  log(
    `first start: created organization ${bootstrapped.organizationId}, project ${bootstrapped.projectId} ` +
      `and organization API key ${bootstrapped.apiKey} (shown once; keep it)`,
  );
}

if (config.GENERATION_ENABLED) {
  await reactor.resume(infrastructure.read);
  await webhookReactor.resume();
}

const app = await createApp({
  events: infrastructure.events,
  read: infrastructure.read,
  runner,
  voices,
  mediaDir: mediaDirOf(config),
  publicBaseUrl: config.PUBLIC_BASE_URL,
  limits: { get: config.RATE_LIMIT_GET, other: config.RATE_LIMIT_OTHER },
  webhookSettings: webhookSettingsOf(config),
  now: () => new Date(),
  log,
});
const server = app.listen(config.PORT, config.HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  listeningPort = port;
  log(`listening on http://127.0.0.1:${port}/v1`);
});
server.keepAliveTimeout = 65_000;

const shutdown = async () => {
  server.close();
  await workflows.close();
  await runner.close();
  await infrastructure.close();
  process.exit(0);
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
