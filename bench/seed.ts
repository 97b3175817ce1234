// Bulk seeding: N articles in project 1 written as events through the command path (validate, decide, append), fast enough for a million.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { loadVoiceCatalogue, openEventStore } from '../src/composition.ts';
import { bootstrapIfEmpty } from '../src/organizations/bootstrap.ts';
import { contentDecider, type ContentCommand, type ContentState } from '../src/content/decider.ts';
import { contentStream, type ContentEvent, type GeneratedMedia } from '../src/content/events.ts';
import { createContentHandlers, type ContentHandlers } from '../src/content/handlers.ts';
import { handleCommand, type Decider } from '../src/shared/decider.ts';
import type { EventStore } from '../src/infrastructure/eventStore/port.ts';
import { createStagedEventStore } from '../src/infrastructure/eventStore/staged.ts';
import type { VoiceCatalogue } from '../src/voices/catalogue.ts';
import { prng } from './service.ts';

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '1000' },
    'data-dir': { type: 'string' },
    key: { type: 'string', default: 'bench_bootstrap_key_0123456789' },
    batch: { type: 'string', default: '500' },
  },
});

const PROJECT = 1;
const MINUTE = 60_000;


const FUNCTION_WORDS = 'the of and to in a is that for on with as was at by from it his her their'.split(' ');
const NEWS_WORDS = ('council budget river bridge school season coach players harbour election minister festival museum ' +
  'weather storm farmers market prices housing tenants library volunteers hospital nurses railway station ' +
  'opening delayed announced residents community report evening morning district plans funding').split(' ');
const SYLLABLES = 'ka lo mi ne ru sa te vi do pa ri mo lu be ta si no re ga fi ho ze du ple stra cor ven mar tol'.split(' ');

/**
 * Words ranked as in real text: function words first, then news words, then 5,000 made-up words; a
 * word is drawn with a probability falling as 1/rank (Zipf), so searches meet common and rare text.
 */
function vocabulary(random: () => number) {
  const invented = new Set<string>();
  while (invented.size < 5_000) {
    invented.add(Array.from({ length: 2 + Math.floor(random() * 3) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''));
  }
  const words = [...FUNCTION_WORDS, ...NEWS_WORDS, ...invented];
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= words.length; rank++) cumulative.push((total += 1 / rank));
  return () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return words[low]!;
  };
}
const AUTHORS = ['News Desk', 'Ana Silva', 'Bo Chen', 'Chris Okafor', 'Dana Levi'];

/** What happened to an item after it was created: most are narrated and published, some wait or failed. */
type Fate = 'queued' | 'processed' | 'error';

interface SeedItem {
  wire: Record<string, unknown>;
  fate: Fate;
  created: Date;
  paragraphs: string[];
}

/** An article as a publisher sends it: title, 2–5 paragraphs of HTML, tags, author, its own post id and URL. */
function article(random: () => number, pick: () => string, index: number, created: Date): SeedItem {
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(random() * 10) }, pick);
    return `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
  };
  const paragraphs = Array.from({ length: 2 + Math.floor(random() * 4) }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, sentence).join(' '));
  const roll = random();
  const fate: Fate = roll < 0.85 ? 'processed' : roll < 0.95 ? 'queued' : 'error';
  const wire = {
    title: sentence().slice(0, -1),
    body: paragraphs.map((text) => `<p>${text}</p>`).join(''),
    source_id: `seed-${index}`,
    source_url: `https://news.example.com/${created.getUTCFullYear()}/story-${index}`,
    author: AUTHORS[index % AUTHORS.length],
    tags: [NEWS_WORDS[index % NEWS_WORDS.length]!, NEWS_WORDS[(index * 7) % NEWS_WORDS.length]!],
    published: random() < 0.8,
    video_published: random() < 0.1,
    ...(random() < 0.9 ? { publish_date: new Date(created.getTime() + 30 * MINUTE).toISOString() } : {}),
  };
  return { wire, fate, created, paragraphs };
}

