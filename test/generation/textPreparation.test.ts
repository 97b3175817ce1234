// Text preparation: which segments an article's title, summary and HTML body become.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { prepareArticle, type ArticleInput, type PreparedSegment } from '../../src/generation/textPreparation.ts';
import { longArticleHtml } from '../fixtures/longArticle.ts';

const articleHtml = readFileSync(new URL('../fixtures/article.html', import.meta.url), 'utf8');

const allOn = { titleEnabled: true, bodyEnabled: true, summaryEnabled: true, summaryTitleEnabled: true };
const input = (overrides: Partial<ArticleInput>): ArticleInput => ({ title: null, summary: null, body: '', ...allOn, ...overrides });
const bodySegments = (body: string): PreparedSegment[] => prepareArticle(input({ body })).segments;
const texts = (body: string): (string | null)[] => bodySegments(body).map((segment) => segment.text);
const rows = (segments: PreparedSegment[]) =>
  segments.map(({ section, content_type, text, image_url, marker, xpath }) => [section, content_type, text ?? image_url, marker, xpath]);

describe('the news article fixture', () => {
  const { segments, summary } = prepareArticle(input({ title: 'Harbour Line to reopen', body: articleHtml }));

  it('becomes the title, the leading summary div and the body blocks in reading order', () => {
    expect(rows(segments)).toEqual([
      ['title', 'text', 'Harbour Line to reopen', null, null],
      ['summary', 'text', 'The city council approved a €40 million plan to reopen the Harbour Line by 2027.', null, '/div[1]/p[1]'],
      ['body', 'text', 'Harbour Line to reopen after council vote', null, '/h1[1]'],
      ['body', 'text', 'By Maria Lindqvist · 12 March 2024', null, '/p[1]'],
      ['body', 'text', 'After nine years of closure, trains will run again on the Harbour Line, the council decided on Tuesday.', 'lede', '/p[2]'],
      ['body', 'text', 'The vote passed 31 to 14, with two abstentions. Work starts in the autumn.', null, '/p[3]'],
      ['body', 'text', 'What changes for passengers', null, '/h2[1]'],
      ['body', 'text', 'Trains every 15 minutes at peak times', null, '/ul[1]/li[1]'],
      ['body', 'text', 'Three new stations: Quayside, Fish Market and Old Town', null, '/ul[1]/li[2]'],
      ['body', 'text', 'Step-free access at every platform', null, '/ul[1]/li[3]'],
      ['body', 'image', 'https://cdn.example.com/img/harbour-line.jpg', null, '/figure[1]/img[1]'],
      ['body', 'text', 'The disused Quayside platform, photographed in January.', null, '/figure[1]/figcaption[1]'],
      ['body', 'text', 'Reactions', 'reactions', '/section[1]/h2[1]'],
      ['body', 'text', '“This is the best news the east side has had in a decade,” said resident Tomás Berg.', 'reactions', '/section[1]/blockquote[1]/p[1]'],
      ['body', 'text', 'Opposition councillors warned that costs could rise beyond the budget.', 'reactions', '/section[1]/p[1]'],
      ['body', 'text', 'The transport authority will publish a timetable next month.', 'reactions', '/section[1]'],
    ]);
  });

  it('hashes every text segment and no image segment', () => {
    for (const segment of segments) {
      expect(segment.md5).toEqual(segment.content_type === 'text' ? expect.stringMatching(/^[0-9a-f]{32}$/) : null);
      expect(segment.image_url === null).toBe(segment.content_type === 'text');
    }
  });

  it('offers the title and the summary div as the summary variant', () => {
    expect(rows(summary)).toEqual(rows(segments.slice(0, 2)));
  });
});

describe('md5', () => {
  it.each([
    ['<p>hello   <b>world</b></p>', '5eb63bbbe01eeed093cb22bb8f5acdc3'],
    ['<p>Tom&aacute;s</p>', '2093925d9e25eadd59c860e6882dabd2'],
  ])('of the text of %s is the md5 hex of its utf-8 bytes', (body, md5) => {
    expect(bodySegments(body)[0]?.md5).toBe(md5);
  });
});

