// AI script summary use cases of the REST routes: script templates (any key of the organization reads, as the
// WordPress plugin lists them with its project key; organization keys write), a project's summarization settings,
// and summarizing an item. Answers are wire-shaped and reflect the command.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { reachableProject } from '../http/auth.ts';
import { organizationResourceActions } from '../shared/crud/actions.ts';
import { notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
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

export function summaryTemplateActions(services: Services) {
  return organizationResourceActions(
    services,
    { find: findSummaryTemplate, list: listSummaryTemplates, stream: summaryTemplateStream, projection: summaryTemplatesProjection, toWire: summaryTemplateToWire, summaryToWire: summaryTemplateSummaryToWire },
    createSummaryTemplateHandlers(services.events, services.summarizer),
  );
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
