// The organization's pronunciation rules and speakers in the OpenAPI document (organization keys only).
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ruleSchemas } from '../pronunciation/commands.ts';
import { ruleDeleteQuery, ruleListQuery, ruleWire } from '../pronunciation/wire.ts';
import { speakerQuery, speakerSchemas } from '../speakers/commands.ts';
import { speakerWire } from '../speakers/wire.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { actionErrors, API_KEY_SCHEME, errors, idempotencyHeaders, json, jsonBody, linksTo, noContent, numericId, readErrors, writeErrors } from './registry.ts';

const security = [{ [API_KEY_SCHEME]: [] }];
const memberParams = z.object({ id: numericId });

interface Resource {
  path: string;
  name: string;
  title: string;
  create: z.ZodType;
  update: z.ZodType;
  answer: z.ZodType;
  listQuery: z.ZodObject;
  /** Query parameters of the answers that carry one resource. */
  memberQuery?: z.ZodObject;
  deleteQuery?: z.ZodObject;
}

function registerResource(registry: OpenAPIRegistry, resource: Resource) {
  const common = { tags: [resource.title], security };
  const collection = `/${resource.path}`;
  const member = `${collection}/{id}`;
  const title = resource.title.toLowerCase();
  const query = resource.memberQuery;
  const links = linksTo(
    { [`Get${resource.name}`]: `get${resource.name}`, [`Update${resource.name}`]: `update${resource.name}`, [`Delete${resource.name}`]: `delete${resource.name}` },
    { id: '$response.body#/id' },
  );
  registry.registerPath({
    ...common,
    method: 'get',
    path: collection,
    operationId: `list${resource.name}s`,
    summary: `List the organization's ${title}`,
    request: { query: resource.listQuery },
    responses: { 200: json(z.array(resource.answer), 'A page, oldest first'), ...readErrors(), ...errors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'post',
    path: collection,
    operationId: `create${resource.name}`,
    summary: `Create one of the organization's ${title}`,
    request: { headers: idempotencyHeaders, body: jsonBody(resource.create), ...(query ? { query } : {}) },
    responses: { 201: { ...json(resource.answer, 'Created'), links }, ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: member,
    operationId: `get${resource.name}`,
    summary: `Get one of the organization's ${title}`,
    request: { params: memberParams, ...(query ? { query } : {}) },
    responses: { 200: json(resource.answer, 'Found'), ...readErrors(), ...errors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'put',
    path: member,
    operationId: `update${resource.name}`,
    summary: `Change one of the organization's ${title}: fields sent replace the current ones`,
    request: { params: memberParams, body: jsonBody(resource.update), ...(query ? { query } : {}) },
    responses: { 200: json(resource.answer, 'After the change'), ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'delete',
    path: member,
    operationId: `delete${resource.name}`,
    summary: `Delete one of the organization's ${title}`,
    request: { params: memberParams, ...(resource.deleteQuery ? { query: resource.deleteQuery } : {}) },
    responses: { 204: noContent('Deleted'), ...actionErrors(403) },
  });
}

export function registerOrganizationResources(registry: OpenAPIRegistry) {
  registerResource(registry, {
    path: 'rules', name: 'PronunciationRule', title: 'Pronunciation rules',
    create: ruleSchemas.create, update: ruleSchemas.update, answer: ruleWire, listQuery: ruleListQuery, deleteQuery: ruleDeleteQuery,
  });
  registerResource(registry, {
    path: 'speakers', name: 'Speaker', title: 'Speakers',
    create: speakerSchemas.create, update: speakerSchemas.update, answer: speakerWire, listQuery: pageQuery.extend(speakerQuery.shape), memberQuery: speakerQuery,
  });
}