describe('flags', () => {
  const article = { title: 'Title', body: '<div data-service-summary="true">Summary.</div><p>Body.</p>' };
  const sections = (segments: PreparedSegment[]) => segments.map((segment) => segment.section);

  it.each([
    [allOn, ['title', 'summary', 'body'], ['title', 'summary']],
    [{ ...allOn, titleEnabled: false }, ['summary', 'body'], ['title', 'summary']],
    [{ ...allOn, summaryEnabled: false }, ['title', 'body'], ['title', 'summary']],
    [{ ...allOn, bodyEnabled: false }, ['title', 'summary'], ['title', 'summary']],
    [{ ...allOn, summaryTitleEnabled: false }, ['title', 'summary', 'body'], ['summary']],
    [{ titleEnabled: false, bodyEnabled: false, summaryEnabled: false, summaryTitleEnabled: false }, [], ['summary']],
  ])('%o gives segments %o and summary %o', (flags, segments, summary) => {
    const prepared = prepareArticle(input({ ...article, ...flags }));
    expect(sections(prepared.segments)).toEqual(segments);
    expect(sections(prepared.summary)).toEqual(summary);
  });

  it('prefers the summary field to the summary div, which still stays out of the body', () => {
    const { segments } = prepareArticle(input({ ...article, summary: 'From the field.' }));
    expect(rows(segments)).toEqual([
      ['title', 'text', 'Title', null, null],
      ['summary', 'text', 'From the field.', null, null],
      ['body', 'text', 'Body.', null, '/p[1]'],
    ]);
  });

  it.each([
    ['no summary at all', { title: 'Title', body: '<p>Body.</p>' }],
    ['a summary div that is not the first element', { title: 'Title', body: '<p>Body.</p><div data-service-summary="true">Late.</div>' }],
    ['text before the summary div', { title: 'Title', body: 'Intro <div data-service-summary="true">Late.</div>' }],
  ])('leaves the summary variant empty with %s', (_, fields) => {
    const prepared = prepareArticle(input(fields));
    expect(prepared.summary).toEqual([]);
    expect(prepared.segments.map((segment) => segment.section)).not.toContain('summary');
  });

  it.each([[null], [''], ['  \n ']])('makes no title segment from title %o', (title) => {
    expect(prepareArticle(input({ title, body: '<p>Body.</p>' })).segments.map((segment) => segment.section)).toEqual(['body']);
  });
});

describe('long blocks', () => {
  const sentence = (i: number) => `Sentence number ${i} explains one more detail of the council's long-awaited decision.`;
  const paragraph = Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ');

  it('are split at sentence boundaries into segments of at most 1,000 characters with the same xpath and marker', () => {
    const segments = bodySegments(`<section data-service-marker="long"><p>Short.</p><p>${paragraph}</p></section>`).slice(1);
    expect(paragraph.length).toBeGreaterThan(3000);
    expect(segments.length).toBeGreaterThanOrEqual(4);
    for (const segment of segments) {
      expect(segment.text!.length).toBeLessThanOrEqual(1000);
      expect(segment.text).toMatch(/^Sentence number \d+ .*decision\.$/);
      expect(segment).toMatchObject({ xpath: '/section[1]/p[2]', marker: 'long' });
    }
    expect(segments.map((segment) => segment.text).join(' ')).toBe(paragraph);
  });

  it('are cut between words when a single sentence is longer than a segment', () => {
    const run = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const segments = bodySegments(`<p>${run}</p>`);
    expect(segments.length).toBeGreaterThan(1);
    expect(segments.every((segment) => segment.text!.length <= 1000)).toBe(true);
    expect(segments.map((segment) => segment.text).join(' ')).toBe(run);
  });

  it('keep blocks of exactly 1,000 characters whole', () => {
    expect(texts(`<p>${'a'.repeat(999)}.</p>`)).toHaveLength(1);
  });
});

