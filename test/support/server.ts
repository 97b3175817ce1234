// Starts the real service as a child process (embedded default, or FerretDB when TEST_MONGODB_URL is set).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loopbackEnv } from './loopbackEnv.ts';
import { createResponseValidator } from './openapi.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const TEST_KEY = 'test_bootstrap_key_0123456789';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  /** The API process's id (its memory is read from /proc/<pid>/status). */
  pid: number;
  env: Record<string, string>;
  output: () => string;
  request<T = any>(method: string, path: string, options?: { body?: unknown; rawBody?: string; key?: string | null; headers?: Record<string, string> }): Promise<Reply<T>>;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Kills only the Temporal worker (no-op on the embedded default). */
  stopWorker(signal?: NodeJS.Signals): Promise<void>;
}

export const newDataDir = () => mkdtempSync(path.join(tmpdir(), 'service-test-'));

/** The seed of the voices' noise in every test server: a text is narrated the same in every run (docs/voices.md). */
export const TEST_SPEECH_SEED = '24';

/** Environment of a test server; with TEST_MONGODB_URL each data dir gets its own database. */
export function serverEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...loopbackEnv(dataDir, TEST_KEY, { rateLimit: 100_000, generation: false }), SPEECH_SEED: TEST_SPEECH_SEED };
  const name = path.basename(dataDir).replace(/\W/g, '_');
  if (process.env.TEST_MONGODB_URL) env.MONGODB_URL = `${process.env.TEST_MONGODB_URL}/t_${name}`;
  if (process.env.TEST_TEMPORAL_ADDRESS) {
    env.TEMPORAL_ADDRESS = process.env.TEST_TEMPORAL_ADDRESS;
    env.TEMPORAL_TASK_QUEUE = `generation-${name}`;
  }
  return { ...env, ...extra };
}

interface Started {
  child: ChildProcess;
  output: () => string;
  match: RegExpExecArray;
}

/** Spawns one of the service's entry points and waits for the line that says it is ready. */
async function spawnReady(script: string, env: Record<string, string>, ready: RegExp): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), 90_000);
    let started = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // Once started, the output (one JSON line per request) is only kept: matching it all again would be quadratic.
      const found = started ? null : ready.exec(output);
      if (found) {
        started = true;
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output}`));
    });
  });
  return { child, output: () => output, match };
}

/** With TEST_TEMPORAL_ADDRESS and generation on, a Temporal worker runs beside the API, as in production. */
export const usesWorker = (env: Record<string, string>) => Boolean(env.TEMPORAL_ADDRESS) && env.GENERATION_ENABLED === 'true';
export const startWorker = (env: Record<string, string>) => spawnReady('src/worker.ts', env, /worker polling task queue/);

export async function startServer(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? newDataDir();
  const env = serverEnv(dataDir, options.env);
  const [api, worker] = await Promise.all([
    spawnReady('src/main.ts', env, /listening on http:\/\/127\.0\.0\.1:(\d+)/),
    usesWorker(env) ? startWorker(env) : Promise.resolve(null),
  ]);
  const baseUrl = `http://127.0.0.1:${api.match[1]}`;
  return {
    baseUrl,
    dataDir,
    pid: api.child.pid!,
    env,
    output: () => api.output() + (worker?.output() ?? ''),
    request: (method, requestPath, opts = {}) => send(baseUrl, method, requestPath, opts),
    async stop(signal = 'SIGTERM') {
      await Promise.all([stopChild(api.child, signal), worker ? stopChild(worker.child, signal) : undefined]);
    },
    stopWorker: (signal = 'SIGKILL') => (worker ? stopChild(worker.child, signal) : Promise.resolve()),
  };
}

async function send(baseUrl: string, method: string, requestPath: string, options: { body?: unknown; rawBody?: string; key?: string | null; headers?: Record<string, string> }): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? TEST_KEY : options.key;
  if (key !== null) headers['x-api-key'] = key;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${requestPath}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  if (text !== '' && parsed !== text && response.headers.get('content-type')?.includes('application/json')) {
    const problems = checkAnswer(method, requestPath, response.status, parsed);
    if (problems.length > 0) throw new Error(`answer does not match schema/openapi.json:\n${problems.join('\n')}\nbody: ${text.slice(0, 1000)}`);
  }
  takeRequestId(response, parsed);
  return { status: response.status, body: parsed, headers: response.headers };
}

let validator: ReturnType<typeof createResponseValidator> | undefined;
/** Every JSON answer a test receives is checked against the committed OpenAPI document. */
const checkAnswer = (method: string, requestPath: string, status: number, body: unknown) =>
  (validator ??= createResponseValidator(ROOT))(method, requestPath, status, body);

/**
 * Every error body carries its request's id, the one in X-Request-Id: checked here for every answer of every test,
 * then taken out, so that tests compare the rest of the error shape.
 */
function takeRequestId(response: Response, body: unknown) {
  if (response.status < 400 || typeof body !== 'object' || body === null || !('code' in body)) return;
  const { request_id: requestId } = body as { request_id?: unknown };
  if (requestId !== response.headers.get('x-request-id')) {
    throw new Error(`error body request_id ${JSON.stringify(requestId)} is not the X-Request-Id ${response.headers.get('x-request-id')}`);
  }
  delete (body as { request_id?: unknown }).request_id;
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

export const uniqueId = () => randomUUID().slice(0, 8);
