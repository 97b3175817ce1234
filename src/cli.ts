// Operator CLI: organizations, projects, API keys, projection rebuilds and the projection quarantine.
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { openInfrastructure, type Infrastructure } from './composition.ts';
import { foldStream } from './shared/decider.ts';
import { AppError } from './shared/errors.ts';
import { createOrganizationHandlers } from './organizations/handlers.ts';
import { createProjectHandlers } from './projects/handlers.ts';
import { projectDecider } from './projects/decider.ts';
import { projectStream } from './projects/events.ts';
import { allProjections } from '../projections/index.ts';
import { CHECKPOINTS, type Projection } from '../projections/projection.ts';
import { catchUp, startProjections } from '../projections/runner.ts';
import { listQuarantine, retryQuarantine } from './operations/quarantine.ts';

const usage = `Usage: npm run cli -- <command> [options]
  organizations create --name NAME           create an organization and an organization API key
  projects create --organization ID --name NAME
                                              create a project and a project API key
  keys create --organization ID [--project ID] [--label TEXT]
                                              issue an organization key, or a project key with --project
  keys revoke --organization ID --key-id KEY_ID
  events STREAM                               print a stream's events, one JSON object a line
                                              (e.g. content-<uuid>, project-1, organization-1)
  projections rebuild [NAME|all]              drop a projection's read model and replay the log from 0
                                              (projections: ${allProjections.map((p) => p.name).join(', ')})
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
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const idOption = (option: 'organization' | 'project'): number => {
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

async function rebuild(infra: Infrastructure, projection: Projection) {
  const collections = Object.keys(projection.collections);
  const snapshot = async () => Object.fromEntries(await Promise.all(collections.map(async (name) => [name, await infra.read.collection(name).find({}, { sort: { _id: 1 } })] as const)));
  const before = infra.readModelsInProcess ? null : await snapshot();
  for (const name of collections) await infra.read.collection(name).clear();
  await infra.read.collection(CHECKPOINTS).deleteOne(projection.name);
  let last = Date.now();
  const runner = await startProjections(infra.events, infra.read, [projection], {
    onProgress: (position) => {
      if (Date.now() - last < 1000) return;
      last = Date.now();
      console.log(`  ${projection.name}: at position ${position}`);
    },
    log: console.error,
  });
  await catchUp(infra.events, runner);
  await runner.close();
  const after = await snapshot();
  const counts = collections.map((name) => `${after[name]!.length} ${name}`).join(', ');
  if (!before) {
    console.log(`${projection.name}: replayed to position ${runner.position} (${counts}); the embedded read models live in the server process and are rebuilt this way at every start`);
    return true;
  }
  const equal = isDeepStrictEqual(before, after);
  console.log(`${projection.name}: rebuilt to position ${runner.position} (${counts}); equal to the read model before the rebuild: ${equal ? 'yes' : 'no'}`);
  return equal;
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

async function run(infra: Infrastructure): Promise<number> {
  const [area, action, argument] = positionals;
  if (area === 'projections' && action === 'quarantine') return quarantine(infra, positionals[2], positionals[3]);
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
      const organizationId = idOption('organization');
      const { projectId } = await createProjectHandlers(infra.events).create(organizationId, { name: values.name }, now);
      const key = await projectKey(infra, organizationId, projectId, values.label ?? 'cli');
      console.log(`project ${projectId}\nproject API key ${key.key} (key id ${key.keyId}; shown once)`);
      return 0;
    }
    case 'keys create': {
      const organizationId = idOption('organization');
      const label = values.label ?? 'cli';
      const key = values.project
        ? await projectKey(infra, organizationId, idOption('project'), label)
        : await organizations.issueKey(organizationId, 'organization', null, label, now);
      console.log(`API key ${key.key} (key id ${key.keyId}; shown once)`);
      return 0;
    }
    case 'keys revoke':
      await organizations.revokeKey(idOption('organization'), values['key-id'] ?? fail('--key-id is required'), now);
      console.log('revoked');
      return 0;
    case 'projections rebuild': {
      const chosen = !argument || argument === 'all' ? allProjections : allProjections.filter((p) => p.name === argument);
      if (chosen.length === 0) fail(`unknown projection ${argument}\n\n${usage}`);
      let equal = true;
      for (const projection of chosen) equal = (await rebuild(infra, projection)) && equal;
      return equal ? 0 : 1;
    }
    default:
      return fail(usage);
  }
}

const loaded = loadConfig(process.env);
if (!loaded.ok) fail(loaded.message);
const infra = await openInfrastructure(loaded.config);
try {
  process.exitCode = await run(infra);
} catch (error) {
  if (!(error instanceof AppError)) throw error;
  console.error(`${error.message}${error.errors.map((e) => `\n  ${e.location}: ${e.message}`).join('')}`);
  process.exitCode = 2;
} finally {
  await infra.close();
}
