// Phrase search of the read store contract: the content list's title and body filters over word text answer alike on every store.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Document, ReadStore } from '../../src/infrastructure/readStore/port.ts';
import { phraseFilter, searchTextOf } from '../../src/content/search.ts';

const titles: Record<string, string> = {
  p1: 'Council budget: vote delayed',
  p2: 'Élections : le guide',
  p3: 'The council, budget and more',
  p4: 'Budgetary council',
  p5: 'ÉLECTIONS municipales à Zürich',
  p6: 'Councillor budgets',
  p7: 'C++ & Rust, 2024-25',
  p8: '東京 news',
};
const bodies: Record<string, string> = {
  p1: '<p>The <strong>council</strong> met.</p><p>Budget&nbsp;talks resumed at&#160;noon.</p>',
  p2: '<p>Le d&eacute;bat du soir&hellip;</p>',
  p3: '<p>Nothing <a href="https://example.com/council-budget">here</a>.</p>',
};

/** The filter text a reader types, and the items (sorted) whose title it finds. */
const titleCases: [text: string, ids: string[]][] = [
  ['council bud', ['p1', 'p3']],
  ['COUNCIL', ['p1', 'p3', 'p4', 'p6']],
  ['elections', ['p2', 'p5']],
  ['élections le', ['p2']],
  ['ÉLECTIONS LE GUIDE', ['p2']],
  ['zurich', ['p5']],
  ['Zür', ['p5']],
  ['budget vote', ['p1']],
  ['(budget) : vote!', ['p1']],
  ['budget council', []],
  ['council vote', []],
  ['get', []],
  ['...', []],
  ['a', ['p3', 'p5']],
  ['c rust 2024 2', ['p7']],
  // One or two letters alone: the words starting with them.
  ['e', ['p2', 'p5']],
  ['É', ['p2', 'p5']],
  ['z', ['p5']],
  ['zü', ['p5']],
  ['mu', ['p5']],
  ['2', ['p7']],
  ['20', ['p7']],
  ['25', ['p7']],
  ['c', ['p1', 'p3', 'p4', 'p6', 'p7']],
  ['co', ['p1', 'p3', 'p4', 'p6']],
  ['東', ['p8']],
  ['東京', ['p8']],
  ['京', []],
  ['ew', []],
];

/** Bodies are HTML: tags part words and are never found; character references are decoded. */
const bodyCases: [text: string, ids: string[]][] = [
  ['council met budget talks', ['p1']],
  ['budget talks resumed at noon', ['p1']],
  ['debat du', ['p2']],
  ['strong', []],
  ['example', []],
  ['soir hellip', []],
];

export function phraseSearchContract(store: () => ReadStore) {
  describe('phrase search over word text', () => {
    it('finds whole words in the order given, the last as a prefix, ignoring case, accents, punctuation and markup', async () => {
      const collection = store().collection<Document>(`c_${randomUUID()}`);
      for (const [id, title] of Object.entries(titles)) await collection.put({ _id: id, projectId: 1, searchText: searchTextOf({ title, body: bodies[id] ?? '' }) });
      const ids = async (field: 'title' | 'body', text: string) =>
        (await collection.find({ projectId: 1, [`searchText.${field}`]: phraseFilter(text) }, { sort: { _id: 1 } })).map((found) => found._id);
      for (const [text, expected] of titleCases) expect(await ids('title', text), `title ${text}`).toEqual(expected);
      for (const [text, expected] of bodyCases) expect(await ids('body', text), `body ${text}`).toEqual(expected);
    });

    it('answers a page alike whether the phrase is rare enough to list its documents or common enough to walk the order', async () => {
      const collection = store().collection<Document>(`c_${randomUUID()}`);
      // 120 bodies over five words, so that some phrases are in most of them, some in a few, some in none.
      const vocabulary = ['the', 'council', 'budget', 'harbour', 'theatre'];
      const texts = new Map<string, string>();
      for (let n = 0; n < 120; n++) {
        const body = Array.from({ length: 3 + (n % 5) }, (_, i) => vocabulary[(n * 7 + i * i * 3 + (n >> 3)) % vocabulary.length]).join(' ');
        const id = `d${String(n).padStart(3, '0')}`;
        const searchText = searchTextOf({ title: '', body });
        texts.set(id, searchText.body);
        await collection.put({ _id: id, projectId: 1, rank: n % 17, searchText });
      }
      const ordered = [...texts.keys()].sort((a, b) => (Number(a.slice(1)) % 17) - (Number(b.slice(1)) % 17) || b.localeCompare(a));
      for (const text of ['the', 'the council', 'council the', 'budget harb', 'harbour theatre the', 'council harbour council', 'the budget th', 'the th', 'theatre council budget', 'budget budget', 'council b', 'the t', 't', 'th', 'b', 'bu', 'h', 'ha', 'c', 'co', 'x', 'te']) {
        const phrase = ` ${text}`;
        const matching = ordered.filter((id) => texts.get(id)!.includes(phrase));
        for (const [skip, limit] of [[0, 1], [0, 5], [3, 2], [0, 0]] as const) {
          const found = await collection.find({ projectId: 1, 'searchText.body': phraseFilter(text) }, { sort: { rank: 1, _id: -1 }, skip, limit });
          const expected = limit === 0 ? matching.slice(skip) : matching.slice(skip, skip + limit);
          expect(found.map((document) => document._id), `${text} skip ${skip} limit ${limit}`).toEqual(expected);
        }
      }
    });

    it('answers a page of a phrase whose items are many but bunched at the far end of the order', async () => {
      const collection = store().collection<Document>(`c_${randomUUID()}`);
      // 4,000 bodies; `harbour theatre` in 24 of them, all at the end of the order, `council` in every tenth, spread
      // over it: a walk down the order meets the second within a few steps, the first only past its first 3,975 items
      // (on SQLite, more than the walk is given before the listed items are sorted instead).
      const documents = Array.from({ length: 4_000 }, (_, n) => {
        const words = ['the', n % 10 === 0 ? 'council' : 'budget', n >= 3_976 ? 'harbour theatre' : 'harbour'];
        return { _id: `d${String(n).padStart(4, '0')}`, projectId: 1, rank: n, searchText: searchTextOf({ title: '', body: words.join(' ') }) };
      });
      if (collection.bulkWrite) await collection.bulkWrite(documents.map((document) => ({ put: document })));
      else for (const document of documents) await collection.put(document);
      const page = async (text: string, skip: number, limit: number) =>
        (await collection.find({ projectId: 1, 'searchText.body': phraseFilter(text) }, { sort: { rank: 1 }, skip, limit })).map((found) => found._id);
      const ids = (from: number, to: number, step = 1) => Array.from({ length: Math.ceil((to - from) / step) }, (_, i) => `d${String(from + i * step).padStart(4, '0')}`);
      expect(await page('harbour theatre', 0, 10)).toEqual(ids(3_976, 3_986));
      expect(await page('harbour theatre', 20, 10)).toEqual(ids(3_996, 4_000));
      expect(await page('the council', 0, 10)).toEqual(ids(0, 100, 10));
      expect(await page('the council', 395, 10)).toEqual(ids(3_950, 4_000, 10));
    });
  });
}
