// One run of a feed import: fetch (conditional GET), then each entry creates or updates its item through the content
// commands (found by source id through the read model's index), and the outcome is recorded as the import's last run.
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import type { ContentHandlers } from '../content/handlers.ts';
import { CONTENT_ITEMS, type ContentItemView } from '../content/readModel.ts';
import { AppError } from '../shared/errors.ts';
import { FeedProblem, readFeed, type FeedEntry, type FeedFetchLimits } from './feed.ts';
import { finishRun, startRun } from './handlers.ts';
import type { FeedImportFields, RunError, RunOutcome } from './events.ts';

export interface FeedRunDeps {
  events: EventStore;
  read: ReadStore;
  content: ContentHandlers;
  limits: FeedFetchLimits;
  now: () => Date;
}

export type RunCounts = Omit<RunOutcome, 'started' | 'finished'>;

/** A run that never finished (its process died) stops holding the import after this long. */
export const RUN_STALE_MS = 15 * 60_000;
const MAX_ERRORS = 100;
/** Entries written at once: each is a few appends and a lookup. */
const CONCURRENCY = 4;

/** The content fields an entry gives, as the REST content API takes them (wire names). */
function contentBody(entry: FeedEntry, settings: FeedImportFields): Record<string, unknown> {
  return {
    source_id: entry.source_id,
    title: entry.title === null ? null : plain(entry.title).slice(0, 500) || null,
    ...(settings.fetchFullArticle ? {} : { body: entry.body }),
    source_url: entry.source_url,
    summary: entry.summary === null ? null : plain(entry.summary).slice(0, 2000) || null,
    author: entry.author === null ? null : plain(entry.author).slice(0, 500) || null,
    image_url: entry.image_url,
    publish_date: isoDate(entry.publish_date),
    published: settings.publish,
  };
}

/** Titles, summaries and authors are text: markup a feed puts in them is dropped. */
const plain = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

const isoDate = (text: string | null) => {
  const time = text === null ? NaN : Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
};

/** The id is how the item was found; `published` is set once, at creation, and is the editors' to change after. */
const UNCOMPARED = new Set(['source_id', 'published']);

/**
 * The fields of the body that differ from the item as it is (camelCase names in the read model). A field the entry
 * lacks leaves the item's as it is (extraction may have filled it from the page).
 */
function changedFields(item: ContentItemView, body: Record<string, unknown>): Record<string, unknown> {
  const current = item as unknown as Record<string, unknown>;
  const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return Object.fromEntries(Object.entries(body).filter(([key, value]) => !UNCOMPARED.has(key) && value !== null && (current[camel(key)] ?? null) !== value));
}

const messageOf = (error: unknown) =>
  error instanceof AppError ? [error.message, ...error.errors.map((e) => `${e.location} ${e.message}`)].join(': ') : String((error as Error)?.message ?? error);

export function createFeedRunner(deps: FeedRunDeps) {
  const items = deps.read.collection<ContentItemView>(CONTENT_ITEMS);

  async function importEntry(projectId: number, settings: FeedImportFields, entry: FeedEntry): Promise<'imported' | 'updated' | 'skipped'> {
    if (!entry.source_id) throw new FeedProblem('the entry has no id (guid, id or link)');
    if (!settings.fetchFullArticle && !entry.body) throw new FeedProblem('the entry has no body');
    if (settings.fetchFullArticle && !entry.source_url) throw new FeedProblem("the entry has no link to its article's page");
    const body = contentBody(entry, settings);
    const item = await items.findOne({ projectId, sourceId: entry.source_id });
    if (!item) {
      await deps.content.create(projectId, body, deps.now());
      return 'imported';
    }
    const changes = changedFields(item, body);
    if (Object.keys(changes).length === 0) return 'skipped';
    await deps.content.update(projectId, item._id, item.contentType, changes, deps.now());
    return 'updated';
  }

  async function importEntries(projectId: number, settings: FeedImportFields, entries: FeedEntry[]): Promise<RunCounts> {
    const counts: RunCounts = { imported: 0, updated: 0, skipped: 0, errors: [] };
    const seen = new Set<string>();
    const error = (item: string | null, message: string) => {
      if (counts.errors.length < MAX_ERRORS) counts.errors.push({ item, message: message.slice(0, 500) });
    };
    let next = 0;
    const work = async () => {
      while (next < entries.length) {
        const entry = entries[next++]!;
        // The same id twice in one feed: the first one counts.
        if (entry.source_id && seen.has(entry.source_id)) continue;
        if (entry.source_id) seen.add(entry.source_id);
        try {
          counts[await importEntry(projectId, settings, entry)]++;
        } catch (failure) {
          error(entry.source_id, messageOf(failure));
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, work));
    return counts;
  }

  return {
    /**
     * Runs an import now: 409 while another run of it is under way, 404 when it does not exist. A feed that cannot be
     * read is a finished run with one error. Answers the counts and the position of the recorded outcome; null when
     * a scheduled run (`dueAfterMs`) was not due.
     */
    async run(feedImportId: number, dueAfterMs?: number): Promise<{ counts: RunCounts; position: number } | null> {
      const runId = randomUUID();
      const started = deps.now();
      const state = await startRun(deps.events, feedImportId, runId, started, RUN_STALE_MS, dueAfterMs);
      if (!state) return null;
      const settings = state.fields!;
      let counts: RunCounts = { imported: 0, updated: 0, skipped: 0, errors: [] };
      let validators = state.validators;
      try {
        const read = await readFeed(settings.url, settings, state.validators, deps.limits);
        if (read.kind === 'feed') {
          counts = await importEntries(state.projectId!, settings, read.entries);
          // An entry that failed is tried again by the next run, which must then read the feed, not hear a 304.
          validators = counts.errors.length === 0 ? read.validators : null;
        }
      } catch (failure) {
        counts.errors.push({ item: null, message: failure instanceof FeedProblem ? failure.message : `the run stopped: ${messageOf(failure)}` });
        validators = null;
        if (!(failure instanceof FeedProblem)) {
          // Recorded as far as the store lets it, so that the import is not held until the run is thought dead.
          await finishRun(deps.events, feedImportId, runId, { started: started.toISOString(), finished: deps.now().toISOString(), ...counts }, null).catch(() => 0);
          throw failure;
        }
      }
      const outcome: RunOutcome = { started: started.toISOString(), finished: deps.now().toISOString(), ...counts };
      const position = await finishRun(deps.events, feedImportId, runId, outcome, validators);
      return { counts, position };
    },

    /** What an unsaved import would import now: nothing is created, no validators are sent. */
    async preview(settings: Pick<FeedImportFields, 'url' | 'fieldMap' | 'requestHeaders'>) {
      const read = await readFeed(settings.url, settings, null, deps.limits);
      if (read.kind !== 'feed') return [];
      return read.entries
        .filter((entry): entry is FeedEntry & { source_id: string } => entry.source_id !== null)
        .map((entry) => ({
          source_id: entry.source_id,
          title: entry.title === null ? null : plain(entry.title) || null,
          source_url: entry.source_url,
          publish_date: isoDate(entry.publish_date),
        }));
    },
  };
}

export type FeedRunner = ReturnType<typeof createFeedRunner>;
export type { RunError };
