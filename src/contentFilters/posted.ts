// Content filters on a body posted as HTML: which elements of its parse5 tree they leave out, and which they pick.
// The selectors run on linkedom (the engine that checked them), on a copy of the parse5 tree built element by
// element, so each linkedom element has its parse5 twin; elements keep their place in the body, and so do the
// segments' xpaths.
import { defaultTreeAdapter as dom, type DefaultTreeAdapterTypes } from 'parse5';
import { parseHTML } from 'linkedom';
import { excludedElements, includedElements, type ContentFilter, type FilterElement } from './apply.ts';

type Parse5Parent = DefaultTreeAdapterTypes.ParentNode;
type Parse5Element = DefaultTreeAdapterTypes.Element;

/** linkedom's element and document as this module uses them. */
interface LinkedElement extends FilterElement {
  setAttribute(name: string, value: string): void;
  appendChild(child: LinkedElement): void;
}
interface LinkedDocument {
  body: LinkedElement;
  createElement(name: string): LinkedElement;
  createElementNS(namespace: string, name: string): LinkedElement;
}

export interface BodySelection {
  /** Elements read nowhere, with all they contain. */
  excluded: ReadonlySet<Parse5Element>;
  /** The article's parts, in document order, none inside another; null when include filters pick nothing here. */
  included: Parse5Element[] | null;
}

const NOTHING: BodySelection = { excluded: new Set(), included: null };
const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/** What the enabled filters leave out of, and pick from, a body parsed by parse5. */
export function selectInBody(fragment: Parse5Parent, filters: readonly ContentFilter[]): BodySelection {
  const enabled = filters.filter((filter) => filter.enabled);
  if (enabled.length === 0) return NOTHING;
  const { document } = parseHTML('<!doctype html><html><head></head><body></body></html>') as unknown as { document: LinkedDocument };
  const twins = copyElements(document, fragment);
  const toParse5 = (elements: Iterable<FilterElement>) => [...elements].flatMap((element) => twins.get(element) ?? []);
  const excluded = new Set(toParse5(excludedElements(document.body, enabled)));
  const included = toParse5(includedElements(document.body, enabled));
  return { excluded, included: included.length > 0 ? included : null };
}

/**
 * Copies the elements of the parse5 tree, with their attributes, under linkedom's body, and answers each copy's
 * original. Text is left out: selectors match elements and attributes (`:contains` is not CSS). A stack, not
 * recursion, so that deep markup cannot overflow the call stack.
 */
function copyElements(document: LinkedDocument, fragment: Parse5Parent): Map<FilterElement, Parse5Element> {
  const twins = new Map<FilterElement, Parse5Element>();
  const stack: [Parse5Parent, LinkedElement][] = [[fragment, document.body]];
  for (let pair = stack.pop(); pair !== undefined; pair = stack.pop()) {
    const [parsedParent, linkedParent] = pair;
    for (const node of parsedParent.childNodes) {
      if (!dom.isElementNode(node)) continue;
      const copy = node.namespaceURI === HTML_NAMESPACE ? document.createElement(node.tagName) : document.createElementNS(node.namespaceURI, node.tagName);
      for (const { name, value } of node.attrs) setAttributeIfValid(copy, name, value);
      linkedParent.appendChild(copy);
      twins.set(copy, node);
      stack.push([node, copy]);
    }
  }
  return twins;
}

// Markup may carry attribute names a DOM refuses (`<p "x"=1>`): such an attribute is one no selector can name.
function setAttributeIfValid(element: LinkedElement, name: string, value: string): void {
  try {
    element.setAttribute(name, value);
  } catch {
    // left out
  }
}
