// What clients may send to create or update a pronunciation rule, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { languageCode, positiveId } from '../shared/wireSchemas.ts';

/** The rule types this service speaks. */
export const ruleTypes = ['substitute', 'say_as_word', 'say_as_letter_sequence', 'ipa_transcription'] as const;
export type RuleType = (typeof ruleTypes)[number];

/** Types of the interface that need a voice none of the installed engines has: refused with a 422 saying so. */
export const unvoicedRuleTypes: Record<string, string> = {
  pinyin_transcription: 'pinyin transcriptions need a Mandarin Chinese voice, and no installed voice speaks Mandarin with pinyin input',
  jyutping_transcription: 'jyutping transcriptions need a Cantonese voice, and no installed voice speaks Cantonese with jyutping input',
};

export const MAX_RULE_TEXT = 100;
export const MAX_REPLACEMENT = 200;

/** `say_as_*` rules say the written text in another way: they take no replacement. */
export const needsReplacement = (type: RuleType) => type === 'substitute' || type === 'ipa_transcription';

/** Every type the interface names; the unvoiced ones are refused with their reason. */
const ruleType = z
  .enum([...ruleTypes, ...(Object.keys(unvoicedRuleTypes) as ['pinyin_transcription', 'jyutping_transcription'])])
  .superRefine((value, ctx) => {
    const unvoiced = unvoicedRuleTypes[value];
    if (unvoiced) ctx.addIssue({ code: 'custom', message: `is not supported: ${unvoiced}` });
  })
  .transform((value) => value as RuleType);

/** Words as a text's whitespace tokens are matched, without brackets (a written word's brackets are punctuation around it). */
const WORDS = /^[^\s[\]]+( [^\s[\]]+)*$/u;

const fields = {
  project: z.object({ id: positiveId }).nullable().describe('The project the rule applies to; null: every project of the organization'),
  content_id: z.string().trim().min(1).max(255).nullable().describe("One item of the project (its UUID, source id or legacy id): the rule applies to that item only. Answers carry the item's UUID"),
  language: languageCode.nullable().describe('The language the rule applies to (`en`, `en_GB`); null: every language'),
  type: ruleType,
  text: z
    .string()
    .trim()
    .min(1)
    .max(MAX_RULE_TEXT)
    .refine((text) => WORDS.test(text), 'must be one or more words separated by single spaces, without brackets')
    .meta({ pattern: WORDS.source })
    .describe('The written word or words the rule matches, as whole words'),
  replacement: z
    .string()
    .trim()
    .min(1)
    .max(MAX_REPLACEMENT)
    .nullable()
    .describe(
      'What is said instead: the substitute text (said as any text is, brackets included: never phoneme input), or the IPA transcription (brackets or slashes around it dropped); null for `say_as_word` and `say_as_letter_sequence`',
    ),
  case_sensitive: z.boolean(),
  enabled: z.boolean(),
};

/** Not stored: asks the service to generate again every processed item whose text the change affects. */
const regenerateAffected = z.boolean().default(false).describe('Also regenerate the narration of every processed item the rule (before or after the change) applies to');

export const ruleSchemas = {
  create: z.object({
    ...fields,
    project: fields.project.default(null),
    content_id: fields.content_id.default(null),
    language: fields.language.default(null),
    replacement: fields.replacement.default(null),
    case_sensitive: fields.case_sensitive.default(false),
    enabled: fields.enabled.default(true),
    regenerate_affected: regenerateAffected,
  }),
  update: z.object(fields).partial().extend({ regenerate_affected: regenerateAffected }),
};

export type RuleWireFields = Omit<z.infer<typeof ruleSchemas.create>, 'regenerate_affected'>;
