// Listening analytics: player events (`player-events-*` streams) into hourly and daily roll-ups per content item, ad
// and project, in the project's time zone (docs/analytics.md, "Storage").
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { Collection, Document, ReadStore } from '../src/infrastructure/readStore/port.ts';
import { deviceKeyOf, PLAYER_EVENTS_PREFIX, type PlayerEventsRecorded, type StoredPlayerEvent } from '../src/analytics/playerEvents.ts';
import { localPeriodsOf } from '../src/analytics/periods.ts';
import { ANALYTICS_LISTENS, ANALYTICS_ROLLUPS, emptyCell, rollupId, rollupIndexes, type Cell, type Counted, type ListenView, type RollupView, type Scope } from '../src/analytics/readModel.ts';
import { addListener, decodeSketch, encodeSketch, type Registers } from '../src/analytics/uniques.ts';
import { findProject } from '../src/projects/readModel.ts';
import type { Projection } from './projection.ts';

/** Retention steps a percentage reaches: 10 % is the first, 100 % the tenth. */
const stepsOf = (percent: number) => Math.min(10, Math.floor(percent / 10 + 1e-9));

const cellOf = (event: StoredPlayerEvent) => `${deviceKeyOf(event.device)}|${event.variant}|${event.format}|${event.accessTier ?? ''}`;

const listenIdOf = (event: StoredPlayerEvent) =>
  event.mediaType === 'ad' ? `${event.sessionId}|ad|${event.adId}` : `${event.sessionId}|content|${event.contentId}`;

/** A change of one listen's counts, to be added to a cell of a roll-up. */
type Change = (cell: Cell, sketch: () => Registers) => void;

/** A change waiting for its roll-up, which is read with the others of the log event in one query. */
interface Pending {
  id: string;
  seed: Pick<RollupView, 'projectId' | 'scope' | 'subject' | 'grain' | 'start' | 'day'>;
  cell: string;
  change: Change;
}

/** Ids per query: the documents of a log event are read in a few `$in` queries, not one lookup each. */
const IDS_PER_QUERY = 500;

async function byIds<T extends Document>(collection: Collection<T>, ids: string[]): Promise<Map<string, T>> {
  if (collection.lookup) return new Map((await collection.lookup(ids)).map((document) => [document._id, document]));
  const found = new Map<string, T>();
  for (let at = 0; at < ids.length; at += IDS_PER_QUERY) {
    for (const document of await collection.find({ _id: { $in: ids.slice(at, at + IDS_PER_QUERY) } })) found.set(document._id, document);
  }
  return found;
}

/** Events that count: content events but ad clicks, and ads' loads and clicks. */
const counts = (event: StoredPlayerEvent) =>
  event.mediaType === 'ad' ? event.type === 'load' || event.type === 'ad_link_click' : event.type !== 'ad_link_click';

/**
 * Applies one log event's player events. Roll-ups are written before listens: a replay after a crash between the two
 * finds the listens as they were, counts the same changes again, and leaves alone every roll-up (and listen) that
 * already holds this position (a batch writes its collections in the order they were first asked for: roll-ups first).
 */
