// The selectors content filters accept, and how they are matched in time linear in the page.
// css-select (through linkedom) walks the ancestors again for every descendant combinator, so `main div div div` on
// 500 nested divs took minutes; here a selector is cut into compound selectors, each matched once by linkedom over
// the whole tree, and the combinators are followed in one walk down the tree that carries which compounds an
// element's parent and ancestors matched.
import { parseHTML } from 'linkedom';

/** The DOM a selector is matched in (linkedom's Element and Document are these). */
export interface SelectorRoot {
  querySelectorAll(selectors: string): Iterable<SelectorElement>;
  readonly children: ArrayLike<SelectorElement>;
}
export type SelectorElement = SelectorRoot;

type Combinator = ' ' | '>';
/** A complex selector: compounds joined by combinators (`combinators[i]` joins compounds i and i + 1). */
interface Chain {
  compounds: string[];
  combinators: Combinator[];
}

const probe = parseHTML('<!doctype html><html><body><p></p></body></html>').document as unknown as SelectorRoot;

// What linkedom evaluates in time growing with the square of the page (siblings are found by walking the parent's
// children; `:has` and `:contains` walk every descendant): 10,000 paragraphs kept `p + p` busy for 20 s.
const SLOW_PARTS: [RegExp, string][] = [
  [/:(?:first|last|only)-(?:child|of-type)\b|:nth-/i, 'position pseudo-classes (:first-child, :nth-child(), ...)'],
  [/:has\(/i, ':has()'],
  [/:i?contains\(/i, ':contains()'],
  [/[+~]/, 'sibling combinators (+, ~)'],
];

/**
 * The selector with escapes, quoted strings and attribute conditions blanked out, each character where it was:
 * what is left is its structure, and cuts made in it are cuts in the selector.
 */
const structureOf = (selector: string) =>
  selector
    .replace(/\\[0-9a-f]{1,6}\s?|\\[^]/gi, (escape) => '_'.repeat(escape.length))
    .replace(/"(?:[^"\\]|\\[^])*"|'(?:[^'\\]|\\[^])*'/g, (quoted) => `"${'_'.repeat(quoted.length - 2)}"`)
    .replace(/\[[^\]]*\]/g, (condition) => `[${'_'.repeat(condition.length - 2)}]`);

/** Why the engine that applies filters cannot read a selector, or will not, or null when it can. */
export function selectorProblem(selector: string): string | null {
  try {
    probe.querySelectorAll(selector);
  } catch (error) {
    return `is not a valid CSS selector: ${error instanceof Error ? error.message : String(error)}`;
  }
  const structure = structureOf(selector);
  const slow = SLOW_PARTS.find(([pattern]) => pattern.test(structure));
  if (slow) return `uses ${slow[1]}, which content filters do not support: their cost grows with the square of a page's size`;
  if (chainsOf(structure) === null) return 'uses a combinator inside a pseudo-class (as in :not(.a .b)) or at its start, which content filters do not support';
  const unreadable = parse(selector).flatMap((chain) => chain.compounds).find((compound) => !readable(compound));
  return unreadable === undefined ? null : `cannot be cut into compound selectors at "${unreadable}"`;
}

function readable(compound: string): boolean {
  try {
    probe.querySelectorAll(compound);
    return true;
  } catch {
    return false;
  }
}

interface Cut {
  compounds: [number, number][];
  combinators: Combinator[];
}

const SPACE = /\s/;

/** Whether the whitespace at `at` (inside parentheses) joins two compounds, rather than padding a comma or a parenthesis. */
function joins(structure: string, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && SPACE.test(structure[before]!)) before--;
  let after = at + 1;
  while (after < structure.length && SPACE.test(structure[after]!)) after++;
  return !',('.includes(structure[before] ?? '(') && !',)>'.includes(structure[after] ?? ')');
}

/**
 * The complex selectors of a selector list as cuts of its structure: compounds and the combinators between them,
 * outside parentheses; null when a combinator is inside parentheses or starts a complex selector.
 */
function chainsOf(structure: string): Cut[] | null {
  const chains: Cut[] = [];
  let chain: Cut = { compounds: [], combinators: [] };
  let start = -1;
  let pending: Combinator | null = null;
  let depth = 0;
  const endCompound = (at: number) => {
    if (start >= 0) chain.compounds.push([start, at]);
    start = -1;
  };
  for (let at = 0; at < structure.length; at++) {
    const char = structure[at]!;
    if (depth > 0) {
      if (char === '(') depth++;
      else if (char === ')') depth--;
      else if (char === '>' || (SPACE.test(char) && joins(structure, at))) return null;
      continue;
    }
    if (char === ',' || char === '>' || SPACE.test(char)) {
      endCompound(at);
      if (char === ',') {
        chains.push(chain);
        chain = { compounds: [], combinators: [] };
        pending = null;
      } else if (chain.compounds.length === 0) {
        if (char === '>') return null;
      } else {
        pending = char === '>' ? '>' : (pending ?? ' ');
      }
      continue;
    }
    if (start < 0) {
      if (chain.compounds.length > 0) chain.combinators.push(pending ?? ' ');
      pending = null;
      start = at;
    }
    if (char === '(') depth++;
  }
  endCompound(structure.length);
  chains.push(chain);
  return chains.every((each) => each.compounds.length > 0) ? chains : null;
}

/** The complex selectors of a checked selector, each cut into its compounds. */
function parse(selector: string): Chain[] {
  return (chainsOf(structureOf(selector)) ?? []).map(({ compounds, combinators }) => ({
    compounds: compounds.map(([start, end]) => selector.slice(start, end)),
    combinators,
  }));
}

/** The elements under the root (not the root itself) the selector matches, in document order. */
export function matchSelector(root: SelectorRoot, selector: string): SelectorElement[] {
  const chains = parse(selector);
  const sets = chains.map((chain) => chain.compounds.map((compound) => new Set(root.querySelectorAll(compound))));
  const matched: SelectorElement[] = [];
  type State = { parent: boolean[][]; ancestors: boolean[][] };
  const empty: State = { parent: sets.map((compounds) => compounds.map(() => false)), ancestors: sets.map((compounds) => compounds.map(() => false)) };
  const stack: [SelectorElement, State][] = Array.from(root.children, (child) => [child, empty] as [SelectorElement, State]).reverse();
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [element, state] = entry;
    const own = chains.map((chain, c) => {
      const hits: boolean[] = [];
      chain.compounds.forEach((_, i) => {
        const linked = i === 0 || (chain.combinators[i - 1] === '>' ? state.parent[c]![i - 1]! : state.ancestors[c]![i - 1]!);
        hits.push(linked && sets[c]![i]!.has(element));
      });
      return hits;
    });
    if (own.some((hits) => hits.at(-1))) matched.push(element);
    const next: State = { parent: own, ancestors: own.map((hits, c) => hits.map((hit, i) => hit || state.ancestors[c]![i]!)) };
    const children = Array.from(element.children);
    for (let index = children.length - 1; index >= 0; index--) stack.push([children[index]!, next]);
  }
  return matched;
}
