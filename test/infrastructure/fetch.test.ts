import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressClassOf, refusalOf } from '../../src/infrastructure/fetch/addresses.ts';
import { guardedFetch, MAX_REDIRECTS, type FetchOptions } from '../../src/infrastructure/fetch/fetcher.ts';

let server: Server;
let base: string;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const redirect = (status: number, location: string) => response.writeHead(status, { location }).end();
    const hops = /^\/hops\/(\d+)$/.exec(url.pathname);
    if (hops) return Number(hops[1]) === 0 ? redirect(302, '/ok') : redirect(302, `/hops/${Number(hops[1]) - 1}`);
    switch (url.pathname) {
      case '/ok':
        return response.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
      case '/echo': {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => response.writeHead(200).end(JSON.stringify({ method: request.method, authorization: request.headers.authorization ?? null, body })));
        return;
      }
      case '/to-metadata':
        return redirect(302, 'http://169.254.169.254/latest/meta-data/');
      case '/to-localhost':
        return redirect(302, `http://localhost:${port}/ok`);
      case '/to-file':
        return redirect(302, 'file:///etc/passwd');
      case '/see-other':
        return redirect(303, '/echo');
      case '/same-origin-307':
        return redirect(307, '/echo');
      case '/cross-origin-307':
        return redirect(307, `http://localhost:${port}/echo`);
      case '/declared-big':
        return response.writeHead(200, { 'content-length': 5_000 }).end(Buffer.alloc(5_000));
      case '/streamed-big': {
        response.writeHead(200);
        const timer = setInterval(() => response.write(Buffer.alloc(1_000)), 5);
        response.on('close', () => clearInterval(timer));
        return;
      }
      case '/silent':
        return; // never answers
      default:
        return response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const open: FetchOptions = { maxBytes: 1_000, timeoutMs: 2_000, allowPrivate: true };
const guarded: FetchOptions = { ...open, allowPrivate: false };
const text = async (url: string, options: FetchOptions) => {
  const response = await guardedFetch(url, options);
  let body = '';
  for await (const chunk of response.body) body += String(chunk);
  return { status: response.status, url: response.url, body };
};
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('address classes', () => {
  it.each([
    ['8.8.8.8', null],
    ['2001:4860:4860::8888', null],
    ['127.0.0.1', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['10.0.0.1', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.1.1', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['fd12::1', 'a unique-local address'],
    ['100.64.0.1', 'a carrier-grade NAT (shared) address'],
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['192.0.2.1', 'a reserved address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['168.63.129.16', 'a cloud metadata address'],
    ['100.100.100.200', 'a cloud metadata address'],
    ['::ffff:169.254.169.254', 'a cloud metadata address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['64:ff9b::a9fe:a9fe', 'a cloud metadata address'],
    ['2002:7f00:1::1', 'a loopback address'],
    ['::7f00:1', 'a loopback address'],
  ])('%s is %s', (address, expected) => {
    expect(addressClassOf(address)).toBe(expected);
  });

  it('lifts everything but cloud metadata when private addresses are allowed', () => {
    expect(refusalOf('127.0.0.1', true)).toBeNull();
    expect(refusalOf('10.1.2.3', true)).toBeNull();
    expect(refusalOf('169.254.169.254', true)).toBe('a cloud metadata address');
    expect(refusalOf('127.0.0.1', false)).toBe('a loopback address');
  });
});

describe('guarded fetch', () => {
  it('fetches and follows redirects up to the limit, answering the final URL', async () => {
    expect(await text(`${base}/hops/${MAX_REDIRECTS - 1}`, open)).toEqual({ status: 200, url: `${base}/ok`, body: 'hello' });
    const tooMany = await failure(text(`${base}/hops/${MAX_REDIRECTS}`, open));
    expect(tooMany).toMatchObject({ name: 'FetchError', reason: 'redirects', message: `more than ${MAX_REDIRECTS} redirects, the last to /ok` });
  });

  it('answers a redirect as it is in manual mode', async () => {
    const response = await guardedFetch(`${base}/hops/0`, { ...open, redirect: 'manual' });
    response.body.destroy();
    expect(response).toMatchObject({ status: 302, headers: { location: '/ok' } });
  });

  it('refuses a loopback literal before connecting, naming its class', async () => {
    expect(await failure(text(`${base}/ok`, guarded))).toMatchObject({ reason: 'refused', message: 'refused to connect: 127.0.0.1 is a loopback address' });
    expect(await failure(text(`http://[::1]:${port}/ok`, guarded))).toMatchObject({ reason: 'refused', message: 'refused to connect: ::1 is a loopback address' });
  });

  it('refuses a name whose DNS answer is a loopback address', async () => {
    const refused = await failure(text(`http://localhost:${port}/ok`, guarded));
    expect(refused).toMatchObject({ reason: 'refused' });
    expect((refused as Error).message).toMatch(/^refused to connect: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
  });

  it('checks every redirect target again: cloud metadata stays refused even when private addresses are allowed', async () => {
    expect(await failure(text(`${base}/to-metadata`, open))).toMatchObject({
      reason: 'refused',
      message: 'redirected to http://169.254.169.254/latest/meta-data/; refused to connect: 169.254.169.254 is a cloud metadata address',
    });
    expect(await text(`${base}/to-localhost`, open)).toMatchObject({ status: 200, body: 'hello' });
  });

  it('refuses URLs and redirects that are not http(s)', async () => {
    expect(await failure(text('file:///etc/passwd', open))).toMatchObject({ reason: 'bad-url', message: 'not an http(s) URL: file:///etc/passwd' });
    expect(await failure(text(`${base}/to-file`, open))).toMatchObject({ reason: 'redirects', message: 'redirected to file:///etc/passwd, not an http(s) URL' });
  });

  it('turns a POST into a GET on 303, keeps it on a 307, and keeps credentials on their origin', async () => {
    const post: FetchOptions = { ...open, method: 'POST', body: 'x=1', headers: { authorization: 'Bearer secret' } };
    expect(JSON.parse((await text(`${base}/see-other`, post)).body)).toEqual({ method: 'GET', authorization: 'Bearer secret', body: '' });
    expect(JSON.parse((await text(`${base}/same-origin-307`, post)).body)).toEqual({ method: 'POST', authorization: 'Bearer secret', body: 'x=1' });
    expect(JSON.parse((await text(`${base}/cross-origin-307`, post)).body)).toEqual({ method: 'POST', authorization: null, body: 'x=1' });
  });

  it('refuses bodies past the size limit, declared or streamed', async () => {
    expect(await failure(text(`${base}/declared-big`, open))).toMatchObject({ reason: 'too-large', message: 'the answer is larger than 1000 bytes' });
    expect(await failure(text(`${base}/streamed-big`, open))).toMatchObject({ reason: 'too-large' });
  });

  it('gives up on a server that does not answer in time', async () => {
    const started = Date.now();
    expect(await failure(text(`${base}/silent`, { ...open, timeoutMs: 300 }))).toMatchObject({ reason: 'timeout', message: 'no answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
