// Listening analytics: player events (`player-events-*` streams) into hourly and daily roll-ups per content item, ad
// and project, in the project's time zone (docs/analytics.md, "Storage").
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
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

/** A change of one listen's counts, to be added to the roll-ups of its subjects. */
type Change = (cell: Cell, sketch: () => Registers) => void;

/**
 * Applies one log event's player events. Roll-ups are written before listens (their collection is asked for first,
 * so a batch flushes it first): a replay after a crash between the two finds the listens as they were, counts the same
 * changes again, and leaves alone every roll-up (and listen) that already holds this position.
 */
async function applyPlayerEvents(store: ReadStore, zones: ReadStore, position: number, events: StoredPlayerEvent[]): Promise<void> {
  const rollups = store.collection<RollupView>(ANALYTICS_ROLLUPS);
  const listens = store.collection<ListenView>(ANALYTICS_LISTENS);
  const zoneOf = new Map<number, string>();
  /** Documents of this event: null where one already holds it (applied before a crash). */
  const touchedRollups = new Map<string, RollupView | null>();
  const touchedListens = new Map<string, ListenView | null>();
  const sketches = new Map<string, Registers>();

  const zone = async (projectId: number) => {
    let found = zoneOf.get(projectId);
    if (found === undefined) zoneOf.set(projectId, (found = (await findProject(zones, projectId))?.timeZone ?? 'UTC'));
    return found;
  };

  const rollup = async (projectId: number, scope: Scope, subject: string, grain: 'hour' | 'day', start: number, day: string) => {
    const id = rollupId(scope, subject, grain, start);
    if (touchedRollups.has(id)) return touchedRollups.get(id)!;
    const stored = await rollups.findOne({ _id: id });
    const document = stored && stored.position >= position ? null : (stored ?? { _id: id, projectId, scope, subject, grain, start, day, position, cells: {} });
    if (document) document.position = position;
    touchedRollups.set(id, document);
    return document;
  };

  const count = async (event: StoredPlayerEvent, counted: Counted, change: Change) => {
    const subjects: [Scope, string][] =
      event.mediaType === 'ad' ? [['ad', String(event.adId)]] : [['content', event.contentId!], ['project', String(event.projectId)]];
    for (const [scope, subject] of subjects) {
      for (const [grain, start] of [['hour', counted.hour], ['day', counted.dayStart]] as const) {
        const document = await rollup(event.projectId, scope, subject, grain, start, counted.day);
        if (!document) continue;
        const cell = (document.cells[counted.cell] ??= emptyCell());
        const key = `${document._id} ${counted.cell}`;
        change(cell, () => {
          let registers = sketches.get(key);
          if (!registers) sketches.set(key, (registers = decodeSketch(cell.u)));
          return registers;
        });
      }
    }
  };

  for (const event of events) {
    if (event.mediaType === 'ad' ? event.type === 'play' || event.type === 'play_progress' : event.type === 'ad_link_click') continue;
    const id = listenIdOf(event);
    let listen = touchedListens.get(id);
    if (listen === undefined) {
      const stored = await listens.findOne({ _id: id });
      listen = stored && stored.position >= position ? null : (stored ?? { _id: id, projectId: event.projectId, position, loaded: null, played: null, clicked: null, listener: event.localStorageId ?? event.sessionId, seconds: 0, percent: 0 });
      if (listen) listen.position = position;
      touchedListens.set(id, listen);
    }
    if (!listen) continue;
    const at = Date.parse(event.at);
    const periods = localPeriodsOf(await zone(event.projectId), at);
    const here: Counted = { cell: cellOf(event), hour: periods.hourStart, dayStart: periods.dayStart, day: periods.day };
    if (event.type === 'load') {
      if (listen.loaded) continue;
      listen.loaded = here;
      await count(event, here, (cell) => (cell.i += 1));
    } else if (event.type === 'ad_link_click') {
      if (listen.clicked) continue;
      listen.clicked = here;
      await count(event, here, (cell) => (cell.c += 1));
    } else {
      const seconds = Math.max(listen.seconds, event.seconds ?? 0);
      const percent = Math.max(listen.percent, event.percent ?? 0);
      if (event.type === 'play' && !listen.played) {
        listen.played = here;
        listen.listener = event.localStorageId ?? event.sessionId;
        const listener = listen.listener;
        await count(event, here, (cell, sketch) => {
          cell.l += 1;
          cell.t += seconds;
          cell.p += percent;
          for (let step = 0; step < stepsOf(percent); step += 1) cell.r[step]! += 1;
          addListener(sketch(), listener);
        });
      } else if (listen.played && (seconds > listen.seconds || percent > listen.percent)) {
        const [fromSeconds, fromPercent] = [listen.seconds, listen.percent];
        await count(event, listen.played, (cell) => {
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

  for (const [key, registers] of sketches) {
    const [documentId, cellKey] = key.split(' ') as [string, string];
    const document = touchedRollups.get(documentId)!;
    document.cells[cellKey]!.u = encodeSketch(registers);
  }
  for (const document of touchedRollups.values()) if (document) await rollups.put(document);
  for (const listen of touchedListens.values()) if (listen) await listens.put(listen);
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
