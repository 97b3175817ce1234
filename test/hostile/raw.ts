// Sends requests byte for byte as written (paths not normalised, bodies as raw bytes, chosen source address) and checks the answers' error shape.
import http from 'node:http';
import { expect } from 'vitest';
import { TEST_KEY } from '../support/server.ts';

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
  ms: number;
}

export interface RawOptions {
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sends the body in chunks without a Content-Length. */
  chunked?: boolean;
  key?: string | null;
  localAddress?: string;
}

export function rawRequest(baseUrl: string, method: string, path: string, options: RawOptions = {}): Promise<RawReply> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? TEST_KEY : options.key;
  if (key !== null) headers['x-api-key'] = key;
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  if (body && !options.chunked) headers['content-length'] = String(body.length);
  const started = Date.now();
  let answered = false;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, method, path, headers, localAddress: options.localAddress, agent: false },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body: parsed, ms: Date.now() - started });
        });
      },
    );
    // The server may answer and close before a large body is all sent: the answer is what counts.
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    request.on('close', () => {
      if (!answered) reject(new Error(`${method} ${path.slice(0, 80)}: the connection closed without an answer`));
    });
    if (!body) {
      request.end();
    } else if (options.chunked) {
      const piece = 64 * 1024;
      for (let at = 0; at < body.length && !request.destroyed; at += piece) request.write(body.subarray(at, at + piece));
      request.end();
    } else {
      request.end(body);
    }
  });
}

/** Traces of the server's insides that must never reach a client: stack frames, source files, folders. */
const INSIDES = /node_modules|\/work\/|\/src\/|\.ts:\d+|\bat [\w.<>]+ \(|stacktrace/;

/** A client error in the service's shape: REST `{code, message[, errors]}`, or GraphQL `{errors: [{message, extensions}]}`. */
export function expectClientError(reply: { status: number; body: any; text?: string }, status?: number) {
  const context = JSON.stringify(reply.body).slice(0, 300);
  if (status !== undefined) expect(reply.status, context).toBe(status);
  expect(reply.status, context).toBeGreaterThanOrEqual(400);
  expect(reply.status, context).toBeLessThan(500);
  const body = reply.body;
  if (Array.isArray(body?.errors) && body.code === undefined) {
    expect(body.errors.length, context).toBeGreaterThan(0);
    for (const error of body.errors) {
      expect(typeof error.message, context).toBe('string');
      expect(error.extensions?.stacktrace, context).toBeUndefined();
    }
  } else {
    expect(body, context).toMatchObject({ code: reply.status, message: expect.any(String) });
    if (body.errors !== undefined) {
      expect(body.errors.length, context).toBeGreaterThan(0);
      for (const error of body.errors) expect(error, context).toEqual({ location: expect.any(String), message: expect.any(String) });
    }
  }
  expect(reply.text ?? JSON.stringify(body)).not.toMatch(INSIDES);
}
