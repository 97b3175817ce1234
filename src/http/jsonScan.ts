// Checks of untrusted JSON that never recurse, so no input can overflow the stack: nesting over the raw text, then text, numbers and free-form sizes over the parsed value.
import type { FieldError } from '../shared/errors.ts';

/** Fields whose value is the client's own free-form object: their keys and items are counted together. */
export const FREE_FORM_FIELDS: ReadonlySet<string> = new Set(['metadata', 'headers', 'template', 'request_headers']);

/** A lone surrogate half is not text: it cannot be stored or sent on as UTF-8. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX_LOCATION = 200;
/** Enough to show a client what to fix without echoing a whole hostile body back. */
const MAX_PROBLEMS = 20;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** One open container of the scan: an array's current index, or the span of an object's current key in the text. */
type Step = number | { start: number; end: number };

/**
 * Where the text first opens a container deeper than `maxDepth` (`metadata.a.0`), or null. One pass over the
 * characters with a stack no deeper than the limit; malformed JSON is left for the parser to refuse.
 */
export function tooDeepAt(text: string, maxDepth: number): string | null {
  const steps: Step[] = [];
  let keyStart = -1;
  let keyEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      keyStart = i;
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
      keyEnd = i + 1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (steps.length >= maxDepth) return locationOf(text, steps);
      steps.push(c === OPEN_ARRAY ? 0 : { start: -1, end: -1 });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      steps.pop();
    } else if (c === COLON && steps.length > 0) {
      steps[steps.length - 1] = { start: keyStart, end: keyEnd };
    } else if (c === COMMA && typeof steps[steps.length - 1] === 'number') {
      steps[steps.length - 1] = (steps[steps.length - 1] as number) + 1;
    }
  }
  return null;
}

function locationOf(text: string, steps: Step[]): string {
  const names = steps.map((step) => (typeof step === 'number' ? String(step) : keyText(text.slice(step.start, step.end))));
  return shorten(names.join('.') || 'body');
}

function keyText(quoted: string): string {
  if (quoted.length > MAX_LOCATION) return quoted.slice(1, MAX_LOCATION);
  try {
    return String(JSON.parse(quoted));
  } catch {
    return quoted.slice(1, -1);
  }
}

const shorten = (location: string) => (location.length > MAX_LOCATION ? `${location.slice(0, MAX_LOCATION)}…` : location);

/** What is wrong with one piece of text, if anything. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (UNPAIRED_SURROGATE.test(text)) return 'must be valid Unicode text (it has an unpaired surrogate)';
  return null;
}

interface Node {
  value: unknown;
  key: string;
  parent: Node | null;
  freeForm: FreeForm | null;
}

interface FreeForm {
  node: Node;
  entries: number;
  reported: boolean;
}

/**
 * Problems of a parsed body, each with its location: text with NUL characters or lone surrogates (keys too),
 * numbers too large to be finite (`1e309`), `__proto__` keys, and free-form objects with more than
 * `maxFreeFormEntries` keys and items in all. Walks with an explicit stack.
 */
export function valueProblems(root: unknown, maxFreeFormEntries: number): FieldError[] {
  const problems: FieldError[] = [];
  const report = (node: Node, message: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ location: pathOf(node), message });
  };
  const rootNode: Node = { value: root, key: '', parent: null, freeForm: null };
  const rootProblem = primitiveProblem(root);
  if (rootProblem) report(rootNode, rootProblem);
  // Only containers go on the stack; scalars are checked where they are met.
  const stack: Node[] = typeof root === 'object' && root !== null ? [rootNode] : [];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const node = stack.pop()!;
    const value = node.value as Record<string, unknown>;
    const isArray = Array.isArray(value);
    const keys = isArray ? null : Object.keys(value);
    const size = isArray ? value.length : keys!.length;
    if (node.freeForm) {
      node.freeForm.entries += size;
      if (node.freeForm.entries > maxFreeFormEntries && !node.freeForm.reported) {
        node.freeForm.reported = true;
        report(node.freeForm.node, `must have at most ${maxFreeFormEntries} keys and items in all`);
      }
    }
    for (let index = 0; index < size; index++) {
      const key = isArray ? String(index) : keys![index]!;
      const child: Node = { value: value[key], key, parent: node, freeForm: node.freeForm };
      if (!isArray) {
        const keyProblem = key === '__proto__' ? 'is not an allowed key' : textProblem(key);
        if (keyProblem) report(child, keyProblem);
        if (!child.freeForm && FREE_FORM_FIELDS.has(key)) child.freeForm = { node: child, entries: 0, reported: false };
      }
      if (typeof child.value === 'object' && child.value !== null) {
        stack.push(child);
      } else {
        const problem = primitiveProblem(child.value);
        if (problem) report(child, problem);
      }
    }
  }
  return problems;
}

function primitiveProblem(value: unknown): string | null {
  if (typeof value === 'string') return textProblem(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return 'must be a finite number';
  return null;
}

function pathOf(node: Node): string {
  const keys: string[] = [];
  for (let at: Node | null = node; at?.parent; at = at.parent) keys.push(textProblem(at.key) ? JSON.stringify(at.key) : at.key);
  return shorten(keys.reverse().join('.') || 'body');
}