describe('text normalisation', () => {
  it.each([
    ['<p>Fish &amp; chips &mdash; &#8220;quoted&#8221; &nbsp;&lt;tag&gt;</p>', ['Fish & chips — “quoted” <tag>']],
    ['<p>A <b>bold <i>and <a href="#">linked <span>deep</span></a></i></b> phrase.</p>', ['A bold and linked deep phrase.']],
    ['<p>Line one<br>line two<br/>line three</p>', ['Line one line two line three']],
    ['<p>\n\t Spread\n   over\n\n lines \t</p>', ['Spread over lines']],
    ['<p>Wait... what?! Yes; no: (maybe)</p>', ['Wait... what?! Yes; no: (maybe)']],
    ['<pre>  code   block\n  here</pre>', ['code block here']],
    ['<table><tr><th>City</th><th>Riders</th></tr><tr><td>Oslo</td><td>1.2 million.</td><td>Up</td></tr></table>', ['City, Riders', 'Oslo, 1.2 million. Up']],
    ['<dl><dt>Term</dt><dd>Meaning</dd></dl>', ['Term', 'Meaning']],
    ['<div>Loose <em>text</em><p>Block</p>tail text</div>', ['Loose text', 'Block', 'tail text']],
    ['<ul><li>Parent item<ul><li>Child item</li></ul></li></ul>', ['Parent item', 'Child item']],
    ['Just plain text, no tags.', ['Just plain text, no tags.']],
    ['<p> </p><p>&nbsp;</p><div>\n</div>', []],
  ])('%s reads as %o', (body, expected) => {
    expect(texts(body)).toEqual(expected);
  });

  it('decodes entities in the plain title and summary fields without reading tags', () => {
    const { segments } = prepareArticle(input({ title: 'Q&amp;A: 5 &lt; 6 <b>really</b>', summary: 'It&#8217;s\n\n  short.' }));
    expect(segments.map((segment) => segment.text)).toEqual(['Q&A: 5 < 6 <b>really</b>', 'It’s short.']);
  });
});

describe('xpath and marker', () => {
  it.each([
    ['<p>a</p><div><p>b</p></div><p>c</p>', ['/p[1]', '/div[1]/p[1]', '/p[2]']],
    ['<b>Breaking:</b> news<p>Then</p>more', ['/b[1]', '/p[1]', '/text()[2]']],
    ['<table><tr><td>cell</td></tr></table>', ['/table[1]/tbody[1]/tr[1]']],
    ['<p>before <img data-service-image="true" src="x.jpg"> after</p>', ['/p[1]', '/p[1]/img[1]', '/p[1]']],
  ])('locates the blocks of %s as %o', (body, xpaths) => {
    expect(bodySegments(body).map((segment) => segment.xpath)).toEqual(xpaths);
  });

  it.each([
    ['<p data-service-marker="own">x</p>', 'own'],
    ['<div data-service-marker="outer"><section><p>x</p></section></div>', 'outer'],
    ['<div data-service-marker="outer"><p data-service-marker="inner">x</p></div>', 'inner'],
    ['<div data-service-marker="outer"><p data-service-marker="  ">x</p></div>', 'outer'],
    ['<p>x <span data-service-marker="inline">y</span></p>', null],
    ['<figure data-service-marker="photo"><img data-service-image="true" src="x.jpg"></figure>', 'photo'],
    ['<p data-beyondwords-marker="theirs">x</p>', 'theirs'],
    ['<div data-beyondwords-marker="outer"><p>x</p></div>', 'outer'],
    ['<p data-service-marker="ours" data-beyondwords-marker="theirs">x</p>', 'ours'],
    ['<p data-service-marker="" data-beyondwords-marker="theirs">x</p>', 'theirs'],
    ['<div data-service-marker="outer"><p data-beyondwords-marker="inner">x</p></div>', 'inner'],
  ])('gives %s the marker %o', (body, marker) => {
    expect(bodySegments(body)[0]?.marker).toBe(marker);
  });
});

describe("the original maker's attribute names", () => {
  it('read the WordPress plugin\'s excerpt wrapper as the summary, its entities decoded', () => {
    const body = '<div data-beyondwords-summary="true"><p>The library&#039;s reading room opens again.</p></div><p>Body.</p>';
    expect(rows(prepareArticle(input({ title: 'Title', body })).segments)).toEqual([
      ['title', 'text', 'Title', null, null],
      ['summary', 'text', 'The library\'s reading room opens again.', null, '/div[1]/p[1]'],
      ['body', 'text', 'Body.', null, '/p[1]'],
    ]);
  });

  it.each([
    ['<div data-beyondwords-summary="false"><p>Not a summary.</p></div>', ['body']],
    ['<p>First.</p><div data-beyondwords-summary="true"><p>Too late.</p></div>', ['body', 'body']],
  ])('read %s as body', (body, sections) => {
    expect(bodySegments(body).map((segment) => segment.section)).toEqual(sections);
  });
});

