// The OpenAPI document: generated and committed, well formed, served with its docs page, naming the methods each path answers.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiJson } from '../../src/openapi/document.ts';
import { ROOT, startServer, type TestServer } from '../support/server.ts';

const committedText = readFileSync(path.join(ROOT, 'schema/openapi.json'), 'utf8');
const document = JSON.parse(committedText);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

const operations = () =>
  Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item as Record<string, any>)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ template, method, operation })),
  );

/** A concrete path for a template: numbers for numeric parameters, a word for the others. */
const concrete = (template: string, operation: any) =>
  `/v1${template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = operation.parameters.find((candidate: any) => candidate.in === 'path' && candidate.name === name);
    return parameter.schema.type === 'integer' ? '1' : 'missing-item';
  })}`;

describe('the OpenAPI document', () => {
  it('is the one the code generates: schema/openapi.json is not stale', () => {
    expect(openApiJson() === committedText, 'schema/openapi.json is stale: run npm run schema').toBe(true);
  });

  it('is OpenAPI 3.1 with unique operation ids, an API key on every keyed operation and links that resolve', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.ApiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }));
    expect(document.components.securitySchemes.ApiKeyQuery).toEqual(expect.objectContaining({ type: 'apiKey', in: 'query', name: 'api_key' }));
    const all = operations();
    const ids = all.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const byId = new Map(all.map((entry) => [entry.operation.operationId, entry]));
    for (const { template, method, operation } of all) {
      const name = `${method} ${template}`;
      // Players post their events from any page, with no key.
      const isPublic = /\/player\/|\/podcast\//.test(template) || template === '/analytics/events';
      // A publishing platform calls its posts webhook with the key in the URL it was given (`?api_key=`).
      const keyInQuery = template === '/projects/{project_id}/integrations/cms/posts';
      expect(operation.security, name).toEqual(isPublic ? [] : [{ [keyInQuery ? 'ApiKeyQuery' : 'ApiKey']: [] }]);
      for (const error of template === '/analytics/events' ? [422, 429] : [404, 422, 429]) expect(operation.responses[error]?.content['application/json'].schema, `${name} ${error}`).toEqual({ $ref: '#/components/schemas/Error' });
      if (!isPublic) expect(operation.responses[401], name).toBeDefined();
      if (operation.requestBody) for (const status of [413, 415]) expect(operation.responses[status], `${name} ${status}`).toBeDefined();
      for (const response of Object.values(operation.responses) as any[]) {
        for (const [linkName, link] of Object.entries(response.links ?? {}) as [string, any][]) {
          const target = byId.get(link.operationId);
          expect(target, `${name} link ${linkName}`).toBeDefined();
          const pathParameters = target!.operation.parameters.filter((parameter: any) => parameter.in === 'path').map((parameter: any) => parameter.name);
          expect(Object.keys(link.parameters).sort(), `${name} link ${linkName}`).toEqual(pathParameters.sort());
        }
      }
    }
  });

  it('compiles every schema it holds with a JSON Schema 2020-12 validator', () => {
    const require = createRequire(import.meta.url);
    const Ajv2020 = require('ajv/dist/2020').default;
    const ajv = new Ajv2020({ strict: false });
    require('ajv-formats').default(ajv);
    ajv.addSchema({ $id: 'doc.json', components: document.components });
    for (const name of Object.keys(document.components.schemas)) expect(() => ajv.getSchema(`doc.json#/components/schemas/${name}`), name).not.toThrow();
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['ContentItem', 'Segment', 'MediaFile', 'Project', 'PlayerData', 'Webhook', 'Ad', 'AccessTier', 'Playlist', 'ContentFilter', 'PodcastSettings', 'Voice', 'Language', 'Error', 'CmsIntegration', 'ScriptTemplate', 'SummarizationSettings']),
    );
  });
});

describe('the document and docs page, served', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('serves the committed document at /v1/openapi.json without a key', async () => {
    const reply = await server.request('GET', '/v1/openapi.json', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('application/json');
    expect(reply.body).toEqual(document);
  });

  it('serves a Swagger UI page at /v1/docs from the installed package, pointing at the document', async () => {
    const page = await server.request('GET', '/v1/docs', { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const scripts = [...String(page.body).matchAll(/src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts).toEqual(['/v1/docs/swagger-ui-bundle.js', '/v1/docs/swagger-ui-standalone-preset.js', '/v1/docs/initializer.js']);
    const packaged = readFileSync(path.join(ROOT, 'node_modules/swagger-ui-dist/swagger-ui-bundle.js'), 'utf8');
    const bundle = await fetch(`${server.baseUrl}/v1/docs/swagger-ui-bundle.js`);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect(await bundle.text()).toBe(packaged);
    const css = await fetch(`${server.baseUrl}/v1/docs/swagger-ui.css`);
    expect(css.headers.get('content-type')).toContain('text/css');
    expect(await (await fetch(`${server.baseUrl}/v1/docs/initializer.js`)).text()).toContain('"/v1/openapi.json"');
    for (const unknown of ['/v1/docs/package.json', '/v1/docs/..%2Fpackage.json', '/v1/docs/absolute-path.js']) {
      const reply = await server.request('GET', unknown, { key: null });
      expect(reply.status, unknown).toBe(404);
    }
  });

  it('lists, for every documented path, exactly the methods the service answers there', async () => {
    const documented = new Map<string, { sample: string; methods: Set<string> }>();
    for (const { template, method, operation } of operations()) {
      const entry = documented.get(template) ?? { sample: concrete(template, operation), methods: new Set() };
      entry.methods.add(method.toUpperCase());
      documented.set(template, entry);
    }
    // A sample path may match several templates (`content/batch_delete` is also `content/{id}`): their methods together.
    // HEAD comes with GET, OPTIONS is the CORS preflight of public routes: neither is an operation.
    const patternOf = (template: string) => new RegExp(`^/v1${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [template, { sample }] of documented) {
      const expected = new Set([...documented].filter(([other]) => patternOf(other).test(sample)).flatMap(([, entry]) => [...entry.methods]));
      const reply = await server.request('PATCH', sample);
      expect(reply.status, `PATCH ${template}`).toBe(405);
      const allowed = new Set((reply.headers.get('allow') ?? '').split(',').map((method) => method.trim()).filter((method) => method && method !== 'HEAD' && method !== 'OPTIONS'));
      expect([...allowed].sort(), template).toEqual([...expected].sort());
    }
  });
});