/** What the generation lifecycle records for a narrated item: an mp3 and one timed segment per paragraph. */
function media(contentId: string, item: SeedItem): GeneratedMedia {
  let start = 0;
  const at = item.created.toISOString();
  const segments = [item.wire.title as string, ...item.paragraphs].map((text, index) => {
    const duration = Math.round(text.split(' ').length * 330);
    const segment = {
      id: index + 1,
      marker: `seed-${contentId.slice(0, 8)}-${index}`,
      section: index === 0 ? 'title' : 'body',
      content_type: 'text',
      text,
      audio_url: null,
      image_url: null,
      video_url: null,
      start_time: start,
      duration,
      voice: { id: 1, name: 'English (America)' },
      language: { code: 'en_US', name: 'English (America)' },
      preprocessing_settings: null,
      xpath: index === 0 ? null : `/p[${index}]`,
      md5: null,
      video_settings: null,
      pauses: [],
      words: [],
      created: at,
      updated: at,
    };
    start += duration + 400;
    return segment;
  });
  const url = `/media/${PROJECT}/${contentId}/1/article.mp3`;
  return { audio: [{ id: 1, content_type: 'audio/mpeg', url, duration: start, variant: 'article' }], video: [], segments, summarySegments: [], duration: start };
}

/** The content decider taking a list of commands at once, so that an item's recorded life is one append. */
const lifeDecider: Decider<ContentState, ContentCommand[], ContentEvent> = {
  initialState: contentDecider.initialState,
  evolve: contentDecider.evolve,
  decide(commands, state) {
    const events: ContentEvent[] = [];
    for (const command of commands) {
      const decided = contentDecider.decide(command, state);
      if (!Array.isArray(decided)) return decided;
      events.push(...decided);
      state = decided.reduce(contentDecider.evolve, state);
    }
    return events;
  },
};

/**
 * One item through the API's own create (validation, source-id claim, decide, append), then what the
 * generation lifecycle records for it, decided and appended the same way in one append.
 */
async function seedItem(store: EventStore, handlers: ContentHandlers, item: SeedItem, random: () => number) {
  const { contentId } = await handlers.create(PROJECT, item.wire, item.created);
  const now = (minutes: number) => new Date(item.created.getTime() + minutes * MINUTE).toISOString();
  const life: ContentCommand[] = [];
  if (item.fate !== 'queued') life.push({ kind: 'StartProcessing', generation: 1, now: now(1) });
  if (item.fate === 'processed') life.push({ kind: 'CompleteProcessing', generation: 1, media: media(contentId, item), published: item.wire.published !== false && random() < 0.95, videoPublished: item.wire.video_published === true, now: now(2) });
  if (item.fate === 'error') life.push({ kind: 'FailProcessing', generation: 1, reason: 'synthesis failed (seeded)', now: now(2) });
  if (life.length > 0) await handleCommand(store, contentStream(contentId), lifeDecider, life);
}

/**
 * A batch of items goes through the command path against a staged store (reads see the batch's own appends,
 * expected revisions are checked), then every append of the batch is written at once (`appendMany`: one
 * SQLite transaction), rather than one commit per append.
 */
async function seed(store: EventStore, voices: VoiceCatalogue, count: number, batch: number) {
  const random = prng(42);
  const pick = vocabulary(random);
  const first = Date.now() - count * MINUTE;
  const started = performance.now();
  const staged = createStagedEventStore(store);
  const handlers = createContentHandlers(staged, voices);
  for (let from = 0; from < count; from += batch) {
    const items = Array.from({ length: Math.min(batch, count - from) }, (_, i) => article(random, pick, from + i, new Date(first + (from + i) * MINUTE)));
    await Promise.all(items.map((item) => seedItem(staged, handlers, item, random)));
    await staged.commit();
    const done = from + items.length;
    process.stdout.write(`\r  ${done} / ${count} items, ${Math.round(done / ((performance.now() - started) / 1000))} items/s`);
  }
  process.stdout.write('\n');
}

const count = Number(args.items);
const batch = Number(args.batch);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(batch) || batch < 1) throw new Error('--items and --batch must be whole numbers of at least 1');
if (!args['data-dir'] && !process.env.EVENTSTORE_URL) throw new Error('--data-dir is required (or EVENTSTORE_URL)');
const loaded = loadConfig({ ...process.env, ...(args['data-dir'] ? { DATA_DIR: args['data-dir'] } : {}) });
if (!loaded.ok) throw new Error(loaded.message);
const store = await openEventStore(loaded.config);
try {
  const bootstrapped = await bootstrapIfEmpty(store, args.key, new Date());
  if (bootstrapped) console.log(`created organization ${bootstrapped.organizationId}, project ${bootstrapped.projectId} and key ${bootstrapped.apiKey}`);
  const started = performance.now();
  await seed(store, await loadVoiceCatalogue(loaded.config, console.log), count, batch);
  const seconds = (performance.now() - started) / 1000;
  console.log(`seeded ${count} items in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} items/s)`);
} finally {
  await store.close();
}
