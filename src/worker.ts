// The Temporal worker of the production stack: runs the generation and webhook delivery workflows and their activities.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { NativeConnection, Worker } from '@temporalio/worker';
import { loadConfig } from './config.ts';
import { deliveryActivities, generationActivities, loadVoiceCatalogue, openEventStore } from './composition.ts';

const loaded = loadConfig(process.env);
if (!loaded.ok) {
  console.error(loaded.message);
  process.exit(1);
}
const config = loaded.config;
if (!config.TEMPORAL_ADDRESS) {
  console.error('Invalid configuration: TEMPORAL_ADDRESS is required by the worker (without it the API runs workflows in-process)');
  process.exit(1);
}

const events = await openEventStore(config);
const log = (message: string) => console.log(`${new Date().toISOString()} ${message}`);
const bundle = path.join(import.meta.dirname, '../build/workflows.js');
const worker = await Worker.create({
  connection: await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS }),
  namespace: config.TEMPORAL_NAMESPACE,
  taskQueue: config.TEMPORAL_TASK_QUEUE,
  // Production images carry a prebuilt bundle (npm run build:workflows); a checkout bundles at start.
  ...(existsSync(bundle) ? { workflowBundle: { codePath: bundle } } : { workflowsPath: path.join(import.meta.dirname, '../workflows/index.ts') }),
  activities: { ...generationActivities(config, events, await loadVoiceCatalogue(config, log), log), ...deliveryActivities(config, events) },
});
console.log(`${new Date().toISOString()} worker polling task queue ${config.TEMPORAL_TASK_QUEUE} on ${config.TEMPORAL_ADDRESS}`);
const stop = () => worker.shutdown();
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
await worker.run();
await events.close();
