// A real webhook receiver for tests: a node:http server on 127.0.0.1 that records what it gets and
// answers each path from a script, and an independent check of Standard Webhooks signatures.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

/** An answer: a status with optional headers, or `hang` (never answer). */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url(path: string): string;
  /** Requests received on a path, oldest first. */
  on(path: string): Received[];
  /** Answers for the next requests of a path, in order; the last one repeats. Default: 200. */
  script(path: string, answers: Answer[]): void;
  /** Resolves once a path has received `count` requests. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, Answer[]>();
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        // not JSON: the test will say so
      }
      received.push({ path, headers: request.headers, body, json, at: Date.now() });
      const script = scripts.get(path) ?? [];
      const answer = (script.length > 1 ? script.shift() : script[0]) ?? { status: 200 };
      if (answer === 'hang') return;
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const on = (path: string) => received.filter((request) => request.path === path);
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    on,
    script: (path, answers) => scripts.set(path, [...answers]),
    async waitFor(path, count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (on(path).length < count) {
        if (Date.now() > deadline) throw new Error(`${path} received ${on(path).length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return on(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Recomputes the signature from the secret, as a receiver following Standard Webhooks does. */
export function verifies(secret: string, request: Received): boolean {
  const id = String(request.headers['webhook-id']);
  const timestamp = String(request.headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64')}`;
  return String(request.headers['webhook-signature']).split(' ').includes(expected);
}
