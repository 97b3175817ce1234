// The Temporal worker of the production stack: runs the generation, webhook delivery and feed import workflows and their activities.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { loadConfig } from './config.ts';
import { deliveryActivities, feedImportActivities, generationActivities, loadVoiceCatalogue, openInfrastructure } from './composition.ts';
import { bulkTaskQueue } from './infrastructure/workflows/port.ts';

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

const infrastructure = await openInfrastructure(config);
const events = infrastructure.events;
const log = (message: string) => console.log(`${new Date().toISOString()} ${message}`);
const bundle = path.join(import.meta.dirname, '../build/workflows.js');
const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
// Production images carry a prebuilt bundle (npm run build:workflows); a checkout bundles once at start.
const workflowBundle = existsSync(bundle) ? { codePath: bundle } : await bundleWorkflowCode({ workflowsPath: path.join(import.meta.dirname, '../workflows/index.ts') });
const voices = await loadVoiceCatalogue(config, log);
const activities = {
  ...generationActivities(config, events, voices, log),
  ...deliveryActivities(config, events),
  ...feedImportActivities(config, infrastructure, voices, log),
};
// Two queues, one process: interactive work (new items, webhook deliveries) on TEMPORAL_TASK_QUEUE, and bulk work
// (regenerations) on its own queue with GENERATION_BULK_CONCURRENCY activity slots, so that a backlog of it waits in
// Temporal, never in front of a new item (docs/generation.md#queues-and-priorities).
const workers = await Promise.all([
  Worker.create({ connection, namespace: config.TEMPORAL_NAMESPACE, taskQueue: config.TEMPORAL_TASK_QUEUE, workflowBundle, activities }),
  Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: bulkTaskQueue(config.TEMPORAL_TASK_QUEUE),
    workflowBundle,
    activities,
    maxConcurrentActivityTaskExecutions: config.GENERATION_BULK_CONCURRENCY,
  }),
]);
console.log(`${new Date().toISOString()} worker polling task queue ${config.TEMPORAL_TASK_QUEUE} (and ${bulkTaskQueue(config.TEMPORAL_TASK_QUEUE)}) on ${config.TEMPORAL_ADDRESS}`);
const stop = () => workers.forEach((worker) => worker.shutdown());
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
await Promise.all(workers.map((worker) => worker.run()));
await infrastructure.close();
await connection.close();
// Stopped and drained: nothing is left to do, whatever handle a library may still hold.
process.exit(0);
