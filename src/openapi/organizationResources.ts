// The organization-owned resources in the OpenAPI document: the five operations they share, and pronunciation
// rules and speakers (organization keys only).
import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ruleSchemas } from '../pronunciation/commands.ts';
import { ruleDeleteQuery, ruleListQuery, ruleWire } from '../pronunciation/wire.ts';
import { speakerQuery, speakerSchemas } from '../speakers/commands.ts';
import { speakerWire } from '../speakers/wire.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { actionErrors, API_KEY_SCHEME, errors, idempotencyHeaders, json, jsonBody, linksTo, noContent, numericId, readErrors, writeErrors } from './registry.ts';

const security = [{ [API_KEY_SCHEME]: [] }];
const memberParams = z.object({ id: numericId });

type RequestBody = NonNullable<RouteConfig['request']>['body'];

export interface OrganizationResourcePaths {
  /** `/speakers`, `/video_settings_templates`. */
  path: string;
  /** Singular name in operation ids: `Speaker` → `createSpeaker`, `listSpeakers`. */
  name: string;
  tags: string[];
  summaries: Record<'list' | 'create' | 'get' | 'update' | 'remove', string>;
  /** The create body: JSON with its schema, or what else it may be (an upload). */
  create: RequestBody;
  update: z.ZodType;
  answer: z.ZodType;
  list: { query: z.ZodObject; answer?: z.ZodType; description?: string };
  /** Query parameters of the answers that carry one resource. */
  memberQuery?: z.ZodObject;
  deleteQuery?: z.ZodObject;
  /** Project keys read too (they only write with organization keys): reads never answer 403. */
  projectKeysRead?: boolean;
}

/** The five operations of an organization-owned resource, under `/<path>` and `/<path>/{id}`. */
export function registerOrganizationResource(registry: OpenAPIRegistry, resource: OrganizationResourcePaths) {
  const common = { tags: resource.tags, security };
  const collection = resource.path;
  const member = `${collection}/{id}`;
  const { summaries, memberQuery: query } = resource;
  const readRefusals = resource.projectKeysRead ? {} : errors(403);
  const links = linksTo(
    { [`Get${resource.name}`]: `get${resource.name}`, [`Update${resource.name}`]: `update${resource.name}`, [`Delete${resource.name}`]: `delete${resource.name}` },
    { id: '$response.body#/id' },
  );
  registry.registerPath({
    ...common,
    method: 'get',
    path: collection,
    operationId: `list${resource.name}s`,
    summary: summaries.list,
    request: { query: resource.list.query },
    responses: { 200: json(z.array(resource.list.answer ?? resource.answer), resource.list.description ?? 'A page, oldest first'), ...readErrors(), ...readRefusals },
  });
  registry.registerPath({
    ...common,
    method: 'post',
    path: collection,
    operationId: `create${resource.name}`,
    summary: summaries.create,
    request: { headers: idempotencyHeaders, body: resource.create, ...(query ? { query } : {}) },
    responses: { 201: { ...json(resource.answer, 'Created'), links }, ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: member,
    operationId: `get${resource.name}`,
    summary: summaries.get,
    request: { params: memberParams, ...(query ? { query } : {}) },
    responses: { 200: json(resource.answer, 'Found'), ...readErrors(), ...readRefusals },
  });
  registry.registerPath({
    ...common,
    method: 'put',
    path: member,
    operationId: `update${resource.name}`,
    summary: summaries.update,
    request: { params: memberParams, body: jsonBody(resource.update), ...(query ? { query } : {}) },
    responses: { 200: json(resource.answer, 'After the change'), ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'delete',
    path: member,
    operationId: `delete${resource.name}`,
    summary: summaries.remove,
    request: { params: memberParams, ...(resource.deleteQuery ? { query: resource.deleteQuery } : {}) },
    responses: { 204: noContent('Deleted'), ...actionErrors(403) },
  });
}

/** What the operations of a resource only organization keys reach say, by its title ("Speakers"). */
const organizationKeysOnly = (title: string) => {
  const plural = title.toLowerCase();
  return {
    tags: [title],
    summaries: {
      list: `List the organization's ${plural}`,
      create: `Create one of the organization's ${plural}`,
      get: `Get one of the organization's ${plural}`,
      update: `Change one of the organization's ${plural}: fields sent replace the current ones`,
      remove: `Delete one of the organization's ${plural}`,
    },
  };
};

export function registerOrganizationResources(registry: OpenAPIRegistry) {
  registerOrganizationResource(registry, {
    path: '/rules', name: 'PronunciationRule', ...organizationKeysOnly('Pronunciation rules'),
    create: jsonBody(ruleSchemas.create), update: ruleSchemas.update, answer: ruleWire, list: { query: ruleListQuery }, deleteQuery: ruleDeleteQuery,
  });
  registerOrganizationResource(registry, {
    path: '/speakers', name: 'Speaker', ...organizationKeysOnly('Speakers'),
    create: jsonBody(speakerSchemas.create), update: speakerSchemas.update, answer: speakerWire, list: { query: pageQuery.extend(speakerQuery.shape) }, memberQuery: speakerQuery,
  });
}
