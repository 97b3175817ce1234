// Player events in: validated whole per request, then appended with the events of concurrent requests as one log
// event (a group commit), each request answered once its events are durable (docs/analytics.md, "Ingestion").
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { invalid, type FieldError } from '../shared/errors.ts';
import { validationError } from '../shared/validation.ts';
import { findProject } from '../projects/readModel.ts';
import { CONTENT_ITEMS, type ContentItemView } from '../content/readModel.ts';
import { ADS, type AdView } from '../ads/readModel.ts';
import { liveEventsStream, MAX_EVENTS_PER_RECORD, playerEventSchema, toStoredEvent, type PlayerEvent, type StoredPlayerEvent } from './playerEvents.ts';

/** The most events one request may carry. */
export const MAX_EVENTS_PER_REQUEST = 1_000;

/**
 * The events of a posted body (one object or an array of them), each as the player's shape; any invalid event makes
 * the whole body invalid (nothing of it is stored), with its place as `[index].field`.
 */
export function parsePlayerEvents(body: unknown): PlayerEvent[] {
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0) throw invalid([{ location: 'body', message: 'must hold at least one event' }], 'Invalid events');
  if (list.length > MAX_EVENTS_PER_REQUEST) throw invalid([{ location: 'body', message: `must hold at most ${MAX_EVENTS_PER_REQUEST} events` }], 'Invalid events');
  const events: PlayerEvent[] = [];
  const errors: FieldError[] = [];
  list.forEach((item, index) => {
    const parsed = playerEventSchema.safeParse(item);
    if (parsed.success) events.push(parsed.data);
    else for (const error of validationError(parsed.error, item).errors) errors.push({ location: `[${index}].${error.location}`, message: error.message });
  });
  if (errors.length > 0) throw invalid(errors.slice(0, 50), 'Invalid events');
  return events;
}

/**
 * What is wrong with the subjects an event names: its project must be one of the service, its content item or ad one of
 * that project, so that nobody can fill a project's figures with items it does not have. Lookups are remembered
 * for `rememberMs` (players post many events about few items): an item deleted that long ago is refused.
 */
export function subjectChecker(read: ReadStore, rememberMs = Infinity) {
  const known = new Map<string, { found: boolean; until: number }>();
  const check = async (key: string, lookup: () => Promise<boolean>) => {
    const now = Date.now();
    const remembered = known.get(key);
    if (remembered && remembered.until > now) return remembered.found;
    if (known.size > 100_000) known.clear();
    const found = await lookup();
    known.set(key, { found, until: now + rememberMs });
    return found;
  };
  return async (event: PlayerEvent): Promise<FieldError[]> => {
    if (!(await check(`p${event.project_id}`, async () => (await findProject(read, event.project_id)) !== null))) {
      return [{ location: 'project_id', message: 'is not a project of this service' }];
    }
    const errors: FieldError[] = [];
    if (event.content_id !== null) {
      const ok = await check(`c${event.content_id}`, async () => (await read.collection<ContentItemView>(CONTENT_ITEMS).findOne({ _id: event.content_id! }))?.projectId === event.project_id);
      if (!ok) errors.push({ location: 'content_id', message: "is not a content item of the event's project" });
    }
    if (event.media_type === 'ad') {
      const ok = await check(`a${event.ad_id}`, async () => (await read.collection<AdView>(ADS).findOne({ _id: String(event.ad_id) }))?.projectId === event.project_id);
      if (!ok) errors.push({ location: 'ad_id', message: "is not an ad of the event's project" });
    }
    return errors;
  };
}

/** Every event's subjects checked; any wrong makes the request invalid, each error at `[index].field`. */
export async function checkSubjects(check: ReturnType<typeof subjectChecker>, events: PlayerEvent[]): Promise<void> {
  const errors: FieldError[] = [];
  for (const [index, event] of events.entries()) {
    for (const error of await check(event)) errors.push({ location: `[${index}].${error.location}`, message: error.message });
    if (errors.length >= 50) break;
  }
  if (errors.length > 0) throw invalid(errors, 'Invalid events');
}

export interface EventRecorder {
  /** Resolves once the events are stored (durable: a kill after it loses none). */
  record(events: StoredPlayerEvent[]): Promise<void>;
}

/**
 * Group commit: events handed in while an append is under way wait for the next one, which takes them all (up to
 * MAX_EVENTS_PER_RECORD a log event, several log events in one append when more are waiting), so a burst of single
 * events costs a few appends, not one each.
 */
export function createEventRecorder(events: EventStore, now: () => Date): EventRecorder {
  let waiting: { events: StoredPlayerEvent[]; done: () => void; failed: (error: unknown) => void }[] = [];
  let appending = false;

  const appendWaiting = async () => {
    appending = true;
    while (waiting.length > 0) {
      const taken = waiting;
      waiting = [];
      const all = taken.flatMap((entry) => entry.events);
      const records = [];
      for (let at = 0; at < all.length; at += MAX_EVENTS_PER_RECORD) {
        records.push({ type: 'PlayerEventsRecorded', data: { events: all.slice(at, at + MAX_EVENTS_PER_RECORD) } });
      }
      try {
        await events.appendToStream(liveEventsStream(now()), records, 'any');
        for (const entry of taken) entry.done();
      } catch (error) {
        for (const entry of taken) entry.failed(error);
      }
    }
    appending = false;
  };

  return {
    record(stored) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ events: stored, done: resolve, failed: reject });
        // The first request of a group starts the append on the next turn, so requests parsed meanwhile join it.
        if (!appending) {
          appending = true;
          setImmediate(() => void appendWaiting());
        }
      });
    },
  };
}

export const storedEventsOf = (events: PlayerEvent[], at: Date) => events.map((event) => toStoredEvent(event, at));
