// What content filters cost: body preparation with and without filters, and filters on a linkedom page (medians).
import { parseArgs } from 'node:util';
import { parseHTML } from 'linkedom';
import { applyExcludeFilters, includedElements, type ContentFilter } from '../src/contentFilters/apply.ts';
import { prepareArticle } from '../src/generation/textPreparation.ts';
import { median } from './service.ts';
import { machineLine } from './support.ts';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '15' }, paragraphs: { type: 'string', default: '60' } } });
const rounds = Number(args.rounds);
const paragraphs = Number(args.paragraphs);

const paragraph = (n: number) =>
  `<p>The council approved the budget for bridge number ${n} after a long evening meeting, and residents asked for more funding.</p>`;
const article = `<article class="story"><header><h1>Budget approved</h1></header>${Array.from({ length: paragraphs }, (_, n) =>
  paragraph(n) + (n % 10 === 5 ? '<div class="ad"><p>Sponsored: discount tyres.</p></div>' : '')).join('')}</article>`;
const body = `<nav><a href="/">Home</a></nav><div id="cookie-banner">We use cookies.</div>${article}<div class="related"><ul>${'<li><a href="/x">Related story</a></li>'.repeat(20)}</ul></div>`;
const page = `<!doctype html><html><head><title>Budget</title></head><body><main>${body}</main><footer>Footer</footer></body></html>`;

const filters: ContentFilter[] = [
  { type: 'exclude', selector: '.ad', enabled: true },
  { type: 'exclude', selector: '#cookie-banner', enabled: true },
  { type: 'exclude', selector: 'main .related ul li', enabled: true },
  { type: 'include', selector: 'main article.story', enabled: true },
];

function timed(run: () => unknown): number {
  run();
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const input = { title: 'Budget approved', summary: null, body, titleEnabled: true, bodyEnabled: true, summaryEnabled: true, summaryTitleEnabled: false };
const rows: [string, number][] = [
  ['posted body prepared, no filters', timed(() => prepareArticle(input))],
  ['posted body prepared, 3 exclude + 1 include filters', timed(() => prepareArticle({ ...input, filters }))],
  ['page parsed by linkedom', timed(() => parseHTML(page))],
  ['page parsed by linkedom, then the filters applied', timed(() => {
    const { document } = parseHTML(page);
    applyExcludeFilters(document, filters);
    includedElements(document, filters);
  })],
];

console.log(`Content filters, ${paragraphs} paragraphs (${Math.round(body.length / 1024)} KB body), median of ${rounds} rounds; ${machineLine()}\n`);
console.log('| what | median ms |\n|---|---|');
for (const [what, value] of rows) console.log(`| ${what} | ${value.toFixed(1)} |`);
