// Operator CLI: organizations, projects, API keys, projection rebuilds and the projection quarantine.
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from './config.ts';
import { openInfrastructure, type Infrastructure } from './composition.ts';
import { foldStream } from './shared/decider.ts';
import { AppError } from './shared/errors.ts';
import { createOrganizationHandlers } from './organizations/handlers.ts';
import { createProjectHandlers } from './projects/handlers.ts';
import { projectDecider } from './projects/decider.ts';
import { projectStream } from './projects/events.ts';
import { allProjections } from '../projections/index.ts';
import type { Projection } from '../projections/projection.ts';
import { catchUp, startProjections } from '../projections/runner.ts';
import { listQuarantine, retryQuarantine } from './operations/quarantine.ts';
import { rebuildOnline } from './operations/rebuild.ts';
import { SPLIT_FROM_EVENTS, type SplitOptions } from './operations/splitReplay.ts';
import { progressLine } from './operations/progressLine.ts';
import { analyticsProjection, SPLIT_FROM_LOG_EVENTS } from '../projections/analytics.ts';
import { importEvents } from './analytics/import.ts';

const usage = `Usage: npm run cli -- <command> [options]
  organizations create --name NAME           create an organization and an organization API key
  projects create --organization ID --name NAME
                                              create a project and a project API key
  keys create --organization ID [--project ID] [--label TEXT]
                                              issue an organization key, or a project key with --project
  keys revoke --organization ID --key-id KEY_ID
  events STREAM                               print a stream's events, one JSON object a line
                                              (e.g. content-<uuid>, project-1, organization-1)
  projections rebuild [NAME|all] [--threads N]
                                              replay the log from 0 into shadow collections (one pass for all
                                              named), then swap them in; a running service keeps serving
                                              (projections: ${allProjections.map((p) => p.name).join(', ')});
                                              a log of ${SPLIT_FROM_EVENTS.toLocaleString('en')} events or more is replayed on a thread per core,
                                              each a share of the streams; --threads N for N threads at any
                                              length, 1 for none
  analytics import FILE.ndjson                import historical player events, one a line (the player's shape plus
                                              created_at); rejected lines are reported with their numbers; a second
                                              import of the same file adds nothing
  analytics rebuild [--from DATE --to DATE] [--threads N]
                                              rebuild the listening analytics from the stored player events, into
                                              shadow collections swapped in while the service keeps serving;
                                              with --from/--to (yyyy-mm-dd, the projects' local days) only the
                                              roll-ups of those days are counted again, the others kept; a log of
                                              ${SPLIT_FROM_LOG_EVENTS} log events or more is counted on a thread per core, each the
                                              events of a share of the content items and ads; --threads N for N
                                              threads at any length, 1 for none
  projections quarantine                      list the events projections could not apply
  projections quarantine retry POSITION|all   have the running service apply them again (after a fix);
                                              exit 0 when all applied, 1 when not (yet)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    organization: { type: 'string' },
    project: { type: 'string' },
    label: { type: 'string' },
    'key-id': { type: 'string' },
    threads: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** `--from` and `--to` as local days, both or neither; null for neither. */
function daysOption(): { from: string; to: string } | null {
  const { from, to } = values;
  if (from === undefined && to === undefined) return null;
  const isDay = (value: string | undefined): value is string => {
    const ms = /^\d{4}-\d{2}-\d{2}$/.test(value ?? '') ? Date.parse(`${value}T00:00:00Z`) : NaN;
    return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value!);
  };
  if (!isDay(from) || !isDay(to)) return fail('--from and --to go together, each a date as yyyy-mm-dd');
  if (from > to) return fail('--from must be on or before --to');
  return { from, to };
}

const wholeNumberOption = (option: 'organization' | 'project' | 'threads'): number => {
  const value = values[option];
  if (!value || !/^\d+$/.test(value)) return fail(`--${option} must be a positive whole number\n\n${usage}`);
  return Number(value);
};

async function projectKey(infra: Infrastructure, organizationId: number, projectId: number, label: string) {
  const project = foldStream(projectDecider, await infra.events.readStream(projectStream(projectId)));
  if (project.status !== 'active' || project.organizationId !== organizationId) {
    fail(`project ${projectId} does not exist in organization ${organizationId}`);
  }
  return createOrganizationHandlers(infra.events).issueKey(organizationId, 'project', projectId, label, new Date());
}

/** The embedded in-memory read models live in the server process: the CLI can only replay into its own copy. */
async function replayInProcess(infra: Infrastructure, projections: Projection[]) {
  const runner = await startProjections(infra.events, infra.read, projections, { log: console.error });
  await catchUp(infra.events, runner);
  await runner.close();
  for (const projection of projections) {
    const counts = await Promise.all(Object.keys(projection.collections).map(async (name) => `${await infra.read.collection(name).count({})} ${name}`));
    console.log(`${projection.name}: replayed to position ${runner.position} (${counts.join(', ')}); the embedded read models live in the server process and are rebuilt this way at every start`);
  }
}

async function rebuild(infra: Infrastructure, projections: Projection[], split: SplitOptions) {
  if (infra.readModelsInProcess) return replayInProcess(infra, projections);
  const bar = progressLine('rebuild', 'events');
  // The event store finds a running service's new events by polling, which does not hold the process open.
  const alive = setInterval(() => undefined, 1_000);
  const rebuilt = await rebuildOnline(infra.events, infra.read, projections, {
    progress: ({ position, head, startedMs }) => bar.update(position, Math.max(head, position), startedMs),
    log: console.error,
    split,
  }).finally(() => clearInterval(alive));
  bar.end();
  for (const { name, position, counts, equal, bulkLoaded, secondsToSwap } of rebuilt) {
    const listed = Object.entries(counts).map(([collection, count]) => `${count} ${collection}`).join(', ');
    console.log(`${name}: rebuilt to position ${position} (${listed}); equal to the read model before the rebuild: ${equal ? 'yes' : 'no'}`);
    if (bulkLoaded) {
      const { counted, unit } = bulkLoaded;
      const rate = Math.round(counted / Math.max(secondsToSwap, 0.001)).toLocaleString('en');
      console.log(`${name}: ${counted.toLocaleString('en')} ${unit} loaded in bulk; served from the rebuilt read model ${secondsToSwap.toFixed(1)} s after the start (${rate} ${unit}/s)`);
    }
  }
}

async function importPlayerEvents(infra: Infrastructure, file: string | undefined): Promise<number> {
  if (!file) return fail(usage);
  const bar = progressLine('import', 'lines');
  const startedMs = Date.now();
  const report = await importEvents(infra.events, infra.read, file, (done, total) => bar.update(done, total, startedMs));
  bar.end();
  const seconds = (Date.now() - startedMs) / 1000;
  console.log(
    `imported ${file}: ${report.lines.toLocaleString('en')} lines, ${report.accepted.toLocaleString('en')} events accepted ` +
      `(${report.stored.toLocaleString('en')} stored now, ${report.alreadyStored.toLocaleString('en')} stored by an earlier import of this file), ` +
      `${report.rejected.toLocaleString('en')} lines rejected, in ${seconds.toFixed(1)} s (${Math.round(report.lines / Math.max(seconds, 0.001)).toLocaleString('en')} lines/s)`,
  );
  for (const { line, reason } of report.firstRejected) console.log(`  line ${line}: ${reason}`);
  if (report.rejected > report.firstRejected.length) console.log(`  and ${(report.rejected - report.firstRejected.length).toLocaleString('en')} more rejected lines`);
  return report.rejected > 0 ? 1 : 0;
}

async function quarantine(infra: Infrastructure, action: string | undefined, target: string | undefined): Promise<number> {
  if (action === undefined) {
    console.log(await listQuarantine(infra.events));
    return 0;
  }
  if (action !== 'retry' || !target || !(target === 'all' || /^[1-9]\d{0,15}$/.test(target))) return fail(usage);
  const { code, report } = await retryQuarantine(infra.events, target === 'all' ? null : [Number(target)]);
  (code === 2 ? console.error : console.log)(report);
  return code;
}

async function run(infra: Infrastructure, config: Config): Promise<number> {
  const [area, action, argument] = positionals;
  if (area === 'projections' && action === 'quarantine') return quarantine(infra, positionals[2], positionals[3]);
  if (area === 'analytics' && action === 'import') return importPlayerEvents(infra, argument);
  if (area === 'analytics' && action === 'rebuild') {
    const threads = values.threads === undefined ? null : wholeNumberOption('threads');
    await rebuild(infra, [analyticsProjection(infra.read, { bulkEvents: config.ANALYTICS_REBUILD_EVENTS, days: daysOption(), threads, log: console.error })], {});
    return 0;
  }
  const now = new Date();
  const organizations = createOrganizationHandlers(infra.events);
  if (area === 'events' && action) {
    for (const event of await infra.events.readStream(action)) console.log(JSON.stringify(event));
    return 0;
  }
  switch (`${area} ${action}`) {
    case 'organizations create': {
      const { organizationId } = await organizations.create(values.name ?? fail('--name is required'), now);
      const key = await organizations.issueKey(organizationId, 'organization', null, values.label ?? 'cli', now);
      console.log(`organization ${organizationId}\norganization API key ${key.key} (key id ${key.keyId}; shown once)`);
      return 0;
    }
    case 'projects create': {
      const organizationId = wholeNumberOption('organization');
      const { projectId } = await createProjectHandlers(infra.events).create(organizationId, { name: values.name }, now);
      const key = await projectKey(infra, organizationId, projectId, values.label ?? 'cli');
      console.log(`project ${projectId}\nproject API key ${key.key} (key id ${key.keyId}; shown once)`);
      return 0;
    }
    case 'keys create': {
      const organizationId = wholeNumberOption('organization');
      const label = values.label ?? 'cli';
      const key = values.project
        ? await projectKey(infra, organizationId, wholeNumberOption('project'), label)
        : await organizations.issueKey(organizationId, 'organization', null, label, now);
      console.log(`API key ${key.key} (key id ${key.keyId}; shown once)`);
      return 0;
    }
    case 'keys revoke':
      await organizations.revokeKey(wholeNumberOption('organization'), values['key-id'] ?? fail('--key-id is required'), now);
      console.log('revoked');
      return 0;
    case 'projections rebuild': {
      const chosen = !argument || argument === 'all' ? allProjections : allProjections.filter((p) => p.name === argument);
      if (chosen.length === 0) fail(`unknown projection ${argument}\n\n${usage}`);
      // Threads asked for are used whatever the log's length.
      await rebuild(infra, chosen, values.threads === undefined ? {} : { threads: wholeNumberOption('threads'), from: 0 });
      return 0;
    }
    default:
      return fail(usage);
  }
}

const loaded = loadConfig(process.env);
if (!loaded.ok) fail(loaded.message);
const infra = await openInfrastructure(loaded.config);
try {
  process.exitCode = await run(infra, loaded.config);
} catch (error) {
  if (!(error instanceof AppError)) throw error;
  console.error(`${error.message}${error.errors.map((e) => `\n  ${e.location}: ${e.message}`).join('')}`);
  process.exitCode = 2;
} finally {
  await infra.close();
}
