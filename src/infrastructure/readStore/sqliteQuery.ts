// Translates the MongoDB filter and sort documents the service issues into SQL over one collection's tables.
import type { Filter, Sort } from './port.ts';
import type { CollectionSchema } from './sqliteSchema.ts';
import { bound, elementExpression, jsonPath, keyColumn, keyExpression, quote, tableNames, UnsupportedQuery } from './sqliteNames.ts';
import { prefixUpperBound, regexLiteral } from './regexLiteral.ts';

export interface SqlQuery {
  /** `FROM … WHERE …`: the keys table as `k`, joined to the documents as `d` when a condition or order needs them. */
  from: string;
  orderBy: string;
  /** Named parameters (`@p0`, `@p1`, …), so conditions can be assembled in any order. */
  params: Record<string, unknown>;
  /** The fields whose search index answered a phrase. */
  searched: string[];
  /**
   * When a search index listed the ids (`listed`, a subquery of their row ids): the same query walking its order
   * instead, as `SELECT <select> <from><orderBy>` (`select` names the order's terms o0, o1, …), and the order over
   * those names (`outerOrderBy`), for a query that walks a window of the order and keeps the rows listed; `count` and
   * `total` are how many ids were listed among how many documents.
   */
  walk?: { select: string; from: string; orderBy: string; outerOrderBy: string; listed: string; count: number; total: number };
}

/**
 * The documents whose word text holds the phrase, as a full-text query of the field's search index that lists
 * exactly them and how many it lists, or null when the phrase is so common that walking the query's order finds a
 * page sooner than listing them.
 */
export type SearchCandidates = (path: string, phrase: string) => { match: string; count: number; total: number } | null;

/**
 * A `$regex` of plain text made of words (lower-case ASCII letters, digits, anything above U+007F), each after one
 * space: a phrase. Wherever it occurs in a text, the index's tokenizer saw each word but the last as a word of its
 * own and the last as the start of one, and each two neighbours as a pair token (sqliteSearch.ts), so the index
 * lists exactly the documents holding it; on a walk, the text the index keeps decides, as the `$regex` would. On word text (src/content/search.ts) that is a phrase search.
 */
const WORD_PHRASE = /^(?: [a-z0-9\u0080-\u{10ffff}]+)+$/u;

/** Where a field's values are read: its key column, its element table (arrays), or the JSON document itself. */
type Source = { kind: 'column'; column: string } | { kind: 'elements'; column: string; table: string } | { kind: 'document'; path: string };

const REGEX_FLAGS = /^[imsu]*$/;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