async function applyPlayerEvents(store: ReadStore, zones: ReadStore, position: number, events: StoredPlayerEvent[]): Promise<void> {
  const rollups = store.collection<RollupView>(ANALYTICS_ROLLUPS);
  const listens = store.collection<ListenView>(ANALYTICS_LISTENS);
  const counted = events.filter(counts);
  if (counted.length === 0) return;
  // A log event carries up to 1,000 player events and the store's calls are synchronous: the API's requests get their
  // turn between two log events, also while an import of millions is being counted.
  await new Promise((resolve) => setImmediate(resolve));
  const stored = await byIds(listens, [...new Set(counted.map(listenIdOf))]);
  const zoneOf = new Map<number, string>();
  /** Listens of this event: null where one already holds it (applied before a crash). */
  const touched = new Map<string, ListenView | null>();
  const pending: Pending[] = [];

  const zone = async (projectId: number) => {
    let found = zoneOf.get(projectId);
    if (found === undefined) zoneOf.set(projectId, (found = (await findProject(zones, projectId))?.timeZone ?? 'UTC'));
    return found;
  };

  const count = (event: StoredPlayerEvent, at: Counted, change: Change) => {
    const subjects: [Scope, string][] =
      event.mediaType === 'ad' ? [['ad', String(event.adId)]] : [['content', event.contentId!], ['project', String(event.projectId)]];
    for (const [scope, subject] of subjects) {
      for (const [grain, start] of [['hour', at.hour], ['day', at.dayStart]] as const) {
        pending.push({ id: rollupId(scope, subject, grain, start), seed: { projectId: event.projectId, scope, subject, grain, start, day: at.day }, cell: at.cell, change });
      }
    }
  };

  for (const event of counted) {
    const id = listenIdOf(event);
    let listen = touched.get(id);
    if (listen === undefined) {
      const before = stored.get(id);
      listen = before && before.position >= position ? null : (before ?? { _id: id, projectId: event.projectId, position, loaded: null, played: null, clicked: null, listener: event.localStorageId ?? event.sessionId, seconds: 0, percent: 0 });
      if (listen) listen.position = position;
      touched.set(id, listen);
    }
    if (!listen) continue;
    const periods = localPeriodsOf(await zone(event.projectId), Date.parse(event.at));
    const here: Counted = { cell: cellOf(event), hour: periods.hourStart, dayStart: periods.dayStart, day: periods.day };
    if (event.type === 'load') {
      if (listen.loaded) continue;
      listen.loaded = here;
      count(event, here, (cell) => (cell.i += 1));
    } else if (event.type === 'ad_link_click') {
      if (listen.clicked) continue;
      listen.clicked = here;
      count(event, here, (cell) => (cell.c += 1));
    } else {
      const seconds = Math.max(listen.seconds, event.seconds ?? 0);
      const percent = Math.max(listen.percent, event.percent ?? 0);
      if (event.type === 'play' && !listen.played) {
        listen.played = here;
        listen.listener = event.localStorageId ?? event.sessionId;
        const listener = listen.listener;
        count(event, here, (cell, sketch) => {
          cell.l += 1;
          cell.t += seconds;
          cell.p += percent;
          for (let step = 0; step < stepsOf(percent); step += 1) cell.r[step]! += 1;
          addListener(sketch(), listener);
        });
      } else if (listen.played && (seconds > listen.seconds || percent > listen.percent)) {
        const [fromSeconds, fromPercent] = [listen.seconds, listen.percent];
        count(event, listen.played, (cell) => {
          cell.t += seconds - fromSeconds;
          cell.p += percent - fromPercent;
          for (let step = stepsOf(fromPercent); step < stepsOf(percent); step += 1) cell.r[step]! += 1;
        });
      }
      // Progress before its play (sends out of order) is kept, and counted when the play arrives.
      listen.seconds = seconds;
      listen.percent = percent;
    }
  }

  const found = await byIds(rollups, [...new Set(pending.map(({ id }) => id))]);
  /** Roll-ups of this event: null where one already holds it. */
  const documents = new Map<string, RollupView | null>();
  const sketches = new Map<string, { cell: Cell; registers: Registers }>();
  for (const { id, seed, cell: key, change } of pending) {
    let document = documents.get(id);
    if (document === undefined) {
      const before = found.get(id);
      document = before && before.position >= position ? null : (before ?? ({ _id: id, ...seed, position, cells: {} } as RollupView));
      if (document) document.position = position;
      documents.set(id, document);
    }
    if (!document) continue;
    const cell = (document.cells[key] ??= emptyCell());
    change(cell, () => {
      const sketchKey = `${id} ${key}`;
      let sketch = sketches.get(sketchKey);
      if (!sketch) sketches.set(sketchKey, (sketch = { cell, registers: decodeSketch(cell.u) }));
      return sketch.registers;
    });
  }
  for (const { cell, registers } of sketches.values()) cell.u = encodeSketch(registers);
  for (const document of documents.values()) if (document) await rollups.put(document);
  for (const listen of touched.values()) if (listen) await listens.put(listen);
}

/** The projection; `zones` is the store the projects' time zones are read from (the live one, also during a rebuild). */
export function analyticsProjection(zones: ReadStore): Projection {
  return {
    name: 'analytics',
    streamPrefix: PLAYER_EVENTS_PREFIX,
    collections: { [ANALYTICS_ROLLUPS]: rollupIndexes, [ANALYTICS_LISTENS]: [] },
    async apply(event: RecordedEvent, store: ReadStore) {
      if (event.type !== 'PlayerEventsRecorded') return;
      await applyPlayerEvents(store, zones, event.position, (event as RecordedEvent as RecordedEvent<'PlayerEventsRecorded', PlayerEventsRecorded['data']>).data.events);
    },
  };
}
