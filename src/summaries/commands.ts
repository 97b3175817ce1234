// What clients may send for AI script summaries: templates, a project's summarization settings and a summarize
// request, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { positiveId } from '../shared/wireSchemas.ts';
import { slug } from '../videoTemplates/commands.ts';

export const prompt = z.string().trim().min(1).max(1000).describe('The instruction a generative model follows (the extractive model has none to follow)');
export const model = z.string().trim().min(1).max(100).describe('`extractive` (always offered), or the generative model the service is configured with');
export const temperature = z.number().min(0).max(2).describe('0 deterministic to 2 very random; generative models only');
export const limitTokenUsage = z.number().int().min(1).max(3000).describe('The most tokens the summary may take');

const templateFields = {
  name: z.string().trim().min(1).max(100),
  slug: slug.describe('A short name for clients; made from `name` when left out'),
  prompt: prompt.nullable(),
  model: model.nullable(),
  temperature: temperature.nullable(),
  limit_token_usage: limitTokenUsage.nullable(),
};

export const summaryTemplateSchemas = {
  create: z.object({
    ...templateFields,
    slug: templateFields.slug.optional(),
    prompt: templateFields.prompt.default(null),
    model: templateFields.model.default(null),
    temperature: templateFields.temperature.default(null),
    limit_token_usage: templateFields.limit_token_usage.default(null),
  }),
  update: z.object(templateFields).partial(),
};
export type SummaryTemplateWireFields = z.infer<typeof summaryTemplateSchemas.create>;

export const summarizationSettingsSchema = z
  .object({
    enabled: z.boolean().describe("Items get an AI summary when they are narrated (an item's own `summarization_settings.enabled` first)"),
    model: model.nullable(),
    prompt: prompt.nullable(),
    temperature: temperature.nullable(),
    limit_token_usage: limitTokenUsage.nullable(),
    template: z.object({ id: positiveId }).nullable().describe("A script template of the organization: it gives what these settings leave null"),
  })
  .partial();
export type SummarizationSettingsWire = z.infer<typeof summarizationSettingsSchema>;

export const summarizeSchema = z
  .object({ model, prompt, temperature, limit_token_usage: limitTokenUsage })
  .partial()
  .meta({ id: 'SummarizeRequest', description: "Each field left out comes from the item's summarization settings, its template, the project's settings and template, then the defaults" });
export type SummarizeWire = z.infer<typeof summarizeSchema>;
