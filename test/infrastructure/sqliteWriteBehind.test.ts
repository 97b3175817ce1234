// `commitBehind` on the SQLite read store: batches of puts and deletes committed by the store's writer thread,
// whole or not at all, and the batches it cannot take as plain rows committed by the store itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { CollectionWrites, ReadStore } from '../../src/infrastructure/readStore/port.ts';
import { createSqliteReadStore } from '../../src/infrastructure/readStore/sqlite.ts';
import { WriteBehindFailed } from '../../src/infrastructure/readStore/sqliteWriteBehind.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-behind-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Note = { _id: string; n: number; code: string; tags?: string[]; title?: string; flag?: boolean };
const puts = (collection: string, ...notes: Note[]): CollectionWrites => ({ collection, writes: notes.map((put) => ({ put })) });
const note = (id: string, n: number, extra: Partial<Note> = {}): Note => ({ _id: id, n, code: `code-${id}`, ...extra });

let opened: ReadStore[] = [];
afterEach(async () => {
  await Promise.all(opened.map((store) => store.close()));
  opened = [];
});

function open(file: string) {
  const store = createSqliteReadStore(file, { searchedFields: (collection) => (collection === 'searched' ? ['title'] : []) });
  opened.push(store);
  return store;
}

async function withNotes(file: string) {
  const read = open(file);
  const notes = read.collection<Note>('notes');
  await notes.ensureIndex({ name: 'n', keys: { n: 1 } });
  await notes.ensureIndex({ name: 'code', keys: { code: 1 }, unique: true });
  await notes.ensureIndex({ name: 'flag', keys: { flag: 1 } });
  await notes.put(note('first', 0));
  return { read, notes };
}

describe('commitBehind on SQLite', () => {
  it('commits puts and deletes of several collections together, with their key columns, for every connection', async () => {
    const file = path.join(dir, 'together.sqlite');
    const { read, notes } = await withNotes(file);
    await read.collection('other').put({ _id: 'o1', n: 1 });
    await read.commitBehind!([
      puts('notes', note('a', 3, { flag: true }), note('b', 1), note('c', 2), note('first', 9, { flag: false })),
      { collection: 'notes', writes: [{ delete: 'c' }] },
      puts('other', { _id: 'o2', n: 2, code: 'x' }),
    ]);

    expect(await notes.findOne({ _id: 'a' })).toEqual(note('a', 3, { flag: true }));
    expect((await notes.find({ n: { $gte: 1 } }, { sort: { n: 1 } })).map((found) => found._id)).toEqual(['b', 'a', 'first']);
    expect((await notes.find({ flag: true })).map((found) => found._id)).toEqual(['a']);
    expect(await notes.findOne({ _id: 'c' })).toBeNull();
    expect((await notes.explain!({ n: { $gte: 1 } }, { sort: { n: 1 } }))?.indexes).toContain('n');
    expect(await read.collection('other').count({})).toBe(2);

    const another = open(file);
    expect((await another.collection<Note>('notes').find({}, { sort: { n: -1 } })).map((found) => [found._id, found.n])).toEqual([
      ['first', 9],
      ['a', 3],
      ['b', 1],
    ]);
  });

  it('commits nothing of a batch one of whose writes is refused, and takes the next batch', async () => {
    const file = path.join(dir, 'refused.sqlite');
    const { read, notes } = await withNotes(file);
    await read.collection('other').put({ _id: 'o0', n: 0 });
    const refused = read.commitBehind!([puts('notes', note('a', 1), { ...note('b', 2), code: 'code-first' }, note('c', 3)), puts('other', { _id: 'o1', n: 1, code: 'y' })]);
    // Refused by the writer thread, not by the store's own writer (which says DuplicateKeyError).
    await expect(refused).rejects.toThrow(WriteBehindFailed);
    await expect(refused).rejects.toThrow(/UNIQUE constraint failed/);

    expect((await notes.find({})).map((found) => found._id)).toEqual(['first']);
    expect(await read.collection('other').count({})).toBe(1);
    await read.commitBehind!([puts('notes', note('a', 1))]);
    expect((await notes.find({}, { sort: { n: 1 } })).map((found) => found._id)).toEqual(['first', 'a']);
  });

  it('leaves to the store what plain rows cannot do: a new collection, an array field met first, a search index', async () => {
    const file = path.join(dir, 'itself.sqlite');
    const read = open(file);
    await read.commitBehind!([puts('fresh', note('a', 1))]);
    expect(await read.collection('fresh').findOne({ _id: 'a' })).toEqual(note('a', 1));

    const tagged = read.collection<Note>('tagged');
    await tagged.ensureIndex({ name: 'tags', keys: { tags: 1 } });
    await tagged.put(note('plain', 0, { tags: undefined }));
    await read.commitBehind!([puts('tagged', note('a', 1, { tags: ['red', 'blue'] }))]);
    await read.commitBehind!([puts('tagged', note('b', 2, { tags: ['blue'] }), note('a', 1, { tags: ['green'] }))]);
    expect((await tagged.find({ tags: 'blue' })).map((found) => found._id)).toEqual(['b']);
    expect((await tagged.find({ tags: 'green' })).map((found) => found._id)).toEqual(['a']);

    const searched = read.collection<Note>('searched');
    await searched.put(note('first', 0, { title: 'an opening' }));
    await read.commitBehind!([puts('searched', note('a', 1, { title: 'quiet harbour lights' }))]);
    expect((await searched.find({ title: { $regex: ' harbour lights' } })).map((found) => found._id)).toEqual(['a']);
  });

  it('keeps the order of writes to one document within a batch', async () => {
    const file = path.join(dir, 'order.sqlite');
    const { read, notes } = await withNotes(file);
    await read.commitBehind!([
      { collection: 'notes', writes: [{ put: note('a', 1) }, { delete: 'a' }, { put: note('b', 2) }, { delete: 'first' }, { put: note('first', 5) }] },
    ]);
    expect((await notes.find({}, { sort: { n: 1 } })).map((found) => [found._id, found.n])).toEqual([
      ['b', 2],
      ['first', 5],
    ]);
  });
});
