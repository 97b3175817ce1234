// Hostile requests, black box over HTTP: each gets a 4xx in the error shape, the service keeps serving, and all of it holds again after a restart.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir, startServer, uniqueId, type TestServer } from '../support/server.ts';
import { cli, idIn, keyIn } from '../support/cli.ts';
import { expectClientError, rawRequest, type RawOptions, type RawReply } from './raw.ts';

const dataDir = newDataDir();
let server: TestServer;
let victimId = '';
let webhookId = 0;
let healthyCreates = 0;

beforeAll(async () => {
  // A file the media route may serve, and one of a servable type just outside the media folder.
  mkdirSync(path.join(dataDir, 'media'), { recursive: true });
  writeFileSync(path.join(dataDir, 'media', 'inside.mp3'), 'inside');
  writeFileSync(path.join(dataDir, 'secret.mp3'), 'secret');
  server = await startServer({ dataDir, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  const victim = await server.request('POST', '/v1/projects/1/content', { body: { title: 'Victim', body: '<p>Kept.</p>', metadata: { kept: true } } });
  expect(victim.status).toBe(201);
  victimId = victim.body.id;
  const webhook = await server.request('POST', '/v1/projects/1/webhooks', { body: { url: 'http://127.0.0.1:9/hook', headers: { 'X-Kept': 'yes' } } });
  expect(webhook.status).toBe(201);
  webhookId = webhook.body.id;
});
afterAll(() => server.stop());

const send = (method: string, requestPath: string, options?: RawOptions) => rawRequest(server.baseUrl, method, requestPath, options);
const json = (method: string, requestPath: string, body: string | Buffer, headers: Record<string, string> = {}) =>
  send(method, requestPath, { body, headers: { 'content-type': 'application/json', ...headers } });
const graphql = (query: string, variables: Record<string, unknown> = {}) => json('POST', '/graphql', JSON.stringify({ query, variables }));

const DEEP = 10_000;
const deepArrays = '['.repeat(DEEP) + ']'.repeat(DEEP);
const deepObjects = '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP);
const longId = 'x'.repeat(10_000);
const fiftyMegabytes = Buffer.alloc(50 * 1024 * 1024, 'a');
const content = '/v1/projects/1/content';

interface HostileCase {
  name: string;
  send(): Promise<RawReply>;
  /** The exact status when it matters; any 4xx otherwise. */
  status?: number;
  /** A GraphQL field error: answered 200 with `data: null` and the REST status in the error's extensions. */
  graphqlStatus?: number;
}

const aliases = (count: number, selection: string) =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: contents(project_id: 1, pagination: { limit: 100 }) { ${selection} }`).join(' ')} }`;

// Three parts whose name holds control and non-UTF-8 bytes: busboy reports each as a malformed header.
const malformedPart = (value: string) =>
  Buffer.concat([Buffer.from('--b0undary\r\nContent-Disposition: form-data; name="X'), Buffer.from([0x15, 0xf1, 0x97, 0x9d, 0x9e]), Buffer.from(`"\r\n\r\n${value}\r\n`)]);
const malformedParts = Buffer.concat([malformedPart('null'), malformedPart('-4.9e+16'), malformedPart('true'), Buffer.from('--b0undary--\r\n')]);
const multipart = (requestPath: string, body: Buffer) => send('POST', requestPath, { body, headers: { 'content-type': 'multipart/form-data; boundary=b0undary' } });

const hostileCases: HostileCase[] = [
  { name: '10,000-deep arrays in metadata (create)', send: () => json('POST', content, `{"body":"<p>x</p>","metadata":{"a":${deepArrays}}}`), status: 422 },
  { name: '10,000-deep objects in metadata (create)', send: () => json('POST', content, `{"body":"<p>x</p>","metadata":${deepObjects}}`), status: 422 },
  { name: '10,000-deep metadata (update)', send: () => json('PUT', `${content}/${victimId}`, `{"metadata":{"a":${deepArrays}}}`), status: 422 },
  { name: '10,000-deep summarization template', send: () => json('POST', content, `{"body":"<p>x</p>","summarization_settings":{"template":${deepObjects}}}`), status: 422 },
  { name: '10,000-deep video template', send: () => json('POST', content, `{"body":"<p>x</p>","video_settings":{"template":${deepObjects}}}`), status: 422 },
  { name: '10,000-deep request_headers', send: () => json('PUT', '/v1/projects/1', `{"request_headers":${deepObjects}}`), status: 422 },
  { name: '10,000-deep webhook headers (create)', send: () => json('POST', '/v1/projects/1/webhooks', `{"url":"http://127.0.0.1:9/h","headers":${deepObjects}}`), status: 422 },
  { name: '10,000-deep webhook headers (update)', send: () => json('PUT', `/v1/projects/1/webhooks/${webhookId}`, `{"headers":{"X-A":${deepArrays}}}`), status: 422 },
  {
    name: '10,000-deep metadata in GraphQL variables',
    send: () => json('POST', '/graphql', `{"query":"mutation($i: JSONObject!) { createContent(project_id: 1, input: $i) { id } }","variables":{"i":{"body":"<p>x</p>","metadata":${deepObjects}}}}`),
    status: 422,
  },
  { name: '10,000-deep metadata as a GraphQL literal', send: () => graphql(`mutation { createContent(project_id: 1, input: { body: "<p>x</p>", metadata: ${'{ a: '.repeat(DEEP)}1${' }'.repeat(DEEP)} }) { id } }`), status: 400 },
  { name: '40-deep metadata as a GraphQL literal', send: () => graphql(`mutation { createContent(project_id: 1, input: { body: "<p>x</p>", metadata: ${'{ a: '.repeat(40)}1${' }'.repeat(40)} }) { id } }`), status: 400 },
  { name: 'a 50 MB body', send: () => json('POST', content, fiftyMegabytes), status: 413 },
  { name: 'a 50 MB body without a length (chunked)', send: () => send('POST', content, { body: fiftyMegabytes, chunked: true, headers: { 'content-type': 'application/json' } }), status: 413 },
  { name: 'a 50 MB GraphQL body', send: () => json('POST', '/graphql', fiftyMegabytes), status: 413 },
  { name: 'invalid UTF-8', send: () => json('POST', content, Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('","body":"<p>x</p>"}')])), status: 400 },
  { name: 'overlong UTF-8 for "/"', send: () => json('POST', content, Buffer.concat([Buffer.from('{"body":"<p>'), Buffer.from([0xc0, 0xaf]), Buffer.from('</p>"}')])), status: 400 },
  { name: 'an escaped NUL in a title', send: () => json('POST', content, '{"title":"a\\u0000b","body":"<p>x</p>"}'), status: 422 },
  { name: 'a raw NUL byte in a string', send: () => json('POST', content, Buffer.from('{"title":"a\u0000b","body":"<p>x</p>"}')), status: 400 },
  { name: 'a NUL in a metadata key', send: () => json('POST', content, '{"body":"<p>x</p>","metadata":{"a\\u0000":1}}'), status: 422 },
  { name: 'a lone surrogate in the body', send: () => json('POST', content, '{"body":"<p>\\ud800</p>"}'), status: 422 },
  { name: 'a NUL in a GraphQL string literal', send: () => graphql('mutation { createContent(project_id: 1, input: { body: "<p>\\u0000</p>" }) { id } }'), status: 400 },
  { name: '1e309 inside metadata', send: () => json('POST', content, '{"body":"<p>x</p>","metadata":{"n":1e309}}'), status: 422 },
  { name: '-1e309 in a number field', send: () => json('POST', content, '{"body":"<p>x</p>","summarization_settings":{"temperature":-1e309}}'), status: 422 },
  { name: '1e309 in GraphQL variables', send: () => json('POST', '/graphql', '{"query":"mutation($i: JSONObject!) { createContent(project_id: 1, input: $i) { id } }","variables":{"i":{"body":"<p>x</p>","metadata":{"n":1e309}}}}'), status: 422 },
  { name: '1e309 as a GraphQL literal', send: () => graphql('mutation { createContent(project_id: 1, input: { body: "<p>x</p>", metadata: { n: 1e309 } }) { id } }'), status: 400 },
  { name: 'a __proto__ key', send: () => json('POST', content, '{"body":"<p>x</p>","__proto__":{"polluted":true}}'), status: 422 },
  { name: 'a text/plain body', send: () => send('POST', content, { body: '{"body":"<p>x</p>"}', headers: { 'content-type': 'text/plain' } }), status: 415 },
  { name: 'a form-encoded body', send: () => send('POST', content, { body: 'body=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), status: 415 },
  { name: 'a body without a content type', send: () => send('POST', content, { body: '{"body":"<p>x</p>"}' }), status: 415 },
  { name: 'a JSON body in Latin-1', send: () => send('POST', content, { body: '{"body":"<p>x</p>"}', headers: { 'content-type': 'application/json; charset=iso-8859-1' } }), status: 415 },
  { name: 'a gzip-encoded body', send: () => json('POST', content, '{"body":"<p>x</p>"}', { 'content-encoding': 'gzip' }), status: 415 },
  { name: 'a text/plain GraphQL body', send: () => send('POST', '/graphql', { body: '{"query":"{ projects { id } }"}', headers: { 'content-type': 'text/plain' } }), status: 415 },
  { name: 'path traversal: /media/../secret.mp3', send: () => send('GET', '/media/../secret.mp3', { key: null }), status: 404 },
  { name: 'path traversal: /media/..%2fsecret.mp3', send: () => send('GET', '/media/..%2fsecret.mp3', { key: null }), status: 404 },
  { name: 'path traversal: /media/%2e%2e%2fsecret.mp3', send: () => send('GET', '/media/%2e%2e%2fsecret.mp3', { key: null }), status: 404 },
  { name: 'path traversal: /media/%2e%2e/secret.mp3', send: () => send('GET', '/media/%2e%2e/secret.mp3', { key: null }), status: 404 },
  { name: 'path traversal: double-encoded', send: () => send('GET', '/media/%252e%252e%252fsecret.mp3', { key: null }), status: 404 },
  { name: 'path traversal: backslashes', send: () => send('GET', '/media/..%5csecret.mp3', { key: null }), status: 404 },
  { name: 'path traversal: absolute', send: () => send('GET', `/media/${encodeURIComponent(path.join(dataDir, 'secret.mp3'))}`, { key: null }), status: 404 },
  { name: 'path traversal: NUL byte', send: () => send('GET', '/media/inside.mp3%00.txt', { key: null }), status: 400 },
  { name: 'bad percent-encoding in a media path', send: () => send('GET', '/media/%E0%A4%A', { key: null }), status: 400 },
  { name: 'bad percent-encoding in a content id', send: () => send('GET', `${content}/%E0%A4%A`), status: 400 },
  { name: 'bad percent-encoding in player data', send: () => send('GET', '/v1/projects/1/player/by_content_id/%E0%A4%A', { key: null }), status: 400 },
  { name: 'bad percent-encoding in a transcript', send: () => send('GET', '/v1/projects/1/podcast/transcripts/%E0.vtt', { key: null }), status: 400 },
  { name: 'bad percent-encoding in a preview page', send: () => send('GET', '/v1/projects/1/player/preview/%ZZ', { key: null }), status: 400 },
  { name: 'a 10,000-character content id (read)', send: () => send('GET', `${content}/${longId}`), status: 404 },
  { name: 'a 10,000-character content id (update)', send: () => json('PUT', `${content}/${longId}`, '{"title":"x"}'), status: 404 },
  { name: 'a 10,000-character content id (delete)', send: () => send('DELETE', `${content}/${longId}`), status: 404 },
  { name: 'a 10,000-digit project id', send: () => send('GET', `/v1/projects/${'9'.repeat(10_000)}/content`), status: 404 },
  { name: 'a 10,000-character webhook id', send: () => send('GET', `/v1/projects/1/webhooks/${longId}`), status: 404 },
  { name: 'a 10,000-character player id', send: () => send('GET', `/v1/projects/1/player/by_content_id/${longId}`, { key: null }), status: 404 },
  { name: 'a 10,000-character source_id', send: () => json('POST', content, JSON.stringify({ body: '<p>x</p>', source_id: longId })), status: 422 },
  { name: 'a 10,000-character GraphQL id', send: () => graphql(`{ content(project_id: 1, id: "${longId}") { id } }`), graphqlStatus: 404 },
  { name: 'GraphQL selections 10,000 deep', send: () => graphql(`{ ${'contents(project_id: 1) { '.repeat(DEEP)}id${' }'.repeat(DEEP)} }`), status: 400 },
  { name: 'GraphQL selections 12 deep', send: () => graphql(`{ ${'contents(project_id: 1) { '.repeat(12)}id${' }'.repeat(12)} }`), status: 400 },
  { name: 'GraphQL 1,000 aliases of a 100-item list', send: () => graphql(aliases(1000, 'id')), status: 400 },
  { name: 'GraphQL 31 aliases', send: () => graphql(aliases(31, 'id')), status: 400 },
  { name: 'GraphQL over the cost budget', send: () => graphql(aliases(20, 'id body segments metadata')), status: 400 },
  { name: 'GraphQL fragment cycle', send: () => graphql('fragment A on Project { ...A } { projects { ...A } }'), status: 400 },
  { name: 'GraphQL unknown fragment', send: () => graphql('{ projects { ...Nope } }'), status: 400 },
  // A longer URL is refused as too large a header before it reaches the app (the case after next).
  { name: 'GraphQL over GET, 2,000 deep', send: () => send('GET', `/graphql?query=${encodeURIComponent('{'.repeat(2000))}`, { headers: { 'apollo-require-preflight': 'true' } }), status: 400 },
  { name: 'a multipart part header in raw bytes (voice clone)', send: () => multipart('/v1/organization/voices/clone', malformedParts), status: 400 },
  { name: 'a multipart part header in raw bytes (track upload)', send: () => multipart('/v1/background_tracks', malformedParts), status: 400 },
  { name: 'a multipart body of only its closing boundary', send: () => multipart('/v1/background_tracks', Buffer.from('--b0undary--\r\n')), status: 422 },
  { name: 'a 30 kB URL', send: () => send('GET', `${content}/${'x'.repeat(30_000)}`), status: 431 },
  { name: 'a 20 kB header', send: () => send('GET', '/v1/projects/1', { headers: { 'x-padding': 'a'.repeat(20_000) } }), status: 431 },
];

/** A normal create and its read-back, within 5 s. */
async function expectHealthy() {
  const started = Date.now();
  const sourceId = `healthy-${uniqueId()}`;
  const created = await server.request('POST', content, { body: { title: 'Still here', body: '<p>The service still answers.</p>', source_id: sourceId } });
  expect(created.status).toBe(201);
  healthyCreates += 1;
  const read = await server.request('GET', `${content}/${created.body.id}`);
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ id: created.body.id, title: 'Still here', source_id: sourceId });
  expect(Date.now() - started).toBeLessThan(5000);
}

function hostileBatch() {
  for (const hostile of hostileCases) {
    it(`refuses ${hostile.name}, then serves a normal create and read-back`, async () => {
      const reply = await hostile.send();
      if (hostile.graphqlStatus) {
        expect(reply.body).toMatchObject({ data: null, errors: [{ extensions: { status: hostile.graphqlStatus } }] });
        expect(reply.text).not.toMatch(/stacktrace|node_modules/);
      } else {
        expectClientError(reply, hostile.status);
      }
      await expectHealthy();
    });
  }
}

describe('hostile requests', () => {
  hostileBatch();

  it('keeps serving what the refused requests touched, with nothing of them stored', async () => {
    const victim = await server.request('GET', `${content}/${victimId}`);
    expect(victim.body).toMatchObject({ title: 'Victim', metadata: { kept: true } });
    const webhook = await server.request('GET', `/v1/projects/1/webhooks/${webhookId}`);
    expect(webhook.body.headers).toEqual({ 'X-Kept': 'yes' });
    const listed = await server.request('GET', `${content}?pagination[limit]=100`);
    expect(listed.body).toHaveLength(1 + healthyCreates);
    const inside = await send('GET', '/media/inside.mp3', { key: null });
    expect(inside.status).toBe(200);
    expect(inside.text).toBe('inside');
  });

  it('ignores operator objects in filters instead of running them', async () => {
    const all = await server.request('GET', `${content}?pagination[limit]=100`);
    const withOperators = await server.request('GET', `${content}?pagination[limit]=100&filter[title][$ne]=&filter[source_id][$gt]=`);
    expect(withOperators.status).toBe(200);
    expect(withOperators.body).toEqual(all.body);
    const asText = await server.request('GET', `${content}?filter[title]=${encodeURIComponent('{"$ne":""}')}`);
    expect(asText.status).toBe(200);
    expect(asText.body).toEqual([]);
    const gql = await graphql('{ contents(project_id: 1, filter: { title: "{\\"$ne\\": null}" }) { id } }');
    expect(gql.body).toEqual({ data: { contents: [] } });
  });

  it('keeps another project invisible to a project key, whatever the path', async () => {
    const made = await cli(server.env, 'projects', 'create', '--organization', '1', '--name', `Other ${uniqueId()}`);
    expect(made.code, made.stderr).toBe(0);
    const otherKey = keyIn(made.stdout);
    const otherId = idIn(made.stdout, 'project');
    await expect.poll(async () => (await server.request('GET', `/v1/projects/${otherId}`, { key: otherKey })).status, { timeout: 10_000 }).toBe(200);
    for (const probe of ['/v1/projects/1', `${content}/${victimId}`, `/v1/projects/1/webhooks/${webhookId}`, '/v1/projects/%31/content', '/v1/projects/01/content']) {
      expectClientError(await send('GET', probe, { key: otherKey }), 404);
    }
    const viaGraphql = await send('POST', '/graphql', {
      key: otherKey,
      body: JSON.stringify({ query: `{ content(project_id: 1, id: "${victimId}") { id } }` }),
      headers: { 'content-type': 'application/json' },
    });
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ status: 404 });
  });
});

describe('after a restart on the same data directory', () => {
  it('starts, keeps what was stored, and serves a normal create and read-back', async () => {
    await server.stop();
    server = await startServer({ dataDir, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
    const victim = await server.request('GET', `${content}/${victimId}`);
    expect(victim.body).toMatchObject({ title: 'Victim', metadata: { kept: true } });
    await expectHealthy();
  });

  hostileBatch();
});
