// The extractive summarizer's cost against article length: the time one summary takes (the text prepared as
// narration prepares it, then ranked), median and p99 of repeated runs, as a markdown table.
import { parseArgs } from 'node:util';
import { extractiveSummary, sentencesOfText } from '../src/infrastructure/summarizer/extractive.ts';
import { estimateTokens } from '../src/infrastructure/summarizer/port.ts';
import { prepareArticle } from '../src/generation/textPreparation.ts';
import { longArticleHtml } from '../test/fixtures/longArticle.ts';
import { gitCommit, median, percentile } from './service.ts';

const { values: args } = parseArgs({ options: { words: { type: 'string', default: '300,2000,6000,15000' }, runs: { type: 'string', default: '30' }, limit: { type: 'string', default: '150' } } });
const sizes = args.words.split(',').map(Number);
const runs = Number(args.runs);
const limit = Number(args.limit);

const plainText = (html: string) =>
  prepareArticle({ title: null, summary: null, body: html, titleEnabled: false, bodyEnabled: true, summaryEnabled: false, summaryTitleEnabled: false })
    .segments.flatMap((segment) => (segment.text ? [segment.text] : []))
    .join('\n\n');

console.log(`Extractive summaries, limit ${limit} tokens, ${runs} runs each (commit ${gitCommit()})\n`);
console.log('| article words | characters | sentences | summary tokens | median ms | p99 ms |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const words of sizes) {
  const text = plainText(longArticleHtml(words));
  extractiveSummary(text, limit);
  const times: number[] = [];
  let summary = '';
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    summary = extractiveSummary(text, limit);
    times.push(performance.now() - started);
  }
  console.log(`| ${words} | ${text.length} | ${sentencesOfText(text).length} | ${estimateTokens(summary)} | ${median(times).toFixed(1)} | ${percentile(times, 99).toFixed(1)} |`);
}
