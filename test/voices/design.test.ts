// Voice design as a listener hears it: every word group of docs/voices.md's description words asked for once, every
// preview it answers heard by the offline recognizer (test/support/recognizer.ts), and a designed voice narrating an
// item; and cloning, which the installed engines cannot do, refused at `files` whatever the body.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, settled } from '../support/generation.ts';
import { comparedWords, differences, itemWords, startRecognizer, timingAgreement, wordErrorRate, type Recognizer } from '../support/recognizer.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'voice-design-'));
// Short (the schema's 100 characters at least), plain words the recognizer knows.
const TEXT = 'Good evening. Tonight we look at the harbor, the market and the people who keep both of them running every day.';
const words = (text: string) => comparedWords([text]).map((word) => word.word);

/** One description per word group of docs/voices.md; between them they hold every group. */
const DESCRIPTIONS: { group: string; description: string; engines: string[] }[] = [
  { group: 'old, female, slow, calm', description: 'A calm, slow elderly woman with a warm and gentle voice', engines: ['kokoro'] },
  { group: 'British, male, old, deep', description: 'An older British gentleman with a deep, gravelly voice', engines: ['kokoro', 'piper'] },
  { group: 'young, high, fast, energetic', description: 'A bright young American woman, quick and energetic', engines: ['kokoro'] },
  { group: 'neutral, transatlantic', description: 'A gender-neutral, transatlantic narrator', engines: ['kokoro', 'piper'] },
  { group: 'robotic', description: 'A robotic, mechanical station announcer', engines: ['espeak-ng', 'kokoro', 'piper'] },
  { group: 'whispered', description: 'A whispering woman telling a bedtime story', engines: ['kokoro', 'piper'] },
];

let server: TestServer;
let recognizer: Recognizer;
beforeAll(async () => {
  [server, recognizer] = await Promise.all([startServer({ env: { GENERATION_ENABLED: 'true', KOKORO_WORKERS: '2', SYNTHESIS_TIMEOUT_MS: '240000' } }), startRecognizer()]);
}, 60_000);
afterAll(async () => {
  recognizer?.close();
  await server?.stop();
});

/** What finalize_design keeps of a preview: its voice, as the catalogue lists it. */
async function keep(preview: any, name: string) {
  const kept = await server.request('POST', '/v1/organization/voices/finalize_design', { body: { generated_voice_id: preview.generated_voice_id, voice_name: name } });
  expect(kept.status, JSON.stringify(kept.body)).toBe(201);
  return kept.body;
}

