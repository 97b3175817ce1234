// Turns zod failures into the 422 error shape: one {location, message} per problem, in plain words.
import type { z } from 'zod';
import { invalid, type AppError, type FieldError } from './errors.ts';

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, message = 'Invalid request body'): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(result.error, input, message);
}

export function validationError(error: z.ZodError, input: unknown, message = 'Invalid request body'): AppError {
  return invalid(
    error.issues.map((issue) => toFieldError(issue, input)),
    message,
  );
}

function toFieldError(issue: z.core.$ZodIssue, input: unknown): FieldError {
  const location = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
  return { location, message: missing ? 'is required' : describe(issue) };
}

const valueAt = (input: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>((value, key) => (typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined), input);

const unit = (origin: string) => (origin === 'string' ? ' characters' : origin === 'array' ? ' items' : '');

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected === 'int' ? 'integer' : issue.expected)}`;
    case 'too_small':
      return issue.origin === 'number' || issue.origin === 'int'
        ? `must be greater than ${issue.inclusive === false ? '' : 'or equal to '}${String(issue.minimum)}`
        : `must have at least ${String(issue.minimum)}${unit(issue.origin)}`;
    case 'too_big':
      return issue.origin === 'number' || issue.origin === 'int'
        ? `must be less than or equal to ${String(issue.maximum)}`
        : `must have at most ${String(issue.maximum)}${unit(issue.origin)}`;
    case 'invalid_format':
      return formatMessage(issue.format, 'pattern' in issue ? issue.pattern : undefined);
    case 'invalid_value':
      return `must be one of: ${issue.values.map((value) => String(value)).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return issue.message;
  }
}

function formatMessage(format: string, pattern: string | undefined): string {
  switch (format) {
    case 'url':
      return 'must be a valid http(s) URL';
    case 'datetime':
      return 'must be an ISO 8601 date-time';
    case 'date':
      return 'must be a date (yyyy-mm-dd)';
    case 'regex':
      return `must match ${pattern ?? 'the expected pattern'}`;
    default:
      return `must be a valid ${format}`;
  }
}

const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);
