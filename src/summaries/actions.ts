// AI script summary use cases of the REST routes: script templates (any key of the organization reads, as the
// WordPress plugin lists them with its project key; organization keys write), a project's summarization settings,
// and summarizing an item. Answers are wire-shaped and reflect the command.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { principalOf, reachableProject, requireOrganizationKey } from '../http/auth.ts';
import { organizationResourceAccess } from '../shared/crud/actions.ts';
import { notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { findContent } from '../content/readModel.ts';
import { NoVoiceError, planGeneration, type PlannedSegment } from '../generation/plan.ts';
import { projectSettingsOf, type ContentSource } from '../generation/source.ts';
import { projectStream } from '../projects/events.ts';
import { projectCatalogue } from '../voices/custom.ts';
import { summaryTemplatesProjection } from '../../projections/summaryTemplates.ts';
import { summarizeSchema } from './commands.ts';
import { summaryTemplateStream } from './events.ts';
import { checkModel, createSummarizationSettingsHandlers, createSummaryTemplateHandlers } from './handlers.ts';
import { findSummaryTemplate, listSummaryTemplates, summarizationSettingsOf } from './readModel.ts';
import { summarizeItem } from './summarize.ts';
import { summarizationSettingsToWire, summarySegmentsToWire, summaryTemplateSummaryToWire, summaryTemplateToWire } from './wire.ts';

export type SummaryTemplateActions = ReturnType<typeof summaryTemplateActions>;
export type SummaryActions = ReturnType<typeof summaryActions>;

export function summaryTemplateActions({ events, read, runner, now, summarizer }: Services) {
  const handlers = createSummaryTemplateHandlers(events, summarizer);
  const access = organizationResourceAccess({ events, read, runner }, findSummaryTemplate, (_, id) => ({ stream: summaryTemplateStream(id), projection: summaryTemplatesProjection }));
  const existing = access.existing;
  const afterWrite = async (organizationId: number, id: number, position: number) => summaryTemplateToWire(await access.afterWrite(organizationId, id, position));

  return {
    async list(ctx: Context, query: Record<string, unknown>) {
      const { organizationId } = principalOf(ctx);
      const page = parseOrThrow(pageQuery, { 'pagination[limit]': query['pagination[limit]'], 'pagination[offset]': query['pagination[offset]'] }, 'Invalid query parameters');
      return (await listSummaryTemplates(read, organizationId, page['pagination[offset]'], page['pagination[limit]'])).map(summaryTemplateSummaryToWire);
    },
    async create(ctx: Context, body: unknown) {
      const { organizationId } = requireOrganizationKey(ctx);
      const { id, position } = await handlers.create(organizationId, body, now());
      return afterWrite(organizationId, id, position);
    },
    async get(ctx: Context, ref: string) {
      return summaryTemplateToWire(await existing(principalOf(ctx).organizationId, ref));
    },
    async update(ctx: Context, ref: string, body: unknown) {
      const { organizationId } = requireOrganizationKey(ctx);
      const found = await existing(organizationId, ref);
      return afterWrite(organizationId, found.id, await handlers.update(organizationId, found.id, body, now()));
    },
    async remove(ctx: Context, ref: string) {
      const { organizationId } = requireOrganizationKey(ctx);
      const found = await existing(organizationId, ref);
      await runner.waitFor(await handlers.remove!(organizationId, found.id, now()));
    },
  };
}

export function summaryActions({ events, read, runner, now, summarizer, voices }: Services) {
  const settings = createSummarizationSettingsHandlers(events, read, summarizer);

  const settingsAnswer = async (projectId: number, organizationId: number) => {
    const current = await summarizationSettingsOf(read, projectId);
    const template = current.templateId ? await findSummaryTemplate(read, organizationId, current.templateId) : null;
    return summarizationSettingsToWire(current, template, summarizer.models());
  };

  /** The summary segments the next generation narrates, with the voices that will read them. */
  const plannedSummary = async (source: ContentSource): Promise<PlannedSegment[]> => {
    const projectEvents = await events.readStream(projectStream(source.projectId));
    const catalogue = await projectCatalogue(events, voices, projectEvents);
    try {
      const plan = planGeneration({ ...source, fields: { ...source.fields, summaryEnabled: true } }, projectSettingsOf(projectEvents), catalogue);
      return plan.summary.filter((segment) => segment.section === 'summary');
    } catch (error) {
      if (error instanceof NoVoiceError) return [];
      throw error;
    }
  };

  return {
    async getSettings(ctx: Context, projectRef: string | undefined) {
      const project = await reachableProject(ctx, read, projectRef);
      return settingsAnswer(project.id, project.organizationId);
    },

    async updateSettings(ctx: Context, projectRef: string | undefined, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      await runner.waitFor(await settings.update(project.id, project.organizationId, body, now()));
      return settingsAnswer(project.id, project.organizationId);
    },

    async summarize(ctx: Context, projectRef: string | undefined, ref: string, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      const item = await findContent(read, project.id, ref);
      if (!item) throw notFound();
      const request = parseOrThrow(summarizeSchema, body ?? {});
      checkModel(summarizer, request.model);
      const at = now();
      const made = await summarizeItem({ events, summarizer }, project.id, item._id, request, { regenerate: true, now: at });
      await runner.waitFor(made.position);
      return summarySegmentsToWire(item._id, await plannedSummary(made.source), at.toISOString());
    },
  };
}
