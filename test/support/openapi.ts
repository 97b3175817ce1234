// Checks answers against the committed OpenAPI document: operation by method and path, JSON body by the schema of its status.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Ajv2020 as Ajv, ValidateFunction } from 'ajv/dist/2020.js';

// Both are CommonJS packages: required, so their default exports need no interop guessing.
const require = createRequire(import.meta.url);
const Ajv2020 = (require('ajv/dist/2020') as { default: typeof Ajv }).default;
const addFormats = (require('ajv-formats') as { default: (ajv: Ajv) => Ajv }).default;

const DOCUMENT_ID = 'https://narration-service.local/openapi.json';

interface Response {
  content?: Record<string, { schema?: object }>;
}
interface Operation {
  responses: Record<string, Response>;
}
interface Document {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
}

interface Route {
  template: string;
  pattern: RegExp;
  operations: Record<string, Operation>;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Paths with fewer parameters first, so `/content/batch_delete` wins over `/content/{id}`. */
function routesOf(document: Document): Route[] {
  const base = document.servers[0]?.url ?? '';
  return Object.entries(document.paths)
    .map(([template, operations]) => {
      const source = template
        .split(/(\{[^}]+\})/)
        .map((part) => (part.startsWith('{') ? '([^/]+)' : escapeRegex(part)))
        .join('');
      return { template, pattern: new RegExp(`^${escapeRegex(base)}${source}$`), operations, parameters: (template.match(/\{/g) ?? []).length };
    })
    .sort((a, b) => a.parameters - b.parameters);
}

export function createResponseValidator(root: string) {
  const document = JSON.parse(readFileSync(path.join(root, 'schema/openapi.json'), 'utf8')) as Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
  const routes = routesOf(document);
  const compiled = new Map<string, ValidateFunction>();

  /** A schema of the document, its references pointing into the document's components. */
  const validatorOf = (key: string, schema: object): ValidateFunction => {
    const known = compiled.get(key);
    if (known) return known;
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)) as object);
    compiled.set(key, validate);
    return validate;
  };

  /**
   * The problems of one JSON answer, or an empty list. Answers of paths the document does not describe (GraphQL,
   * media, health) are not checked, except that a /v1 failure must still have the error shape.
   */
  return function problemsOf(method: string, requestPath: string, status: number, body: unknown): string[] {
    const pathname = requestPath.split('?')[0]!;
    const route = routes.find((candidate) => candidate.pattern.test(pathname));
    const operation = route?.operations[method.toLowerCase()];
    if (!route || !operation) {
      if (!pathname.startsWith('/v1/') || status < 400) return [];
      const validate = validatorOf('error', { $ref: '#/components/schemas/Error' });
      return validate(body) ? [] : [`error answer of ${method} ${pathname}: ${ajv.errorsText(validate.errors)}`];
    }
    const name = `${method.toUpperCase()} ${route.template}`;
    const response = operation.responses[String(status)] ?? operation.responses.default;
    if (!response) return [`${name} answered ${status}, which the document does not list`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return [`${name} answered ${status} with a JSON body, which the document does not describe`];
    const validate = validatorOf(`${name} ${status in operation.responses ? status : 'default'}`, schema);
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 10).map((error) => `${name} ${status}: ${error.instancePath || '(body)'} ${error.message}`);
  };
}
