// Filters on a posted HTML body, as body preparation applies them: what is read, and where each segment sits.
import { describe, expect, it } from 'vitest';
import type { ContentFilter } from '../../src/contentFilters/apply.ts';
import { prepareArticle } from '../../src/generation/textPreparation.ts';

const prepare = (body: string, filters: ContentFilter[]) =>
  prepareArticle({ title: null, summary: null, body, titleEnabled: true, bodyEnabled: true, summaryEnabled: true, summaryTitleEnabled: false, filters })
    .segments.map((segment) => `${segment.section} ${segment.xpath} ${segment.text}`);

const exclude = (selector: string): ContentFilter => ({ type: 'exclude', selector, enabled: true });
const include = (selector: string): ContentFilter => ({ type: 'include', selector, enabled: true });

const BODY =
  '<div data-service-summary="true"><p>In short: the river rose.</p><p class="ad">Sponsored.</p></div>' +
  '<nav>Home</nav><div id="cookie-banner">Cookies.</div>' +
  '<main><div class="post"><header><h2>Flood</h2></header><p>The river rose.</p><table><tr><td>Level</td><td class="ad">Ad</td></tr></table></div></main>' +
  '<div class="post"><p>Second part.</p></div><p>Footer text.</p>';

describe('filters on a posted body', () => {
  it('reads everything without filters, or with disabled ones only', () => {
    const all = prepare(BODY, []);
    expect(prepare(BODY, [{ ...exclude('p'), enabled: false }])).toEqual(all);
    expect(all).toContain('body /div[2] Cookies.');
  });

  it('leaves out excluded elements in the summary div and the body; the others keep their xpaths', () => {
    expect(prepare(BODY, [exclude('.ad'), exclude('#cookie-banner')])).toEqual([
      'summary /div[1]/p[1] In short: the river rose.',
      'body /main[1]/div[1]/header[1]/h2[1] Flood',
      'body /main[1]/div[1]/p[1] The river rose.',
      'body /main[1]/div[1]/table[1]/tbody[1]/tr[1] Level',
      'body /div[3]/p[1] Second part.',
      'body /p[1] Footer text.',
    ]);
  });

  it('reads only what include filters pick, and never what is excluded', () => {
    expect(prepare(BODY, [include('.post'), exclude('.ad')])).toEqual([
      'summary /div[1]/p[1] In short: the river rose.',
      'body /main[1]/div[1]/header[1]/h2[1] Flood',
      'body /main[1]/div[1]/p[1] The river rose.',
      'body /main[1]/div[1]/table[1]/tbody[1]/tr[1] Level',
      'body /div[3]/p[1] Second part.',
    ]);
    expect(prepare(BODY, [include('main'), include('main .post p'), exclude('main')])).toEqual(['summary /div[1]/p[1] In short: the river rose.', 'summary /div[1]/p[2] Sponsored.', 'body /div[2] Cookies.', 'body /div[3]/p[1] Second part.', 'body /p[1] Footer text.']);
  });

  it('reads the whole body when include filters pick nothing in it (it is already the article)', () => {
    expect(prepare('<p>Only this.</p><p class="ad">Ad.</p>', [include('article.story'), exclude('.ad')])).toEqual(['body /p[1] Only this.']);
  });

  it('copes with deep and wide hostile markup', () => {
    const deep = `${'<div>'.repeat(3_000)}<p class="ad">Ad.</p><p>Deep.</p>${'</div>'.repeat(3_000)}`;
    expect(prepare(deep, [exclude('div .ad')]).map((segment) => segment.split(' ').at(-1))).toEqual(['Deep.']);
    const wide = '<p>Word.</p><p class="ad">Ad.</p>'.repeat(5_000);
    const started = performance.now();
    expect(prepare(wide, [exclude('.ad'), include('p')])).toHaveLength(5_000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('a header or footer inside a picked part', () => {
  it('belongs to the article, as it would inside <article>', () => {
    const body = '<header>Site banner.</header><div class="post"><header>Byline.</header><p>Text.</p><footer>Tags.</footer></div>';
    expect(prepare(body, [])).toEqual(['body /div[1]/p[1] Text.']);
    expect(prepare(body, [include('.post')])).toEqual(['body /div[1]/header[1] Byline.', 'body /div[1]/p[1] Text.', 'body /div[1]/footer[1] Tags.']);
  });
});
