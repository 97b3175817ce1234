// Text filters through HTTP: a filter is read like the documents it searches (an item's own posted body finds it), and
// a word of one or two letters typed alone (a search box's first keys) finds the items whose words start with it, in
// the list's order, whether few items have it (listed from the index's heads) or many (the order walked).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;

/** Real HTML as publishers post it: markup with attributes, entities named and numbered, punctuation, accents. */
const bodies: Record<string, string> = {
  article: [
    '<h2 class="lead">Rivers rise &ndash; bridges close</h2>',
    '<p>The river rose <strong>2.4&nbsp;m</strong> overnight; the <a href="https://example.com/bridge?x=1&amp;y=2" title="Old &quot;Iron&quot; bridge">old bridge</a> is closed.</p>',
    '<p>&ldquo;We&rsquo;re watching it,&rdquo; said the mayor of Z&uuml;rich&#8209;Nord, &#x201C;hour by hour&#x201D;&hellip;</p>',
    '<ul><li>Caf&eacute;s shut at 9&nbsp;p.m.</li><li>Schools: open (for now)!</li></ul>',
    '<!-- editor note --><p>More &amp; more &lt;updates&gt; soon.</p>',
  ].join('\n'),
  // The same words as `article` but the last sentence: its body does not hold the whole article's.
  near: '<h2>Rivers rise – bridges close</h2><p>The river rose 2.4 m overnight; the old bridge is closed.</p>',
  other: '<p>Nothing about rivers here.</p>',
};

/** Titles, created in this order (so newest first is the reverse); the comment says which words start how. */
const titles: [id: string, title: string][] = [
  ['t1', 'Xylophones at the fair'], // x, xy
  ['t2', 'Weather: a wet week'], // a, we, we
  ['t3', 'Éxodo de Zürich'], // e (É folded), ex, de, z, zu
  ['t4', 'Budget vote'], // b, bu, v, vo
  ['t5', 'X marks the spot'], // x alone, no xy
  ['t6', 'Zebra crossing in York'], // z, ze, c, in, y, yo
  ['t7', 'A quiet week'], // a, q, qu, w, we
];

beforeAll(async () => {
  server = await startServer();
  const create = async (id: string, title: string, body: string) => {
    const reply = await server.request('POST', '/v1/projects/1/content', { body: { title, body, source_id: id } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  };
  for (const [n, [id, body]] of Object.entries(bodies).entries()) await create(id, `Report ${n + 1}`, body);
  for (const [id, title] of titles) await create(id, title, `<p>Item ${id}.</p>`);
});
afterAll(() => server.stop());

const list = async (query: string) => {
  const reply = await server.request('GET', `/v1/projects/1/content?pagination[limit]=100&${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body as { source_id: string }[]).map((item) => item.source_id);
};
const search = (field: 'title' | 'body', text: string, order = '') => list(`filter[${field}]=${encodeURIComponent(text)}${order}`);

describe('text filters', () => {
  it('finds an item by its own body exactly as it was posted: markup, entities and punctuation read as the item was', async () => {
    expect(await search('body', bodies.article!)).toEqual(['article']);
    expect(await search('body', bodies.near!)).toEqual(['near', 'article']);
    expect(await search('body', bodies.other!)).toEqual(['other']);
    // A part of it, with its markup cut anywhere a reader would copy it.
    expect(await search('body', '<strong>2.4&nbsp;m</strong> overnight; the <a href="https://example.com">old')).toEqual(['near', 'article']);
    expect(await search('body', 'the mayor of Zürich-Nord, “hour')).toEqual(['article']);
    expect(await search('body', 'Cafés shut')).toEqual(['article']);
    expect(await search('body', 'more &amp; more &lt;updates&gt;')).toEqual(['article']);
    // Markup is no word: attributes, tag names and comments find nothing.
    expect(await search('body', 'example com bridge')).toEqual([]);
    expect(await search('body', 'editor note')).toEqual([]);
    expect(await search('body', '<p></p>')).toEqual([]);
  });

  it('finds the items with a word starting with one or two letters typed alone, in the list order', async () => {
    const newestFirst = [...titles.map(([id]) => id)].reverse();
    const having = (...ids: string[]) => newestFirst.filter((id) => ids.includes(id));
    expect(await search('title', 'x')).toEqual(having('t1', 't5'));
    expect(await search('title', 'X')).toEqual(having('t1', 't5'));
    expect(await search('title', 'xy')).toEqual(having('t1'));
    expect(await search('title', 'we')).toEqual(having('t2', 't7'));
    expect(await search('title', 'e')).toEqual(having('t3'));
    expect(await search('title', 'É')).toEqual(having('t3'));
    expect(await search('title', 'zu')).toEqual(having('t3'));
    expect(await search('title', 'z')).toEqual(having('t3', 't6'));
    expect(await search('title', 'q')).toEqual(having('t7'));
    expect(await search('title', 'qz')).toEqual([]);
    expect(await search('title', 'a')).toEqual(having('t1', 't2', 't7'));
    expect(await search('title', 'r')).toEqual(['other', 'near', 'article']);
    expect(await search('title', 'a', '&order[dir]=asc')).toEqual(having('t1', 't2', 't7').reverse());
    expect(await list(`filter[title]=a&pagination[offset]=1`)).toEqual(having('t1', 't2', 't7').slice(1));
    // In bodies too: `Item t1.` … and the reports' words.
    expect(await search('body', 't')).toEqual([...newestFirst, 'near', 'article']);
    expect(await search('body', 'ca')).toEqual(['article']);
  });
});
