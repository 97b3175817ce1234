// Content filters on a parsed page or body: exclude filters remove what they match, include filters pick the article.
import { matchSelector } from './selectors.ts';

/** What applying a filter needs of it; a stored filter (ContentFilterView) is one. */
export interface ContentFilter {
  type: 'include' | 'exclude';
  selector: string;
  enabled: boolean;
}

/** The DOM a filter works on (linkedom's Element and Document are these). */
export interface FilterElement {
  querySelectorAll(selectors: string): ArrayLike<FilterElement> & Iterable<FilterElement>;
  readonly children: ArrayLike<FilterElement>;
  remove(): void;
}
export type FilterRoot = Pick<FilterElement, 'querySelectorAll' | 'children'>;

const enabledSelectors = (filters: readonly ContentFilter[], type: ContentFilter['type']) =>
  filters.filter((filter) => filter.enabled && filter.type === type).map((filter) => filter.selector);

// Stored selectors were checked by this engine; one that it no longer reads matches nothing rather than failing a page.
function matches(root: FilterRoot, selector: string): FilterElement[] {
  try {
    return matchSelector(root, selector) as FilterElement[];
  } catch {
    return [];
  }
}

/** The elements enabled exclude filters match (some may contain others). */
export const excludedElements = (root: FilterRoot, filters: readonly ContentFilter[]): FilterElement[] =>
  enabledSelectors(filters, 'exclude').flatMap((selector) => matches(root, selector));

/** Removes from the tree every element an enabled exclude filter matches (with what it contains). */
export function applyExcludeFilters(root: FilterRoot, filters: readonly ContentFilter[]): void {
  for (const element of excludedElements(root, filters)) element.remove();
}

/** The elements enabled include filters match, in document order, leaving out those inside another match. */
export function includedElements(root: FilterRoot, filters: readonly ContentFilter[]): FilterElement[] {
  const selectors = enabledSelectors(filters, 'include');
  if (selectors.length === 0) return [];
  const matched = new Set(selectors.flatMap((selector) => matches(root, selector)));
  const picked: FilterElement[] = [];
  // Down the tree in document order, with a stack (deep markup cannot overflow it); a picked element's subtree is not entered.
  const stack = Array.from(root.children).reverse();
  for (let element = stack.pop(); element !== undefined; element = stack.pop()) {
    if (matched.has(element)) picked.push(element);
    else {
      const children = Array.from(element.children);
      for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
    }
  }
  return picked;
}

/** Whether any filter of these is an enabled include filter: then the article is what they pick, and nothing else. */
export const hasIncludeFilters = (filters: readonly ContentFilter[]) => enabledSelectors(filters, 'include').length > 0;

export { selectorProblem } from './selectors.ts';
