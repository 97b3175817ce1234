// Pronunciation rule use cases of the REST routes (organization keys): answers are wire-shaped and reflect the command.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { requireOrganizationKey } from '../http/auth.ts';
import { baseUrlOf } from '../http/public.ts';
import { findContent, CONTENT_ITEMS, type ContentItemView } from '../content/readModel.ts';
import { phraseFilter } from '../content/search.ts';
import { findProject, PROJECTS, type ProjectView } from '../projects/readModel.ts';
import { organizationResourceAccess } from '../shared/crud/actions.ts';
import { camelKeys } from '../shared/caseMapping.ts';
import { AppError, invalid, type FieldError } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { pronunciationRulesProjection } from '../../projections/pronunciationRules.ts';
import { ruleSchemas } from './commands.ts';
import { pronunciationStream, type RuleFields } from './events.ts';
import { createRuleHandlers } from './handlers.ts';
import { findRule, listRules, type RuleView } from './readModel.ts';
import { ruleDeleteQuery, ruleListQuery, ruleToWire } from './wire.ts';

type WireBody = { project?: { id: number } | null; contentId?: string | null; regenerateAffected: boolean } & Partial<Omit<RuleFields, 'projectId' | 'contentId'>>;

export type RuleActions = ReturnType<typeof ruleActions>;

export function ruleActions(services: Services) {
  const { events, read, runner, now, content } = services;
  const handlers = createRuleHandlers(events);

  const access = organizationResourceAccess({ events, read, runner }, findRule, (organizationId) => ({ stream: pronunciationStream(organizationId), projection: pronunciationRulesProjection }));
  const existing = access.existing;
  const afterWrite = async (ctx: Context, organizationId: number, id: number, position: number) =>
    ruleToWire(await access.afterWrite(organizationId, id, position), baseUrlOf(ctx, services.publicBaseUrl));

  /** The stored scope of a body: the project must be the organization's, the item the project's (stored by UUID). */
  const scopeOf = async (organizationId: number, body: WireBody, current: RuleView | null): Promise<Partial<RuleFields>> => {
    const scope: Partial<RuleFields> = {};
    const errors: FieldError[] = [];
    if (body.project !== undefined) {
      const project = body.project ? await findProject(read, body.project.id) : null;
      if (body.project && project?.organizationId !== organizationId) errors.push({ location: 'project.id', message: 'names no project of this organization' });
      scope.projectId = body.project?.id ?? null;
    }
    const projectId = scope.projectId !== undefined ? scope.projectId : (current?.projectId ?? null);
    if (body.contentId) {
      const item = projectId !== null && errors.length === 0 ? await findContent(read, projectId, body.contentId) : null;
      if (projectId !== null && !item) errors.push({ location: 'content_id', message: 'names no content item of the rule\'s project' });
      scope.contentId = item?._id ?? body.contentId;
    } else if (body.contentId === null) {
      scope.contentId = null;
    } else if (scope.projectId !== undefined && current?.contentId) {
      // Moving a rule to another project leaves its item behind.
      if (scope.projectId !== current.projectId) scope.contentId = null;
    }
    if (errors.length > 0) throw invalid(errors);
    return scope;
  };

  const fieldsOf = (body: WireBody): Partial<RuleFields> => {
    const { project: _project, contentId: _contentId, regenerateAffected: _regenerate, ...rest } = body;
    return rest;
  };

  /** Asks for a new generation of every processed item in the rule's scope whose title or body holds its words. */
  const regenerateAffected = async (organizationId: number, rules: Pick<RuleFields, 'projectId' | 'contentId' | 'text'>[]) => {
    const affected = new Map<string, number>();
    for (const rule of rules) {
      const projects = rule.projectId !== null ? [rule.projectId] : (await read.collection<ProjectView>(PROJECTS).find({ organizationId })).map((project) => project.id);
      const items = read.collection<ContentItemView>(CONTENT_ITEMS);
      for (const projectId of projects) {
        const scope = { projectId, status: 'processed', ...(rule.contentId ? { _id: rule.contentId } : {}) };
        for (const field of ['searchText.title', 'searchText.body']) {
          for (const item of await items.find({ ...scope, [field]: phraseFilter(rule.text) })) affected.set(item._id, item.projectId);
        }
      }
    }
    for (const [contentId, projectId] of affected) {
      // An item deleted meanwhile has nothing left to regenerate.
      await content.regenerate(projectId, contentId, now()).catch((error: unknown) => {
        if (!(error instanceof AppError && error.kind === 'NotFound')) throw error;
      });
    }
  };

  return {
    async list(ctx: Context, query: Record<string, unknown>) {
      const { organizationId } = requireOrganizationKey(ctx);
      const q = parseOrThrow(ruleListQuery, query, 'Invalid query parameters');
      const rules = await listRules(read, organizationId, {
        projectId: q['filter[project.id]'],
        language: q['filter[language]'],
        type: q['filter[type]'],
        offset: q['pagination[offset]'],
        limit: q['pagination[limit]'],
      });
      return rules.map((rule) => ruleToWire(rule, baseUrlOf(ctx, services.publicBaseUrl)));
    },

    async create(ctx: Context, body: unknown) {
      const { organizationId } = requireOrganizationKey(ctx);
      const wire = camelKeys<WireBody>(parseOrThrow(ruleSchemas.create, body));
      const fields = { ...fieldsOf(wire), ...(await scopeOf(organizationId, wire, null)) } as RuleFields;
      const { id, position } = await handlers.create(organizationId, fields, now());
      if (wire.regenerateAffected) await regenerateAffected(organizationId, [fields]);
      return afterWrite(ctx, organizationId, id, position);
    },

    async get(ctx: Context, ref: string) {
      const { organizationId } = requireOrganizationKey(ctx);
      return ruleToWire(await existing(organizationId, ref), baseUrlOf(ctx, services.publicBaseUrl));
    },

    async update(ctx: Context, ref: string, body: unknown) {
      const { organizationId } = requireOrganizationKey(ctx);
      const found = await existing(organizationId, ref);
      const wire = camelKeys<WireBody>(parseOrThrow(ruleSchemas.update, body));
      const changes = { ...fieldsOf(wire), ...(await scopeOf(organizationId, wire, found)) };
      const position = await handlers.update(organizationId, found.id, changes, now());
      if (wire.regenerateAffected) await regenerateAffected(organizationId, [found, { ...found, ...changes }]);
      return afterWrite(ctx, organizationId, found.id, position);
    },

    async remove(ctx: Context, ref: string, query: Record<string, unknown>) {
      const { organizationId } = requireOrganizationKey(ctx);
      const { regenerate_affected: regenerate } = parseOrThrow(ruleDeleteQuery, query, 'Invalid query parameters');
      const found = await existing(organizationId, ref);
      await runner.waitFor(await handlers.remove(organizationId, found.id, now()));
      if (regenerate) await regenerateAffected(organizationId, [found]);
    },
  };
}
