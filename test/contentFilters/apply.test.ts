// Filters on a linkedom DOM (what extraction uses) and the selectors they accept.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { applyExcludeFilters, includedElements, selectorProblem, type ContentFilter } from '../../src/contentFilters/apply.ts';

const PAGE = `<!doctype html><html><body>
  <nav>Home</nav><div id="cookie-banner">We use cookies.</div>
  <article class="story"><h1>Flood</h1><p>The river rose.</p><div class="ad">Buy now</div><section class="more"><p>Roads closed.</p></section></article>
  <div class="more">Related links</div><footer>Footer</footer>
</body></html>`;

const filter = (type: ContentFilter['type'], selector: string, enabled = true): ContentFilter => ({ type, selector, enabled });

describe('filters on a DOM', () => {
  it('removes what enabled exclude filters match, and only that', () => {
    const { document } = parseHTML(PAGE);
    applyExcludeFilters(document, [filter('exclude', '.ad'), filter('exclude', '#cookie-banner'), filter('exclude', 'nav', false), filter('include', 'footer')]);
    const text = document.body.textContent!.replace(/\s+/g, ' ').trim();
    expect(text).toBe('Home FloodThe river rose.Roads closed. Related linksFooter');
  });

  it('picks the elements include filters match, in document order, none inside another', () => {
    const { document } = parseHTML(PAGE);
    const picked = includedElements(document, [filter('include', '.more'), filter('include', 'article'), filter('include', 'nav', false), filter('exclude', 'footer')]);
    expect(picked.map((element: any) => element.tagName.toLowerCase())).toEqual(['article', 'div']);
    expect(includedElements(document, [filter('exclude', '.ad')])).toEqual([]);
  });

  it('accepts the selectors the engine reads in time growing with the page, and names the problem of the others', () => {
    for (const selector of ['.ad', '#cookie-banner', 'article > .content p', '[data-ad]', 'a[href^="+"]', '[class~="ad"]', ':not(.keep) aside', ':is(.a, .b)', 'ARTICLE']) {
      expect(selectorProblem(selector), selector).toBeNull();
    }
    expect(selectorProblem('div[')).toMatch(/^is not a valid CSS selector/);
    expect(selectorProblem(':nope(')).toMatch(/^is not a valid CSS selector/);
    expect(selectorProblem('p::before')).toMatch(/^is not a valid CSS selector/);
    expect(selectorProblem('p + p')).toMatch(/sibling combinators/);
    expect(selectorProblem('h2 ~ p')).toMatch(/sibling combinators/);
    expect(selectorProblem('p:first-child')).toMatch(/position pseudo-classes/);
    expect(selectorProblem('li:nth-child(2n+1)')).toMatch(/position pseudo-classes/);
    expect(selectorProblem('div:has(.ad)')).toMatch(/:has\(\)/);
    expect(selectorProblem('p:contains(Sponsored)')).toMatch(/:contains\(\)/);
    expect(selectorProblem(':not(.post .ad)')).toMatch(/combinator inside a pseudo-class/);
    expect(selectorProblem(':is(main > p)')).toMatch(/combinator inside a pseudo-class/);
    expect(selectorProblem('> p')).toMatch(/at its start/);
    for (const selector of [':not(.a, .b)', ':is( .a )', 'a[href="x y"] b', '.a\\31 23']) expect(selectorProblem(selector), selector).toBeNull();
  });

  it('matches what linkedom matches, in document order', () => {
    const { document } = parseHTML(PAGE);
    for (const selector of ['p', 'article p', 'body > article > p', 'article section p', 'div.more, p', ':not(.ad) > p', '[class~="more"]', 'html body *']) {
      const ours = includedElements(document, [filter('include', selector)]);
      const outermost = [...document.querySelectorAll(selector)].filter((element: any) => !ours.includes(element) ? ours.every((picked: any) => !picked.contains(element)) : true);
      expect(ours, selector).toEqual(outermost);
    }
  });

  it('follows descendant combinators in time linear in the page, however deep', () => {
    const { document } = parseHTML(`<html><body>${'<div>'.repeat(2_000)}<p class="ad">x</p>${'</div>'.repeat(2_000)}</body></html>`);
    const started = performance.now();
    applyExcludeFilters(document, [filter('exclude', 'main div div div div'), filter('exclude', 'article div div p'), filter('exclude', 'div > div div .ad')]);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(document.querySelectorAll('.ad')).toHaveLength(0);
  });

  it('applies filters to a page of 10,000 paragraphs in a few seconds at most', () => {
    const { document } = parseHTML(`<html><body>${'<p class="a">word</p><div class="ad">x</div>'.repeat(10_000)}</body></html>`);
    const started = performance.now();
    applyExcludeFilters(document, [filter('exclude', 'body .ad')]);
    expect(includedElements(document, [filter('include', 'p.a')])).toHaveLength(10_000);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(document.querySelectorAll('.ad')).toHaveLength(0);
  });
});