export function translate(schema: CollectionSchema, filter: Filter, sort: Sort = {}, candidates?: SearchCandidates): SqlQuery {
  const names = tableNames(schema.name);
  const params: Record<string, unknown> = {};
  let usesDocument = false;
  const searched: string[] = [];
  /** The subquery of the row ids a word index lists, which the query then starts from, and what it lists. */
  let listed: string | null = null;
  let listing = { count: 0, total: 0 };

  const param = (value: unknown) => {
    const name = `p${Object.keys(params).length}`;
    params[name] = value;
    return `@${name}`;
  };

  const sourceOf = (path: string): Source => {
    if (path === '_id') return { kind: 'column', column: 'k._id' };
    if (!schema.paths.includes(path)) {
      usesDocument = true;
      return { kind: 'document', path };
    }
    const column = `k.${quote(keyColumn(path))}`;
    return schema.multikey.has(path) ? { kind: 'elements', column, table: quote(names.multikey(path)) } : { kind: 'column', column };
  };

  /** The whole value: for arrays and objects their JSON, as a blob. */
  const whole = (source: Source) => (source.kind === 'document' ? keyExpression('d.doc', source.path) : source.column);

  /** MongoDB's rule: a condition on a field holds when it holds for its value or for any element of its array. */
  const anyValue = (source: Source, test: (value: string) => string) => {
    switch (source.kind) {
      case 'column':
        return test(source.column);
      case 'elements':
        return `k.rid IN (SELECT rid FROM ${source.table} WHERE ${test('value')})`;
      case 'document':
        return `EXISTS (SELECT 1 FROM json_each(d.doc, ${jsonPath(source.path)}) AS e WHERE ${test(elementExpression('e'))})`;
    }
  };

  const equals = (source: Source, value: unknown): string => {
    if (value === null || value === undefined) {
      // Null matches a null or missing field, and an array holding null.
      return source.kind === 'column' ? `${source.column} IS NULL` : `(${whole(source)} IS NULL OR ${anyValue(source, (v) => `${v} IS NULL`)})`;
    }
    if (typeof value === 'object') return `${whole(source)} = ${param(bound(value))}`;
    // IS rather than =, so that a negation ($ne) keeps documents whose field is null or missing.
    return anyValue(source, (v) => `${v} IS ${param(bound(value))}`);
  };

  const isIn = (source: Source, values: unknown): string => {
    if (!Array.isArray(values)) throw new UnsupportedQuery('$in without an array');
    const scalars = values.filter((value) => value !== null && typeof value !== 'object');
    const alternatives = values.filter((value) => value === null || typeof value === 'object').map((value) => equals(source, value));
    if (scalars.length > 0) {
      // Listed one parameter each, so the planner knows how many lookups an index would take.
      const list = `(${scalars.map((value) => param(bound(value))).join(', ')})`;
      alternatives.unshift(anyValue(source, (v) => `${v} IN ${list}`));
    }
    if (alternatives.length === 0) return '0';
    return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' OR ')})`;
  };

  // SQLite orders NULL < numbers < text < blobs across types; MongoDB compares only within a type, so each bound is fenced in.
  const compare = (source: Source, operator: '>' | '>=' | '<' | '<=', bound: unknown): string => {
    const upward = operator.startsWith('>');
    if (typeof bound === 'number') return anyValue(source, (v) => `${v} ${operator} ${param(bound)}${upward ? ` AND ${v} < ''` : ''}`);
    if (typeof bound === 'string') return anyValue(source, (v) => `${v} ${operator} ${param(bound)} AND ${v} ${upward ? "< x''" : ">= ''"}`);
    throw new UnsupportedQuery(`a range over ${typeof bound} values`);
  };

  const regex = (path: string, source: Source, pattern: unknown, options: unknown): string => {
    const flags = options ?? '';
    if (typeof pattern !== 'string' || typeof flags !== 'string' || !REGEX_FLAGS.test(flags)) throw new UnsupportedQuery(`$regex ${String(pattern)} with options ${String(flags)}`);
    const literal = regexLiteral(pattern);
    const conditions: string[] = [];
    const prefixRange = literal?.kind === 'prefix' && !flags.includes('i') && !flags.includes('m') && literal.text !== '';
    conditions.push(
      anyValue(source, (v) => {
        const test = `rs_regexp(${param(pattern)}, ${param(flags)}, ${v})`;
        if (!prefixRange) return test;
        // A prefix is a range of the index; the regular expression still decides.
        const upper = prefixUpperBound(literal.text);
        return `${v} >= ${param(literal.text)}${upper === null ? '' : ` AND ${v} < ${param(upper)}`} AND ${test}`;
      }),
    );
    return conditions.join(' AND ');
  };

  /**
   * The ids the index listed are the answer; when it listed none (a common phrase, or a second phrase), the phrase
   * is looked for in the word text the index keeps (as the `$regex` would, without parsing the document).
   */
  const phrase = (path: string, text: string): string => {
    searched.push(path);
    const found = listed === null ? candidates!(path, text) : null;
    const search = quote(names.search(path));
    if (found) {
      listed = `SELECT rowid AS value FROM ${search} WHERE ${search} MATCH ${param(found.match)}`;
      listing = { count: found.count, total: found.total };
      return '1';
    }
    return `instr((SELECT s.text FROM ${search} AS s WHERE s.rowid = k.rid), ${param(text)}) > 0`;
  };

  const operatorCondition = (path: string, source: Source, operator: string, argument: unknown, all: Record<string, unknown>): string | null => {
    switch (operator) {
      case '$eq':
        return equals(source, argument);
      case '$ne':
        return `NOT (${equals(source, argument)})`;
      case '$in':
        return isIn(source, argument);
      case '$nin':
        return `NOT (${isIn(source, argument)})`;
      case '$gt':
        return compare(source, '>', argument);
      case '$gte':
        return compare(source, '>=', argument);
      case '$lt':
        return compare(source, '<', argument);
      case '$lte':
        return compare(source, '<=', argument);
      case '$exists':
        if (path === '_id') return argument ? '1' : '0';
        usesDocument = true;
        return `json_type(d.doc, ${jsonPath(path)}) IS ${argument ? 'NOT ' : ''}NULL`;
      case '$regex':
        return regex(path, source, argument, all.$options);
      case '$options':
        if (!('$regex' in all)) throw new UnsupportedQuery('$options without $regex');
        return null;
      default:
        throw new UnsupportedQuery(`the operator ${operator}`);
    }
  };

  /** The words of a `$regex` a search index answers, or null: asked before the field's source, so no document is read for it. */
  const phraseOf = (path: string, value: unknown): string | null => {
    if (!candidates || !schema.search.includes(path) || !isPlainObject(value) || typeof value.$regex !== 'string') return null;
    if (Object.keys(value).some((key) => key !== '$regex' && key !== '$options') || (value.$options ?? '') !== '') return null;
    const literal = regexLiteral(value.$regex);
    return literal?.kind === 'contains' && WORD_PHRASE.test(literal.text) ? literal.text : null;
  };

  const fieldCondition = (path: string, value: unknown): string => {
    if (path.startsWith('$')) throw new UnsupportedQuery(`the top-level operator ${path}`);
    const words = phraseOf(path, value);
    if (words !== null) return phrase(path, words);
    const source = sourceOf(path);
    if (!isPlainObject(value) || !Object.keys(value).some((key) => key.startsWith('$'))) return equals(source, value);
    if (!Object.keys(value).every((key) => key.startsWith('$'))) throw new UnsupportedQuery(`operators mixed with fields in ${path}`);
    const conditions = Object.entries(value).map(([operator, argument]) => operatorCondition(path, source, operator, argument, value));
    return conditions.filter((condition) => condition !== null).join(' AND ') || '1';
  };

  const conditions = Object.entries(filter).map(([path, value]) => fieldCondition(path, value));
  // Multikey fields order by their JSON here, not by their smallest or largest element as in MongoDB; no read model sorts by one.
  // From listed ids the query reads those rows and sorts them (`+` keeps the order's index out of it): walking that
  // index while testing ids would read the whole collection for a rare phrase.
  const terms = Object.entries(sort).map(([path, direction]) => ({ expression: whole(sourceOf(path)), direction: direction === -1 ? 'DESC' : 'ASC' }));
  const orderBy = terms.map(({ expression, direction }) => `${listed ? '+' : ''}${expression} ${direction}`).join(', ');

  const keys = `${quote(names.keys)} AS k`;
  const from = listed ? `(${listed}) AS l CROSS JOIN ${keys} ON k.rid = l.value` : keys;
  const join = usesDocument ? ` JOIN ${quote(names.docs)} AS d ON d.rid = k.rid` : '';
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  const query: SqlQuery = { from: `FROM ${from}${join}${where}`, orderBy: orderBy && ` ORDER BY ${orderBy}`, params, searched };
  if (!listed) return query;
  const walkOrder = terms.map(({ expression, direction }) => `${expression} ${direction}`).join(', ');
  query.walk = {
    select: ['k.rid AS rid', ...terms.map(({ expression }, i) => `${expression} AS o${i}`)].join(', '),
    from: `FROM ${keys}${join}${where}`,
    orderBy: walkOrder && ` ORDER BY ${walkOrder}`,
    outerOrderBy: terms.length > 0 ? ` ORDER BY ${terms.map(({ direction }, i) => `o${i} ${direction}`).join(', ')}` : '',
    listed,
    ...listing,
  };
  return query;
}
