// What a `$regex` pattern stands for when it is plain text escaped by the caller: a substring or a prefix, which indexes can serve.

const ESCAPABLE = new Set('.*+?^${}()|[]\\/-'.split(''));
const SPECIAL = new Set('.*+?^${}()|[]\\'.split(''));

export interface RegexLiteral {
  /** `contains`: the text anywhere; `prefix`: a leading `^`, the text at the start. */
  kind: 'contains' | 'prefix';
  text: string;
}

/** The literal a pattern matches, or null when it uses any regular-expression feature beyond escapes and a leading `^`. */
export function regexLiteral(pattern: string): RegexLiteral | null {
  const anchored = pattern.startsWith('^');
  let text = '';
  for (let i = anchored ? 1 : 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') {
      const next = pattern[++i];
      if (next === undefined || !ESCAPABLE.has(next)) return null;
      text += next;
    } else if (SPECIAL.has(char)) {
      return null;
    } else {
      text += char;
    }
  }
  return { kind: anchored ? 'prefix' : 'contains', text };
}

/**
 * The smallest string above every string that starts with `prefix`, in code-point order (SQLite's
 * BINARY order of UTF-8), or null when there is none worth computing.
 */
export function prefixUpperBound(prefix: string): string | null {
  const points = [...prefix];
  const last = points.pop()?.codePointAt(0);
  if (last === undefined || last === 0x10ffff) return null;
  // Surrogate code points never occur in UTF-8 text: the next one after U+D7FF is U+E000.
  return points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
}

const compiled = new Map<string, RegExp>();
const CACHED_PATTERNS = 256;

/** A MongoDB `$regex` tested on a value in JavaScript, as the in-process store tests it; only strings match. */
export function regexMatches(pattern: string, flags: string, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const key = `${flags}/${pattern}`;
  let regex = compiled.get(key);
  if (!regex) {
    regex = new RegExp(pattern, flags);
    if (compiled.size >= CACHED_PATTERNS) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, regex);
  }
  return regex.test(value);
}
