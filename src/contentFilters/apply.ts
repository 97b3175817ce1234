// Content filters on a parsed page or body: exclude filters remove what they match, include filters pick the article.
import { parseHTML } from 'linkedom';

/** What applying a filter needs of it; a stored filter (ContentFilterView) is one. */
export interface ContentFilter {
  type: 'include' | 'exclude';
  selector: string;
  enabled: boolean;
}

/** The DOM a filter works on (linkedom's Element and Document are these). */
export interface FilterElement {
  querySelectorAll(selectors: string): ArrayLike<FilterElement> & Iterable<FilterElement>;
  contains(other: FilterElement): boolean;
  remove(): void;
}
export type FilterRoot = Pick<FilterElement, 'querySelectorAll'>;

const enabledSelectors = (filters: readonly ContentFilter[], type: ContentFilter['type']) =>
  filters.filter((filter) => filter.enabled && filter.type === type).map((filter) => filter.selector);

// Stored selectors were checked by this engine; one that it no longer reads matches nothing rather than failing a page.
function matches(root: FilterRoot, selector: string): FilterElement[] {
  try {
    return [...root.querySelectorAll(selector)];
  } catch {
    return [];
  }
}

/** Removes from the tree every element an enabled exclude filter matches (with what it contains). */
export function applyExcludeFilters(root: FilterRoot, filters: readonly ContentFilter[]): void {
  for (const selector of enabledSelectors(filters, 'exclude')) {
    for (const element of matches(root, selector)) element.remove();
  }
}

/** The elements enabled include filters match, in document order, leaving out those inside another match. */
export function includedElements(root: FilterRoot, filters: readonly ContentFilter[]): FilterElement[] {
  const selectors = enabledSelectors(filters, 'include');
  if (selectors.length === 0) return [];
  const matched = new Set(selectors.flatMap((selector) => matches(root, selector)));
  const picked: FilterElement[] = [];
  // In document order an element's descendants follow it directly, so only the last picked can contain the next.
  for (const element of root.querySelectorAll('*')) {
    if (!matched.has(element)) continue;
    const last = picked.at(-1);
    if (last === undefined || !last.contains(element)) picked.push(element);
  }
  return picked;
}

/** Whether any filter of these is an enabled include filter: then the article is what they pick, and nothing else. */
export const hasIncludeFilters = (filters: readonly ContentFilter[]) => enabledSelectors(filters, 'include').length > 0;

const probe = parseHTML('<!doctype html><html><body><p></p></body></html>').document as unknown as FilterRoot;

/** Why the engine that applies filters cannot read a selector, or null when it can. */
export function selectorProblem(selector: string): string | null {
  try {
    probe.querySelectorAll(selector);
    return null;
  } catch (error) {
    return `is not a valid CSS selector: ${error instanceof Error ? error.message : String(error)}`;
  }
}
