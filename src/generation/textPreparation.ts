// Turns an article (title, summary, HTML body) into the ordered speakable segments that generation narrates.
import { createHash } from 'node:crypto';
import { defaultTreeAdapter as dom, html, parseFragment, type DefaultTreeAdapterTypes } from 'parse5';

type Node = DefaultTreeAdapterTypes.ChildNode;
type Element = DefaultTreeAdapterTypes.Element;

export interface PreparedSegment {
  section: 'title' | 'summary' | 'body';
  content_type: 'text' | 'image';
  text: string | null;
  image_url: string | null;
  marker: string | null;
  // Relative to the body root, 1-based among same-name siblings, in the tree a browser builds (implied tbody included).
  xpath: string | null;
  md5: string | null;
}

export interface ArticleInput {
  title: string | null;
  summary: string | null;
  body: string;
  titleEnabled: boolean;
  bodyEnabled: boolean;
  summaryEnabled: boolean;
  summaryTitleEnabled: boolean;
}

export type TextRewriter = (text: string, section: PreparedSegment['section']) => string;

type Section = PreparedSegment['section'];

// Elements that start a segment of their own; every other element is inline and flattened into its block.
const BLOCKS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'blockquote', 'figcaption', 'dt', 'dd', 'tr', 'pre',
  'div', 'section', 'article', 'main', 'figure', 'ul', 'ol', 'dl', 'table', 'thead', 'tbody', 'tfoot',
  'caption', 'details', 'summary', 'address', 'hgroup', 'header', 'footer', 'center',
]);
// Not read aloud: code, navigation, widgets, and media whose fallback text is for old browsers.
const SKIPPED = new Set([
  'script', 'style', 'noscript', 'template', 'nav', 'aside', 'form', 'button', 'iframe', 'svg', 'math',
  'title', 'audio', 'video', 'canvas', 'object', 'select', 'textarea',
]);
// A header or footer inside these belongs to the content; elsewhere it is the page's banner or footer (as in ARIA).
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);
const MAX_SEGMENT_LENGTH = 1000;
// Publishers' HTML (and the WordPress plugin's excerpt wrapper) carries the original maker's attribute names.
const MARKER_ATTRIBUTES = ['data-service-marker', 'data-beyondwords-marker'] as const;
const SUMMARY_ATTRIBUTES = ['data-service-summary', 'data-beyondwords-summary'] as const;
const IMAGE_ATTRIBUTES = ['data-service-image', 'data-beyondwords-image'] as const;

interface Anchor { xpath: string; marker: string | null }
interface Run { text: string; anchor: Anchor | null }
interface Located { node: Node; path: string }
interface Visit extends Located { run: Run; anchor: Anchor; marker: string | null; sectioned: boolean }
type Item = Visit | { flush: Run };
type Piece =
  | { kind: 'text'; text: string; anchor: Anchor }
  | { kind: 'image'; url: string; anchor: Anchor };

export function prepareArticle(
  input: ArticleInput,
  rewrite: TextRewriter = (text) => text,
): { segments: PreparedSegment[]; summary: PreparedSegment[] } {
  const context = dom.createElement('div', html.NS.HTML, []);
  const roots = located(parseFragment(context, input.body, {}), '');
  const first = roots.find(({ node }) => dom.isElementNode(node) || (dom.isTextNode(node) && node.value.trim() !== ''));
  const summaryDiv = first !== undefined && aliased(first.node, SUMMARY_ATTRIBUTES) === 'true' ? first : null;
  const bodyRoots = roots.filter((root) => root !== summaryDiv);

  const title = fromPlainText(input.title, 'title', rewrite);
  const summaryText = fromPlainText(input.summary, 'summary', rewrite);
  const summary = summaryText.length > 0 || summaryDiv === null
    ? summaryText
    : fromPieces(collect([summaryDiv]), 'summary', rewrite);
  const body = input.bodyEnabled ? fromPieces(collect(bodyRoots), 'body', rewrite) : [];

  return {
    segments: [...(input.titleEnabled ? title : []), ...(input.summaryEnabled ? summary : []), ...body],
    summary: summary.length > 0 ? [...(input.summaryTitleEnabled ? title : []), ...summary] : [],
  };
}

function fromPlainText(value: string | null, section: Section, rewrite: TextRewriter): PreparedSegment[] {
  return value === null ? [] : textSegments(decodeEntities(value), section, null, null, rewrite);
}

function fromPieces(pieces: Piece[], section: Section, rewrite: TextRewriter): PreparedSegment[] {
  return pieces.flatMap((piece) => piece.kind === 'image'
    ? [{ section, content_type: 'image' as const, text: null, image_url: piece.url, ...piece.anchor, md5: null }]
    : textSegments(piece.text, section, piece.anchor.xpath, piece.anchor.marker, rewrite));
}

// The rewrite hook runs before hashing so content filters and pronunciation rules change what is spoken and its md5.
function textSegments(
  raw: string, section: Section, xpath: string | null, marker: string | null, rewrite: TextRewriter,
): PreparedSegment[] {
  const normalised = collapse(raw);
  const text = normalised === '' ? '' : collapse(rewrite(normalised, section));
  if (text === '') return [];
  return splitLong(text).map((chunk) => ({
    section, content_type: 'text', text: chunk, image_url: null, marker, xpath,
    md5: createHash('md5').update(chunk, 'utf8').digest('hex'),
  }));
}