// Runs once, in the embedded run: the real-server run (TEST_MONGODB_URL set) changes only where events and read
// models are kept, and the same previews would be spoken and heard again.
describe.skipIf(process.env.TEST_MONGODB_URL)('voice design, heard by the offline recognizer', () => {
  it('answers neural previews for every word group (espeak-ng only for robotic), each understood at WER ≤ 10 %', async () => {
    const started = Date.now();
    // One description at a time: its previews are spoken side by side by the two Kokoro workers.
    const results: { group: string; engine: string; shift: any; rate: number; diff: unknown }[] = [];
    const designed = async ({ group, description, engines }: (typeof DESCRIPTIONS)[number], index: number) => {
      const answer = await server.request('POST', '/v1/organization/voices/design_previews', { body: { voice_description: description, text: TEXT } });
      expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
      expect(answer.body.previews.length).toBeGreaterThan(1);
      for (const [at, preview] of answer.body.previews.entries()) {
        const voice = await keep(preview, `${group} ${at}`);
        expect(engines, `${group}: preview ${at}`).toContain(voice.engine);
        if (voice.engine === 'espeak-ng') {
          // Only a robotic description has an espeak-ng variant, and only as its first preview.
          expect(at, group).toBe(0);
          expect(voice.variant).toBe('klatt');
        }
        const mp3 = path.join(scratch, `preview-${index}-${at}.mp3`);
        writeFileSync(mp3, Buffer.from(preview.audio_base_64, 'base64'));
        const heard = (await recognizer.transcribe(mp3)).text;
        results.push({ group, engine: voice.engine, shift: voice.shift, rate: wordErrorRate(words(TEXT), words(heard)), diff: differences(words(TEXT), words(heard)) });
        console.log(`${group} preview ${at}: ${voice.engine} ${JSON.stringify(voice.shift)} WER ${(results.at(-1)!.rate * 100).toFixed(1)} % (${Date.now() - started} ms)`);
      }
      return answer.body.previews;
    };
    const previews: any[][] = [];
    for (const [index, entry] of DESCRIPTIONS.entries()) previews.push(await designed(entry, index));
    console.log(`${results.length} previews of ${DESCRIPTIONS.length} descriptions in ${Date.now() - started} ms`);
    for (const result of results) expect(result.rate, `${result.group} (${result.engine}): ${JSON.stringify(result.diff)}`).toBeLessThanOrEqual(0.1);
    // Age and depth words shift the voice down or up; a description without them does not.
    const shifts = (group: string) => results.filter((result) => result.group === group && result.engine === 'kokoro').map((result) => result.shift);
    for (const shift of shifts('British, male, old, deep')) expect(shift.semitones).toBeLessThan(0);
    for (const shift of shifts('young, high, fast, energetic')) expect(shift.semitones).toBeGreaterThan(0);
    for (const shift of shifts('neutral, transatlantic')) expect(shift).toBeNull();
  }, 600_000);

  it('narrates an item with a designed elderly voice: Kokoro, shifted as its preview was, understood and timed where heard', async () => {
    const answer = await server.request('POST', '/v1/organization/voices/design_previews', { body: { voice_description: 'An elderly man with a deep voice, speaking slowly', text: TEXT } });
    expect(answer.status).toBe(200);
    const voice = await keep(answer.body.previews[0], 'Elder');
    expect(voice).toMatchObject({ type: 'designed', engine: 'kokoro', gender: 'male', variant: null });
    expect(voice.speed).toBeLessThan(1);
    expect(voice.shift.semitones).toBeLessThan(0);
    expect(voice.shift.low_db).toBeGreaterThan(0);
    expect((await server.request('GET', `/v1/organization/voices/${voice.id}`)).body).toEqual(voice);

    const text = 'The harbor opens at noon on Saturday. Visitors can walk along the old pier and watch the boats come in from the sea.';
    const created = await server.request('POST', '/v1/projects/1/content', {
      body: { type: 'manual_segment', title: 'Harbour', segments: [{ content_type: 'text', section: 'body', text, voice: { id: voice.id } }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const item = await settled(server, created.body.id, 240_000);
    expect(item.status, item.error).toBe('processed');
    expect(item.segments[0].voice).toEqual({ id: voice.id, name: 'Elder' });
    const mp3 = await download(item.audio.find((file: any) => file.content_type === 'audio/mpeg').url, mkdtempSync(path.join(scratch, 'item-')));
    const heard = await recognizer.transcribe(mp3);
    const rate = wordErrorRate(words(text), words(heard.text));
    expect(rate, JSON.stringify(differences(words(text), words(heard.text)))).toBeLessThanOrEqual(0.1);
    // Slower and lower, the words are still where the API says they are: the shift keeps the tempo.
    const agreement = timingAgreement(itemWords(item), heard.words, 150);
    console.log(`elderly voice: WER ${(rate * 100).toFixed(1)} %, ${agreement.within}/${agreement.total} word starts within 150 ms`);
    expect(agreement.within / agreement.total, `offsets ${agreement.offsets.join(' ')}`).toBeGreaterThanOrEqual(0.7);
  }, 300_000);
});

describe('voice cloning', () => {
  const refusal = { location: 'files', message: 'cannot be cloned with the installed engines' };

  it('reads a multipart body of recordings and answers 422 at files', async () => {
    const form = new FormData();
    form.append('name', 'My voice');
    for (const name of ['one.mp3', 'two.wav']) form.append('files', new Blob([new Uint8Array(300_000).fill(7)], { type: 'audio/mpeg' }), name);
    const response = await fetch(`${server.baseUrl}/v1/organization/voices/clone`, { method: 'POST', headers: { 'x-api-key': TEST_KEY }, body: form });
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(422);
    expect(body.errors).toEqual([refusal]);
    expect(body.message).toMatch(/Voice cloning is not available/);
  });

  it('answers JSON bodies, and none, the same; a broken multipart body is 400', async () => {
    for (const body of [{ name: 'Me', files: ['https://example.com/me.mp3'] }, undefined]) {
      const refused = await server.request('POST', '/v1/organization/voices/clone', { body });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([refusal]);
    }
    const broken = await server.request('POST', '/v1/organization/voices/clone', { rawBody: '--x\r\nContent-Disposition: form-data; name="files"; filename="a.mp3"\r\n\r\nabc', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(broken.status).toBe(400);
  });
});
