// The pronunciation rule's wire format: the zod schema (source of the OpenAPI document), the list query, and the mapping.
import { z } from 'zod';
import { languageCode, queryInt } from '../shared/wireSchemas.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { timestamp, urlText } from '../shared/wireResponses.ts';
import { ruleTypes } from './commands.ts';
import type { RuleView } from './readModel.ts';

export const ruleWire = z
  .object({
    id: z.number().int().min(1),
    project: z.object({ id: z.number().int().min(1) }).nullable().describe('null: the rule applies to every project of the organization'),
    content_id: z.string().nullable().describe('The UUID of the one item the rule applies to; null: every item in scope'),
    language: z.string().nullable().describe('null: every language'),
    type: z.enum(ruleTypes),
    text: z.string().describe('The written word or words the rule matches, as whole words'),
    replacement: z.string().nullable().describe('The substitute text, or the IPA transcription; null for `say_as_word` and `say_as_letter_sequence`'),
    case_sensitive: z.boolean(),
    enabled: z.boolean(),
    preview_status: z.enum(['pending', 'ready', 'error']).describe('The short recording of the rule read in a sentence: `pending` until it is made for the current version of the rule'),
    preview_audio_url: urlText.nullable().describe('An mp3 of the preview once `ready`'),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'PronunciationRule' });
export type RuleWire = z.infer<typeof ruleWire>;

export const ruleListQuery = pageQuery.extend({
  'filter[project.id]': queryInt(1, 999_999_999_999).optional(),
  'filter[language]': languageCode.optional(),
  'filter[type]': z.enum(ruleTypes).optional(),
});

/** `?regenerate_affected=true` on DELETE, as the field of the same name on create and update. */
export const ruleDeleteQuery = z.object({ regenerate_affected: z.enum(['true', 'false']).transform((value) => value === 'true').default(false) });

export const ruleToWire = (rule: RuleView, baseUrl: string): RuleWire => ({
  id: rule.id,
  project: rule.projectId === null ? null : { id: rule.projectId },
  content_id: rule.contentId,
  language: rule.language,
  type: rule.type,
  text: rule.text,
  replacement: rule.replacement,
  case_sensitive: rule.caseSensitive,
  enabled: rule.enabled,
  preview_status: rule.previewStatus,
  preview_audio_url: rule.previewAudioUrl === null ? null : `${baseUrl}${rule.previewAudioUrl}`,
  created: rule.created,
  updated: rule.updated,
});
