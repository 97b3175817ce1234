import { mkdtempSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../src/media/tool.ts';
import { download, tokensOf } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

// espeak-ng, Piper and Kokoro read `[[…]]` as phoneme input. Only an IPA rule's transcription may reach them that
// way: an article's brackets, the punctuation a rule puts back beside the word it matched, and a substitute's own
// text are said as text. Each narration below is compared, sample for sample, with the narration of the same text
// written with single brackets (which no engine reads as phonemes): equal audio means the engine was given the same
// words, none of them as phonemes.
let server: TestServer;
let projectId: number;
let espeakVoice: number;
const scratch = mkdtempSync(path.join(tmpdir(), 'phoneme-markup-'));

beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
  projectId = (await server.request('POST', '/v1/projects', { body: { name: 'Bracket desk' } })).body.id;
  const voices = (await server.request('GET', '/v1/organization/voices?filter[engine]=espeak-ng&filter[language.code]=en_US')).body;
  espeakVoice = voices[0].id;
  const rules = [
    { type: 'say_as_word', text: 'NASA' },
    // A substitute's text is text: its brackets are said, never read as phonemes.
    { type: 'substitute', text: 'Agency', case_sensitive: true, replacement: 'the [[space]] office' },
    { type: 'ipa_transcription', text: 'tomato', replacement: '/təˈmɑːtəʊ/' },
  ];
  for (const rule of rules) {
    const reply = await server.request('POST', '/v1/rules', { body: { ...rule, project: { id: projectId } } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  }
}, 60_000);
afterAll(() => server.stop());

async function narrated(text: string, voiceId: number | null): Promise<any> {
  const voices = voiceId === null ? {} : { title_voice_id: voiceId, body_voice_id: voiceId };
  const created = await server.request('POST', `/v1/projects/${projectId}/content`, { body: { body: `<p>${text}</p>`, title_enabled: false, summary_enabled: false, ...voices } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const item = (await server.request('GET', `/v1/projects/${projectId}/content/${created.body.id}?segments=full&words=full`)).body;
    if (!['queued', 'processing'].includes(item.status)) return item;
    if (Date.now() > deadline) throw new Error(`item still ${item.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The narration's decoded samples, hashed. */
async function samplesOf(item: any): Promise<string> {
  const mp3 = await download(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url, mkdtempSync(path.join(scratch, 'item-')));
  const decoded = await runTool('ffmpeg', ['-nostdin', '-v', 'error', '-i', mp3, '-f', 's16le', '-ac', '1', '-'], { timeoutMs: 30_000 });
  expect(decoded.code, decoded.stderr.toString()).toBe(0);
  expect(decoded.stdout.length).toBeGreaterThan(10_000);
  return createHash('sha256').update(decoded.stdout).digest('hex');
}

const bodyWords = (item: any) => item.segments.filter((segment: any) => segment.section === 'body').flatMap((segment: any) => segment.words.map((word: any) => word.text));

const CASES: [string, string, string][] = [
  ['the article’s [[ beside a say_as_word rule’s word', '[[NASA launched the rocket today.', '[NASA launched the rocket today.'],
  ['[[ and ]] at a rule’s edges', 'Then NASA[[ launched the rocket, NASA]] said.', 'Then NASA[ launched the rocket, NASA] said.'],
  ['[[ around amounts, dates and percentages that are read as words', 'It cost [[$5]] on [[3 March]], [[12%]] more.', 'It cost [$5] on [3 March], [12%] more.'],
  ['a substitute whose own replacement holds [[ and ]]', 'We asked Agency today.', 'We asked the [space] office today.'],
  ['brackets around an IPA rule’s word', 'She grew a [[tomato]] in June.', 'She grew a [tomato] in June.'],
];

describe('phoneme markup from text, with espeak-ng', () => {
  it.each(CASES)('never comes from %s', async (_, text, asText) => {
    const [said, reference] = await Promise.all([narrated(text, espeakVoice), narrated(asText, espeakVoice)]);
    expect([said.status, reference.status], `${said.error} ${reference.error}`).toEqual(['processed', 'processed']);
    // The words as written, each timed, and the same sound as the text with single brackets.
    expect(bodyWords(said)).toEqual(tokensOf(text));
    expect(await samplesOf(said)).toBe(await samplesOf(reference));
  }, 150_000);
});

describe('phoneme markup from text, with the default (neural) voice', () => {
  it('never comes from the article’s [[ beside a rule’s word', async () => {
    const [text, asText] = [CASES[0]![1], CASES[0]![2]];
    const [said, reference] = await Promise.all([narrated(text, null), narrated(asText, null)]);
    expect([said.status, reference.status], `${said.error} ${reference.error}`).toEqual(['processed', 'processed']);
    expect(bodyWords(said)).toEqual(tokensOf(text));
    expect(await samplesOf(said)).toBe(await samplesOf(reference));
  }, 150_000);
});