// Walks the tree with an explicit stack so that pathologically deep markup cannot overflow the call stack.
function collect(roots: Located[]): Piece[] {
  const pieces: Piece[] = [];
  const rootRun: Run = { text: '', anchor: null };
  const flush = (run: Run): void => {
    if (run.anchor !== null && collapse(run.text) !== '') pieces.push({ kind: 'text', text: run.text, anchor: run.anchor });
    run.text = '';
    run.anchor = null;
  };
  const stack: Item[] = [{ flush: rootRun }];
  for (const root of [...roots].reverse()) {
    const marker = dom.isElementNode(root.node) ? markerOf(root.node) : null;
    stack.push({ ...root, run: rootRun, anchor: { xpath: root.path, marker }, marker, sectioned: false });
  }
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if ('flush' in item) {
      flush(item.flush);
      continue;
    }
    const { node, path, run } = item;
    if (dom.isTextNode(node)) {
      append(run, node.value, item.anchor);
      continue;
    }
    if (!dom.isElementNode(node) || skipped(node, item.sectioned)) continue;
    const marker = markerOf(node) ?? item.marker;
    const sectionedHere = item.sectioned || SECTIONING.has(node.tagName);
    if (node.tagName === 'br') {
      append(run, ' ', item.anchor);
    } else if (node.tagName === 'img') {
      const url = attribute(node, 'src')?.trim();
      if (aliased(node, IMAGE_ATTRIBUTES)?.trim().toLowerCase() !== 'true' || !url) continue;
      flush(run);
      pieces.push({ kind: 'image', url, anchor: { xpath: path, marker } });
    } else if (BLOCKS.has(node.tagName)) {
      flush(run);
      const own: Run = { text: '', anchor: null };
      stack.push({ flush: own });
      pushChildren(stack, node, path, { run: own, anchor: { xpath: path, marker }, marker, sectioned: sectionedHere });
    } else {
      if (node.tagName === 'td' || node.tagName === 'th') separateCell(run);
      pushChildren(stack, node, path, { run, anchor: item.anchor, marker, sectioned: sectionedHere });
    }
  }
  return pieces;
}

function pushChildren(stack: Item[], parent: Element, path: string, scope: Omit<Visit, keyof Located>): void {
  for (const child of located(parent, path).reverse()) stack.push({ ...child, ...scope });
}

function located(parent: DefaultTreeAdapterTypes.ParentNode, parentPath: string): Located[] {
  const counts = new Map<string, number>();
  return parent.childNodes.flatMap((node) => {
    const step = dom.isTextNode(node) ? 'text()' : dom.isElementNode(node) ? node.tagName : null;
    if (step === null) return [];
    const position = (counts.get(step) ?? 0) + 1;
    counts.set(step, position);
    return [{ node, path: `${parentPath}/${step}[${position}]` }];
  });
}

function append(run: Run, text: string, anchor: Anchor): void {
  run.text += text;
  if (run.anchor === null && text.trim() !== '') run.anchor = anchor;
}

// A row's cells are read as one segment; a comma between cells makes the voice pause.
function separateCell(run: Run): void {
  run.text = run.text.trimEnd();
  if (run.text !== '' && !/[.,;:!?]$/.test(run.text)) run.text += ',';
  run.text += ' ';
}

function skipped(element: Element, sectioned: boolean): boolean {
  const tag = element.tagName;
  return SKIPPED.has(tag)
    || ((tag === 'header' || tag === 'footer') && !sectioned)
    || attribute(element, 'hidden') !== null
    || attribute(element, 'aria-hidden') === 'true';
}

function markerOf(element: Element): string | null {
  return aliased(element, MARKER_ATTRIBUTES)?.trim() || null;
}

/** The first non-blank value among the names, ours first, then the original maker's. */
function aliased(node: Node, names: readonly string[]): string | null {
  for (const name of names) {
    const value = attribute(node, name);
    if (value !== null && value.trim() !== '') return value;
  }
  return null;
}

function attribute(node: Node, name: string): string | null {
  if (!dom.isElementNode(node)) return null;
  return node.attrs.find((attr) => attr.name === name)?.value ?? null;
}

// Plain fields may still carry entities (CMS titles often do); textarea context decodes them without parsing tags.
function decodeEntities(value: string): string {
  const textarea = dom.createElement('textarea', html.NS.HTML, []);
  return parseFragment(textarea, value, {}).childNodes.map((node) => (dom.isTextNode(node) ? node.value : '')).join('');
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

function splitLong(text: string): string[] {
  if (text.length <= MAX_SEGMENT_LENGTH) return [text];
  const chunks: string[] = [];
  let current = '';
  for (const piece of [...sentences.segment(text)].flatMap(({ segment }) => wrap(segment))) {
    if (current !== '' && (current + piece).trimEnd().length > MAX_SEGMENT_LENGTH) {
      chunks.push(current.trim());
      current = '';
    }
    current += piece;
  }
  if (current.trim() !== '') chunks.push(current.trim());
  return chunks;
}

// A sentence longer than a segment is cut at the last space that fits, or mid-word when there is none.
function wrap(sentence: string): string[] {
  if (sentence.length <= MAX_SEGMENT_LENGTH) return [sentence];
  return sentence.match(/[^]{1,999}(?:\s|$)|[^]{1,1000}/g) ?? [sentence];
}
