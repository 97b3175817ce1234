// Names and value encodings shared by the SQLite read store's schema and its query translation.

export const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
export const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The tables and indexes that hold one collection (a read model). */
export const tableNames = (collection: string) => ({
  /** `rid`, `_id` and one column per indexed field: small rows, so index walks never touch a document. */
  keys: `rs:${collection}`,
  /** `rid` and the document as JSON text. */
  docs: `rs:${collection}:doc`,
  /** Full-text word index of one searched field, with the field's text (see createSearchTable). */
  search: (path: string) => `rs:${collection}:search:${path}`,
  index: (name: string) => `rs:${collection}:index:${name}`,
  /** One row per array element of a field whose documents hold arrays: MongoDB's multikey index. */
  multikey: (path: string) => `rs:${collection}:multikey:${path}`,
  trigger: (purpose: string) => `rs:${collection}:trigger:${purpose}`,
});

/** The key column of an indexed field; `_id` has its own. */
export const keyColumn = (path: string) => (path === '_id' ? '_id' : `k:${path}`);

/** A JSON path for SQLite's json functions; dotted field paths are nested keys, as in MongoDB. */
export function jsonPath(path: string): string {
  if (path === '' || path.split('.').some((part) => part === '' || part.includes('"'))) {
    throw new UnsupportedQuery(`field path ${JSON.stringify(path)}`);
  }
  return literal(`$${path.split('.').map((part) => `."${part}"`).join('')}`);
}

/**
 * A JSON value as one SQL value ordered as MongoDB orders the types the read models hold: null and
 * missing (NULL) before numbers, numbers before strings, strings before booleans (blobs 0x00 and
 * 0x01). Arrays and objects become blobs of their JSON, so they never equal a string.
 */
const encoded = (type: string, value: string) =>
  `CASE ${type} WHEN 'true' THEN x'01' WHEN 'false' THEN x'00' WHEN 'array' THEN CAST(${value} AS BLOB) WHEN 'object' THEN CAST(${value} AS BLOB) ELSE ${value} END`;

/** The encoded value of a field of a JSON document (`source` is SQL: a column or a parameter). */
export const keyExpression = (source: string, path: string) =>
  encoded(`json_type(${source}, ${jsonPath(path)})`, `json_extract(${source}, ${jsonPath(path)})`);

/** The encoded value of a `json_each` row. */
export const elementExpression = (alias: string) => encoded(`${alias}.type`, `${alias}.value`);

const [FALSE, TRUE] = [Buffer.from([0]), Buffer.from([1])];

/** A JavaScript value bound as a parameter compares with encoded values (SQLite copies what it is given). */
export function bound(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? TRUE : FALSE;
  if (value !== null && typeof value === 'object') return Buffer.from(JSON.stringify(value));
  return value;
}

/** A filter or sort the SQLite read store does not translate; a programming error, never a client's. */
export class UnsupportedQuery extends Error {
  constructor(what: string) {
    super(`The SQLite read store does not support ${what}`);
  }
}
