// What clients may send to create or update a content filter, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { selectorProblem } from './apply.ts';

export const contentFilterTypes = ['include', 'exclude'] as const;
export const MAX_SELECTOR_LENGTH = 1000;

// Checked by the engine that applies it (css-select through linkedom), so a stored selector always runs.
const selector = z
  .string()
  .trim()
  .min(1)
  .max(MAX_SELECTOR_LENGTH)
  .superRefine((value, context) => {
    const problem = value.length > 0 && value.length <= MAX_SELECTOR_LENGTH ? selectorProblem(value) : null;
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });

const fields = {
  type: z.enum(contentFilterTypes),
  selector,
  enabled: z.boolean(),
};

export const createContentFilterSchema = z.object({ ...fields, enabled: fields.enabled.default(true) });
export const updateContentFilterSchema = z.object(fields).partial();

export type ContentFilterWireFields = z.infer<typeof createContentFilterSchema>;