describe('what is not read', () => {
  it.each([
    '<script>var a = "x";</script>', '<style>p { color: red }</style>', '<noscript>Enable JS</noscript>',
    '<template><p>x</p></template>', '<nav><a href="/">Home</a></nav>', '<header><p>Site name</p></header>',
    '<footer>© 2024</footer>', '<aside><p>Related</p></aside>', '<form><label>Email</label></form>',
    '<button>Share</button>', '<iframe src="x">fallback</iframe>', '<svg><text>Chart</text></svg>',
    '<p hidden>x</p>', '<div aria-hidden="true"><p>x</p></div>', '<img src="photo.jpg" alt="A photo">',
    '<img data-service-image="false" src="photo.jpg">', '<img data-service-image="true">',
  ])('%s', (body) => {
    expect(bodySegments(`<p>Kept.</p>${body}`).map((segment) => segment.text)).toEqual(['Kept.']);
  });

  it('reads the header and footer of an article inside the body', () => {
    expect(texts('<article><header><h1>Title</h1></header><p>Text</p><footer>Credits</footer></article>'))
      .toEqual(['Title', 'Text', 'Credits']);
  });
});

describe('malformed HTML', () => {
  it.each([
    ['<p>Unclosed <b>bold<p>Next paragraph', ['Unclosed bold', 'Next paragraph']],
    ['<ul><li>One<li>Two</ul>', ['One', 'Two']],
    ['</p>Stray end tag</div>', ['Stray end tag']],
    ['<p>Broken &amp entity &#xZZ; and <a href="x>link</p>', ['Broken & entity &#xZZ; and']],
    ['<div><span>Mismatched</div></span>', ['Mismatched']],
    ['<p>Text<!-- unclosed comment', ['Text']],
  ])('%s does not throw and reads as %o', (body, expected) => {
    expect(texts(body)).toEqual(expected);
  });

  it('survives nesting deeper than the call stack', () => {
    const depth = 50_000;
    expect(texts(`${'<span>'.repeat(depth)}deep${'</span>'.repeat(depth)}`)).toEqual(['deep']);
  });
});

describe('the rewrite hook', () => {
  it('rewrites every text with its section before hashing, and drops texts rewritten to nothing', () => {
    const seen: string[] = [];
    const { segments } = prepareArticle(
      input({ title: 'Title', summary: 'Summary', body: '<p>hello world</p><p>Advertisement</p>' }),
      (text, section) => {
        seen.push(`${section}:${text}`);
        return text === 'Advertisement' ? ' ' : text.replace('world', 'world ');
      },
    );
    expect(seen).toEqual(['title:Title', 'summary:Summary', 'body:hello world', 'body:Advertisement']);
    expect(segments.map((segment) => [segment.text, segment.md5])).toEqual([
      ['Title', 'b78a3223503896721cca1303f776159b'],
      ['Summary', '290612199861c31d1036b185b4e69b75'],
      ['hello world', '5eb63bbbe01eeed093cb22bb8f5acdc3'],
    ]);
  });
});

describe('the long article generator', () => {
  it('builds the same ~2,000-word article every time, with two markers and one flagged image', () => {
    const html = longArticleHtml();
    expect(longArticleHtml()).toBe(html);
    const segments = bodySegments(html);
    const words = segments.flatMap((segment) => segment.text?.split(' ') ?? []).length;
    expect(words).toBeGreaterThanOrEqual(2000);
    expect(words).toBeLessThan(2200);
    expect(segments.filter((segment) => segment.marker !== null).map((segment) => segment.marker)).toEqual(['key-facts', 'reaction']);
    expect(segments.filter((segment) => segment.content_type === 'image')).toHaveLength(1);
    expect(segments.filter((segment) => segment.xpath?.includes('/h2[')).length).toBeGreaterThanOrEqual(3);
  });
});
