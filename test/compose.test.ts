// docker-compose.yml wiring: the app's connection variables name services of the file on their
// container ports, every app variable is one the configuration knows and accepts, and the
// commands exist as package.json scripts. (No Docker engine is needed: the file is only read.)
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { parse } from 'yaml';
import { configSchema } from '../src/config.ts';

type Service = {
  image?: string;
  build?: unknown;
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | number | { target?: number | string })[];
  expose?: (string | number)[];
  volumes?: (string | { source?: string; target?: string })[];
  depends_on?: string[] | Record<string, unknown>;
};

const root = new URL('../', import.meta.url);
const compose = parse(readFileSync(new URL('docker-compose.yml', root), 'utf8')) as {
  services?: Record<string, Service>;
};
const packageJson = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  scripts?: Record<string, string>;
};
const services = compose.services ?? {};
const appServices = ['api', 'worker'] as const;

function service(name: string): Service {
  const found = services[name];
  if (!found) throw new Error(`docker-compose.yml defines no service "${name}"`);
  return found;
}

/**
 * A service's environment as written (list or map form). `undefined` marks a variable given
 * without a value: Compose passes it through from the shell and leaves it unset otherwise.
 */
function environmentOf(svc: Service): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  const raw = svc.environment ?? {};
  if (Array.isArray(raw)) {
    for (const entry of raw) {
      const eq = entry.indexOf('=');
      if (eq === -1) env[entry] = undefined;
      else env[entry.slice(0, eq)] = entry.slice(eq + 1);
    }
  } else {
    for (const [key, value] of Object.entries(raw)) env[key] = value === null ? undefined : String(value);
  }
  return env;
}

/** Compose interpolation with nothing set in the shell: `${VAR:-default}` yields the default. */
function interpolate(value: string): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_]\w*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_]\w*)/g,
    (match, braced: string | undefined, operator: string | undefined, argument: string | undefined) => {
      if (match === '$$') return '$';
      if (operator?.endsWith('?')) throw new Error(`${match} requires ${braced} to be set`);
      if (operator?.endsWith('-')) return argument ?? '';
      return ''; // ${VAR} or $VAR, unset: Compose substitutes an empty string
    },
  );
}

/** The environment the container gets when the shell sets nothing: pass-through variables are dropped. */
function resolvedEnvironment(svc: Service): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(environmentOf(svc))) {
    if (value !== undefined) resolved[key] = interpolate(value);
  }
  return resolved;
}

/** Ports the service's container listens on, from `ports` (short or long form) and `expose`. */
function containerPorts(svc: Service): number[] {
  const ports: number[] = [];
  for (const entry of svc.ports ?? []) {
    if (typeof entry === 'object') {
      if (entry.target !== undefined) ports.push(Number(entry.target));
    } else {
      const target = String(entry).split('/')[0]!.split(':').at(-1)!;
      ports.push(Number(target));
    }
  }
  for (const entry of svc.expose ?? []) ports.push(Number(String(entry).split('/')[0]));
  return ports.filter((port) => Number.isInteger(port));
}

const defaultPorts: Record<string, number> = { esdb: 2113, 'esdb+discover': 2113, kurrentdb: 2113, mongodb: 27017 };

/** host:port pairs named by a connection URL (`scheme://[user@]h1[:p1][,h2...]/...`) or `host:port`. */
function endpoints(value: string): { host: string; port: number }[] {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value);
  let authority = value;
  if (scheme) {
    authority = value.slice(scheme[0].length).split(/[/?#]/)[0]!;
    authority = authority.slice(authority.lastIndexOf('@') + 1);
  }
  return authority.split(',').map((hostPort) => {
    const [host, port] = hostPort.split(':');
    const fallback = scheme ? defaultPorts[scheme[1]!.toLowerCase()] : undefined;
    return { host: host!, port: port === undefined ? (fallback ?? NaN) : Number(port) };
  });
}

function commandOf(svc: Service): string | undefined {
  return Array.isArray(svc.command) ? svc.command.join(' ') : svc.command?.trim();
}

function dependsOn(svc: Service): string[] {
  const deps = svc.depends_on ?? [];
  return Array.isArray(deps) ? deps : Object.keys(deps);
}

/** The named volume (or host path) mounted at `target`. */
function volumeAt(svc: Service, target: string): string | undefined {
  for (const entry of svc.volumes ?? []) {
    if (typeof entry === 'object') {
      if (entry.target === target) return entry.source;
    } else {
      const [source, mountedAt] = entry.split(':');
      if (mountedAt === target) return source;
    }
  }
  return undefined;
}

describe('docker-compose.yml', () => {
  it('defines the production stack', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['eventstore', 'mongodb', 'temporal', 'api', 'worker']));
  });

  describe.each(appServices)('%s', (name) => {
    const connections = ['EVENTSTORE_URL', 'MONGODB_URL', 'TEMPORAL_ADDRESS'] as const;

    it.each(connections)('sets %s to a service of this file on one of its container ports', (variable) => {
      const svc = service(name);
      const value = resolvedEnvironment(svc)[variable];
      expect(value, `${name} must set ${variable}`).toBeTruthy();
      const targets = endpoints(value!);
      expect(targets.length).toBeGreaterThan(0);
      for (const { host, port } of targets) {
        expect(Object.keys(services), `${variable}=${value}: "${host}" is not a service`).toContain(host);
        expect(containerPorts(service(host)), `${variable}=${value}: ${host} does not listen on ${port}`).toContain(port);
        expect(dependsOn(svc), `${name} should depend on ${host}`).toContain(host);
      }
    });

    it('sets only variables the configuration defines', () => {
      const known = Object.keys(configSchema.shape);
      for (const variable of Object.keys(environmentOf(service(name)))) {
        expect(known, `${name}: ${variable} is not in configSchema`).toContain(variable);
      }
    });

    it('has an environment the configuration accepts', () => {
      const parsed = configSchema.safeParse(resolvedEnvironment(service(name)));
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(parsed.success).toBe(true);
    });

    it('keeps media files in a volume shared by the api and the worker', () => {
      const dataDir = configSchema.parse(resolvedEnvironment(service(name))).DATA_DIR;
      const volume = volumeAt(service(name), dataDir);
      expect(volume, `${name} mounts nothing at DATA_DIR=${dataDir}`).toBeTruthy();
      const apiDataDir = configSchema.parse(resolvedEnvironment(service('api'))).DATA_DIR;
      expect(volume).toBe(volumeAt(service('api'), apiDataDir));
    });
  });

  it('publishes the api on the port it listens on', () => {
    const config = configSchema.parse(resolvedEnvironment(service('api')));
    expect(containerPorts(service('api'))).toContain(config.PORT);
  });

  it('runs the api with `npm start` and the worker with `npm run worker`', () => {
    expect(commandOf(service('api')) ?? 'npm start').toBe('npm start');
    expect(commandOf(service('worker'))).toBe('npm run worker');
  });

  it('has a `start` script in package.json for the api', () => {
    expect(packageJson.scripts?.start).toBeTruthy();
  });

  // Fails until the Temporal worker (workflows/) and its `worker` script land.
  it('has a `worker` script in package.json for the worker', () => {
    expect(packageJson.scripts?.worker).toBeTruthy();
  });
});
