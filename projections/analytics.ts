// Listening analytics: player events (`player-events-*` streams) into hourly and daily roll-ups per content item, ad
// and project, in the project's time zone (docs/analytics.md, "Storage").
import type { EventStore, RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import { shareThreads, startThread, turnCell } from '../src/infrastructure/threads.ts';
import { sharesDone } from '../src/operations/shareThreads.ts';
import { inTransaction, type Collection, type Document, type ReadStore } from '../src/infrastructure/readStore/port.ts';
import { deviceKeyOf, PLAYER_EVENTS_PREFIX, type DeviceKey, type PlayerEventsRecorded, type StoredPlayerEvent } from '../src/analytics/playerEvents.ts';
import { localPeriodsOf } from '../src/analytics/periods.ts';
import { ANALYTICS_LISTENS, ANALYTICS_ROLLUPS, THOUSANDTHS, addCounters, rollupId, rollupIndexes, summaryOf, deviceOfCell, type Cell, type Counted, type DaySummaryView, type Grain, type ListenView, type RollupView, type Scope } from '../src/analytics/readModel.ts';
import { Sketch } from '../src/analytics/uniques.ts';
import { findProject } from '../src/projects/readModel.ts';
import { CHECKPOINTS, type Projection } from './projection.ts';

/** Seconds or percent as the whole thousandths roll-ups count. */
const thousandths = (value: number) => Math.round(value * THOUSANDTHS);

/** Retention steps a percentage reaches: 10 % is the first, 100 % the tenth. */
const stepsOf = (percent: number) => Math.min(10, Math.floor(percent / 10 + 1e-9));

const cellOf = (event: StoredPlayerEvent) => `${deviceKeyOf(event.device)}|${event.variant}|${event.format}|${event.accessTier ?? ''}`;

const listenIdOf = (event: StoredPlayerEvent) =>
  event.mediaType === 'ad' ? `${event.sessionId}|ad|${event.adId}` : `${event.sessionId}|content|${event.contentId}`;

/** Events that count: content events but ad clicks, and ads' loads and clicks. */
const counts = (event: StoredPlayerEvent) =>
  event.mediaType === 'ad' ? event.type === 'load' || event.type === 'ad_link_click' : event.type !== 'ad_link_click';

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

/** What a cell of a roll-up gains from the events counted: added to the stored cell when written. */
class Gain {
  i = 0;
  l = 0;
  t = 0;
  p = 0;
  r = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  c = 0;
  listeners: Sketch | null = null;

  /** One listen's change: an impression, a click, a listen, or more of a listen counted before. */
  add(change: Change): void {
    this.i += change.i;
    this.c += change.c;
    this.l += change.l;
    this.t += change.seconds;
    this.p += change.percent;
    for (let step = change.fromStep; step < change.toStep; step += 1) this.r[step]! += 1;
    if (change.listener !== null) (this.listeners ??= new Sketch()).add(change.listener);
  }

  /** Another gain added to this one: an hour's to its day's, a content item's to its project's. */
  addGain(other: Gain): void {
    addCounters(this, other);
    if (other.listeners) (this.listeners ??= new Sketch()).addAll(other.listeners);
  }

  /** A stored cell's counters and listeners, as a gain. */
  static of(cell: Cell): Gain {
    const gain = new Gain();
    addCounters(gain, cell);
    if (cell.u) (gain.listeners = new Sketch()).addEncoded(cell.u);
    return gain;
  }

  /** Added to a stored cell; where there is none, the new cell. */
  addTo(cell: Cell | undefined): Cell {
    if (!cell) return { i: this.i, l: this.l, t: this.t, p: this.p, r: [...this.r], c: this.c, u: this.listeners?.encodedWith('') ?? '' };
    addCounters(cell, this);
    if (this.listeners) cell.u = this.listeners.encodedWith(cell.u);
    return cell;
  }
}

/** One listen's change of a cell; `t` and `p` in thousandths, retention steps from `fromStep` to `toStep` (excluded). */
class Change {
  constructor(
    readonly i: number,
    readonly c: number,
    readonly l: number,
    readonly seconds: number,
    readonly percent: number,
    readonly fromStep: number,
    readonly toStep: number,
    readonly listener: string | null,
  ) {}
}

const IMPRESSION = new Change(1, 0, 0, 0, 0, 0, 0, null);
const CLICK = new Change(0, 1, 0, 0, 0, 0, 0, null);

/** A roll-up's gains, with the first and last log positions they come from. */
interface Gains {
  seed: Pick<RollupView, '_id' | 'projectId' | 'scope' | 'subject' | 'grain' | 'start' | 'day'>;
  from: number;
  position: number;
  cells: Map<string, Gain>;
}

/** A content item's or ad's gains of one local hour, where its events count; its day's and its project's are summed from these. */
interface HourGains extends Gains {
  dayStart: number;
}

/** Where an event counted: its hour's gains and the cell that gains. */
interface Place {
  hour: HourGains;
  cell: Gain;
}

/** A listen as a run counts it: its document, and the cells its listen went to (its later progress adds there). */
class Entry {
  /** Changed by this run: to be written. */
  changed = false;
  /** Already holds a log event being counted (a replay after a crash): left alone for this run. */
  done = false;
  playedIn: Place | null = null;
  constructor(readonly listen: ListenView) {}
}

/**
 * What a run of player events changes: the listens they touch, as they end up, and what each roll-up cell gains.
 * The running service counts a batch's log events together; a rebuild up to `ANALYTICS_REBUILD_EVENTS` at a time.
 * Gains add up, so an event counts in its subject's hour alone, the days and the project's roll-ups are summed from
 * the hours, and the roll-ups are read (where the store may hold them) and written once, after the counting.
 */
class Tally {
  private readonly entries = new Map<string, Entry>();
  /**
   * Hours by scope, subject and start (in quarter hours, a small integer): many small maps, quicker to look in than
   * one of every roll-up by its id. An event counts in its hour only; the days and projects are summed once, after.
   */
  private readonly hours: Record<'content' | 'ad', Map<string, Map<number, HourGains>>> = { content: new Map(), ad: new Map() };
  private readonly zones = new Map<number, string>();
  counted = 0;

  /** `countsDay(day)` says which local days' roll-ups this run counts (all when left out). */
  constructor(
    private readonly zonesStore: ReadStore,
    private readonly countsDay: (day: string) => boolean = () => true,
  ) {}

  /**
   * Every roll-up's gains but the projects': each subject's hours as counted, and summed from them its days. The
   * project's hours and days are summed into `projects`, which a bulk load keeps for all its steps and threads.
   */
  private allGains(projects: Sums): Gains[] {
    const days = new Sums();
    const all: Gains[] = [];
    for (const scope of ['content', 'ad'] as const) {
      for (const [subject, hours] of this.hours[scope]) {
        for (const hour of hours.values()) {
          all.push(hour);
          days.add(scope, subject, 'day', hour.dayStart, hour);
          if (scope !== 'content') continue;
          const project = String(hour.seed.projectId);
          projects.add('project', project, 'hour', hour.seed.start, hour);
          projects.add('project', project, 'day', hour.dayStart, hour);
        }
      }
    }
    return all.concat(days.all);
  }

  /** Reads the stored listens the events touch that this run has not: needed first, where the store may hold some. */
  async readListens(listens: Collection<ListenView>, events: StoredPlayerEvent[]): Promise<void> {
    const ids = [...new Set(events.filter(counts).map(listenIdOf))].filter((id) => !this.entries.has(id));
    for (const [id, listen] of await byIds(listens, ids)) this.entries.set(id, new Entry(listen));
  }

  private async zoneOf(projectId: number): Promise<string> {
    let zone = this.zones.get(projectId);
    if (zone === undefined) this.zones.set(projectId, (zone = (await findProject(this.zonesStore, projectId))?.timeZone ?? 'UTC'));
    return zone;
  }

  /** The cell of its subject's hour an event counted `at` goes to; none for a day this run does not count. */
  private placeAt(event: StoredPlayerEvent, position: number, at: Counted): Place | null {
    if (!this.countsDay(at.day)) return null;
    const scope: 'content' | 'ad' = event.mediaType === 'content' ? 'content' : 'ad';
    const subject = scope === 'content' ? event.contentId! : String(event.adId);
    let bySubject = this.hours[scope].get(subject);
    if (!bySubject) this.hours[scope].set(subject, (bySubject = new Map()));
    const quarter = at.hour / QUARTER_MS;
    let hour = bySubject.get(quarter);
    if (!hour) {
      const seed = { _id: rollupId(scope, subject, 'hour', at.hour), projectId: event.projectId, scope, subject, grain: 'hour' as const, start: at.hour, day: at.day };
      bySubject.set(quarter, (hour = { seed, dayStart: at.dayStart, from: position, position, cells: new Map() }));
    }
    let cell = hour.cells.get(at.cell);
    if (!cell) hour.cells.set(at.cell, (cell = new Gain()));
    return { hour, cell };
  }

  private static gain(position: number, into: Place | null, change: Change): void {
    if (!into) return;
    into.hour.position = position;
    into.cell.add(change);
  }

  /** Counts one log event's player events, in order. */
  async count(position: number, events: StoredPlayerEvent[]): Promise<void> {
    for (const event of events) if (!this.zones.has(event.projectId)) await this.zoneOf(event.projectId);
    const here = (event: StoredPlayerEvent): Counted => {
      const periods = localPeriodsOf(this.zones.get(event.projectId)!, Date.parse(event.at));
      return { cell: cellOf(event), hour: periods.hourStart, dayStart: periods.dayStart, day: periods.day };
    };
    for (const event of events) {
      if (!counts(event)) continue;
      const id = listenIdOf(event);
      let entry = this.entries.get(id);
      if (entry?.done) continue;
      if (entry && !entry.changed && entry.listen.position >= position) {
        entry.done = true;
        continue;
      }
      if (!entry) {
        entry = new Entry({ _id: id, projectId: event.projectId, position, loaded: false, played: null, clicked: false, seconds: 0, percent: 0 });
        this.entries.set(id, entry);
      }
      entry.changed = true;
      const listen = entry.listen;
      listen.position = position;
      this.counted += 1;
      if (event.type === 'load') {
        if (listen.loaded) continue;
        listen.loaded = true;
        Tally.gain(position, this.placeAt(event, position, here(event)), IMPRESSION);
      } else if (event.type === 'ad_link_click') {
        if (listen.clicked) continue;
        listen.clicked = true;
        Tally.gain(position, this.placeAt(event, position, here(event)), CLICK);
      } else {
        const seconds = Math.max(listen.seconds, event.seconds ?? 0);
        const percent = Math.max(listen.percent, event.percent ?? 0);
        if (event.type === 'play' && !listen.played) {
          listen.played = here(event);
          entry.playedIn = this.placeAt(event, position, listen.played);
          const listener = event.localStorageId ?? event.sessionId;
          Tally.gain(position, entry.playedIn, new Change(0, 0, 1, thousandths(seconds), thousandths(percent), 0, stepsOf(percent), listener));
        } else if (listen.played && (seconds > listen.seconds || percent > listen.percent)) {
          entry.playedIn ??= this.placeAt(event, position, listen.played);
          const more = new Change(0, 0, 0, thousandths(seconds) - thousandths(listen.seconds), thousandths(percent) - thousandths(listen.percent), stepsOf(listen.percent), stepsOf(percent), null);
          Tally.gain(position, entry.playedIn, more);
        }
        // Progress before its play (sends out of order) is kept, and counted when the play arrives.
        listen.seconds = seconds;
        listen.percent = percent;
      }
    }
  }

  /**
   * The documents to write: roll-ups with their gains added (`rollupDocuments`) and the listens changed. Roll-ups
   * come first: a replay after a crash between the two finds the listens as they were and counts the same gains
   * again, which the roll-ups that hold them refuse. The projects' roll-ups are among them unless `projects` is given,
   * which then gains their sums instead (a bulk load writes them once, at its end).
   */
  async documents(rollups: Collection<RollupView> | null, projects?: Sums): Promise<{ rollups: (RollupView | DaySummaryView)[]; listens: ListenView[] }> {
    const own = projects ? null : new Sums();
    const all = this.allGains(projects ?? own!);
    const listens: ListenView[] = [];
    for (const entry of this.entries.values()) if (entry.changed) listens.push(entry.listen);
    return { rollups: await rollupDocuments(own ? all.concat(own.all) : all, rollups), listens };
  }
}

/**
 * Roll-ups' gains summed by scope, subject, grain and start: a subject's hours into its days, a project's content
 * hours into its hours and days. Kept by start in quarter hours, as the hours are (many small maps, quicker to look
 * in than one of every roll-up by its id).
 */
class Sums {
  private readonly sums: Record<Scope, Map<string, Record<Grain, Map<number, Gains>>>> = { content: new Map(), project: new Map(), ad: new Map() };
  readonly all: Gains[] = [];

  add(scope: Scope, subject: string, grain: Grain, start: number, gains: Gains): void {
    let bySubject = this.sums[scope].get(subject);
    if (!bySubject) this.sums[scope].set(subject, (bySubject = { hour: new Map(), day: new Map() }));
    let sum = bySubject[grain].get(start / QUARTER_MS);
    if (!sum) {
      const seed = { _id: rollupId(scope, subject, grain, start), projectId: gains.seed.projectId, scope, subject, grain, start, day: gains.seed.day };
      bySubject[grain].set(start / QUARTER_MS, (sum = { seed, from: gains.from, position: gains.position, cells: new Map() }));
      this.all.push(sum);
    }
    if (gains.from < sum.from) sum.from = gains.from;
    if (gains.position > sum.position) sum.position = gains.position;
    for (const [key, gain] of gains.cells) {
      let into = sum.cells.get(key);
      if (!into) sum.cells.set(key, (into = new Gain()));
      into.addGain(gain);
    }
  }

  /** As plain data, to cross threads: each cell as a stored cell holds it. */
  plain(): PlainGains[] {
    return this.all.map(({ seed, from, position, cells }) => ({ seed, from, position, cells: [...cells].map(([key, gain]) => [key, gain.addTo(undefined)]) }));
  }

  /** Adds the sums of another thread (`plain()`). */
  addPlain(plain: PlainGains[]): void {
    for (const { seed, from, position, cells } of plain) {
      const gains: Gains = { seed, from, position, cells: new Map(cells.map(([key, cell]) => [key, Gain.of(cell)])) };
      this.add(seed.scope, seed.subject, seed.grain, seed.start, gains);
    }
  }
}

/** A roll-up's gains as plain data (`Sums.plain`). */
export interface PlainGains {
  seed: Gains['seed'];
  from: number;
  position: number;
  cells: [string, Cell][];
}

/**
 * Roll-ups with their gains added (read from `rollups` where it may hold them, and left alone where one already holds
 * a log event counted here) and each daily one's summary (written again where its roll-up is left alone, in case a
 * crash came between the two).
 */
async function rollupDocuments(all: Gains[], rollups: Collection<RollupView> | null): Promise<(RollupView | DaySummaryView)[]> {
  const stored = rollups ? await byIds(rollups, all.map(({ seed }) => seed._id)) : new Map<string, RollupView>();
  const written: (RollupView | DaySummaryView)[] = [];
  for (const gains of all) {
    const before = stored.get(gains.seed._id);
    if (before && before.position >= gains.from) {
      if (before.grain === 'day') written.push(summaryOf(before, new Set()));
      continue;
    }
    const document: RollupView = before ?? { ...gains.seed, position: 0, cells: {} };
    document.position = gains.position;
    const listened = new Set<DeviceKey>();
    for (const [key, gain] of gains.cells) {
      document.cells[key] = gain.addTo(document.cells[key]);
      if (gain.listeners) listened.add(deviceOfCell(key));
    }
    document.cells = inKeyOrder(document.cells);
    written.push(document);
    if (document.grain === 'day') written.push(summaryOf(document, listened));
  }
  return written;
}

/**
 * The cells by key, in key order: the same roll-up then has the same text however its events were grouped into
 * writes, which lets a rebuild compare its documents with the live ones by their text (docs/analytics.md, "Rebuild").
 */
function inKeyOrder(cells: Record<string, Cell>): Record<string, Cell> {
  const keys = Object.keys(cells);
  if (keys.every((key, at) => at === 0 || keys[at - 1]! < key)) return cells;
  const sorted: Record<string, Cell> = {};
  for (const key of keys.sort()) sorted[key] = cells[key]!;
  return sorted;
}

/** Local hours and days begin on quarter hours in every time zone. */
const QUARTER_MS = 900_000;

/** A log event's player events, at its position. */
interface Logged {
  position: number;
  events: StoredPlayerEvent[];
}

const loggedOf = (event: RecordedEvent): Logged => ({
  position: event.position,
  events: (event as RecordedEvent as RecordedEvent<'PlayerEventsRecorded', PlayerEventsRecorded['data']>).data.events,
});

/** Documents in `_id` order, as the store's key index keeps them. */
const byId = (a: Document, b: Document) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

/** The player events recorded among log events. */
const playerEventsOf = (events: RecordedEvent[]): Logged[] => events.filter(({ type }) => type === 'PlayerEventsRecorded').map(loggedOf);

/**
 * Applies log events' player events on the runner's store, counted together: each listen, roll-up and summary they
 * touch read, worked out and written once (a batch's store holds the writes until the batch commits).
 */
async function applyPlayerEvents(store: ReadStore, zones: ReadStore, logged: Logged[]): Promise<void> {
  const counting = logged.filter(({ events }) => events.some(counts));
  if (counting.length === 0) return;
  const rollups = store.collection<RollupView>(ANALYTICS_ROLLUPS);
  const listens = store.collection<ListenView>(ANALYTICS_LISTENS);
  const tally = new Tally(zones);
  for (const { position, events } of counting) {
    // A log event carries up to 1,000 player events and the store's calls are synchronous: the API's requests get
    // their turn between two, also while an import of millions is being counted.
    await new Promise((resolve) => setImmediate(resolve));
    await tally.readListens(listens, events);
    await tally.count(position, events);
  }
  const documents = await tally.documents(rollups);
  const written = store.collection<RollupView | DaySummaryView>(ANALYTICS_ROLLUPS);
  for (const document of documents.rollups.sort(byId)) await written.put(document);
  for (const listen of documents.listens.sort(byId)) await listens.put(listen);
}

/**
 * Log events read at a time by a bulk load (up to 1,000 player events each): the parsed events of 10 die young; those
 * of 100 outlived the young generation, and collecting them took a tenth of the counting's time.
 */
const READ_LOG_EVENTS = 10;
/** Documents per transaction of a bulk load's writes: other writers of the store get their turn between two. */
const WRITES_PER_TRANSACTION = 20_000;

/** Runs a write: at once, or when a thread's turn at the store's one writer comes (`turns`). */
type Turn = <R>(write: () => Promise<R>) => Promise<R>;
const atOnce: Turn = (write) => write();

/** How a bulk load's thread writes: in `turn`s, each step's documents made ready `ahead` of its turn (their JSON). */
export interface Writing {
  turn?: Turn;
  ahead?: (documents: Document[]) => void;
}

/**
 * Written in `_id` order (`documents` is sorted in place): new keys then go at the end of the collection's key index
 * rather than all over it, which takes a bulk load's writes from about 30 to 20 µs a document. The event loop turns
 * between two transactions (the store's checkpoint thread answers then).
 */
async function writeInSteps<T extends Document>(store: ReadStore, name: string, documents: T[], { turn = atOnce, ahead }: Writing = {}): Promise<void> {
  documents.sort(byId);
  for (let at = 0; at < documents.length; at += WRITES_PER_TRANSACTION) {
    const step = documents.slice(at, at + WRITES_PER_TRANSACTION);
    ahead?.(step);
    await new Promise((resolve) => setImmediate(resolve));
    await turn(() =>
      inTransaction(store, async (transaction) => {
        const collection = transaction.collection<T>(name);
        if (collection.bulkWrite) await collection.bulkWrite(step.map((document) => ({ put: document })));
        else for (const document of step) await collection.put(document);
      }),
    );
  }
}

/** Local days, both included. */
export interface Days {
  from: string;
  to: string;
}

/** Roll-ups read at a time from the live collection by a rebuild of some days, which keeps the others. */
const KEPT_PAGE = 5_000;

/** The live roll-ups of days outside `days`, as they are, into the shadows: a rebuild of some days keeps the others. */
async function keepOtherDays(live: ReadStore, store: ReadStore, days: Days): Promise<void> {
  const kept = live.collection<RollupView>(ANALYTICS_ROLLUPS);
  for (let after = ''; ; ) {
    const page = await kept.find({ _id: { $gt: after } }, { sort: { _id: 1 }, limit: KEPT_PAGE });
    if (page.length === 0) return;
    after = page.at(-1)!._id;
    await writeInSteps(store, ANALYTICS_ROLLUPS, page.filter(({ day }) => day < days.from || day > days.to));
  }
}

/** Which subjects' events a thread of a bulk load counts: those whose share (`shareOf`) is `index`, of `count`. */
export interface SubjectShare {
  index: number;
  count: number;
}

/** What a share of a bulk load counted: its player events, and the projects' sums of its content's hours. */
export interface ShareLoaded {
  counted: number;
  projects: PlainGains[];
}

/** The share of `count` a subject (a content item's UUID, an ad's id) falls in: a listen's events all go to one. */
function shareOf(subject: string, count: number): number {
  let hash = 0;
  for (let i = 0; i < subject.length; i += 1) hash = (Math.imul(hash, 31) + subject.charCodeAt(i)) | 0;
  return (hash >>> 0) % count;
}

const subjectOf = (event: StoredPlayerEvent) => (event.mediaType === 'content' ? event.contentId! : String(event.adId));

/**
 * The log's player events up to `until` of the subjects in `share`, counted in memory up to `bulkEvents` at a time,
 * into empty collections: each document is written once per step, not once per log event (docs/analytics.md,
 * "Rebuild"). The projects' roll-ups are summed for all steps, not written: they are the sums of every share's.
 */
export async function loadShare(
  events: EventStore,
  store: ReadStore,
  live: ReadStore,
  until: number,
  options: { bulkEvents: number; days: Days | null; share: SubjectShare; writing?: Writing },
  onPassed: (position: number) => void,
): Promise<{ counted: number; projects: Sums }> {
  const listens = store.collection<ListenView>(ANALYTICS_LISTENS);
  const rollups = store.collection<RollupView>(ANALYTICS_ROLLUPS);
  const { days, share, writing } = options;
  const newTally = () => new Tally(live, days ? (day) => day >= days.from && day <= days.to : undefined);
  const projects = new Sums();
  const shares = new Map<string, boolean>();
  const mine = (event: StoredPlayerEvent) => {
    const subject = subjectOf(event);
    let is = shares.get(subject);
    if (is === undefined) shares.set(subject, (is = shareOf(subject, share.count) === share.index));
    return is;
  };
  let tally = newTally();
  /** Whether the collections hold documents of an earlier step, which the tally then reads before counting. */
  let holding = false;
  let counted = 0;
  const flush = async () => {
    counted += tally.counted;
    const documents = await tally.documents(holding ? rollups : null, projects);
    await writeInSteps(store, ANALYTICS_ROLLUPS, documents.rollups, writing);
    await writeInSteps(store, ANALYTICS_LISTENS, documents.listens, writing);
    holding = true;
    tally = newTally();
  };
  const logShare = { prefixes: [PLAYER_EVENTS_PREFIX], shared: [], index: 0, count: 1 };
  for (let after = 0; after < until; ) {
    // Where the log is a local file it is read filtered where it lies; elsewhere whole, the player events kept.
    const read = events.readShare ? await events.readShare(after, Math.min(until, after + READ_LOG_EVENTS), logShare) : await events.readAll(after, READ_LOG_EVENTS);
    if (read.length === 0 && !events.readShare) break;
    after = events.readShare ? Math.min(until, after + READ_LOG_EVENTS) : read.at(-1)!.position;
    for (const event of read) {
      if (event.position > until) break;
      if (event.type !== 'PlayerEventsRecorded' || !event.stream.startsWith(PLAYER_EVENTS_PREFIX)) continue;
      const logged = loggedOf(event).events;
      const playerEvents = share.count === 1 ? logged : logged.filter(mine);
      if (holding) await tally.readListens(listens, playerEvents);
      await tally.count(event.position, playerEvents);
      if (tally.counted >= options.bulkEvents) await flush();
    }
    onPassed(after);
  }
  await flush();
  return { counted, projects };
}

/** Below this many log events (each up to 1,000 player events) one thread is about as quick: starting one costs about a second. */
export const SPLIT_FROM_LOG_EVENTS = 200;

/**
 * Loads the log's player events up to `until` into the empty shadows `store` of `live`: on `threads` threads where
 * the log and the read store are local files (each thread counts the events of a share of the content items and
 * ads, reading the log itself), else on this one; then the projects' roll-ups summed from every share's, and with
 * `days`, the live roll-ups of other days.
 */
async function bulkLoad(events: EventStore, store: ReadStore, live: ReadStore, until: number, options: { bulkEvents: number; days: Days | null; threads: number | null; log: (message: string) => void }, onPassed: (position: number) => void): Promise<number> {
  const { days } = options;
  const threads = options.threads ?? (until >= SPLIT_FROM_LOG_EVENTS ? shareThreads() : 1);
  const onThreads = threads > 1 && events.file && live.file;
  // The tables an earlier rebuild retired are dropped first: only the threads write while they run, in turns.
  if (onThreads) await live.settle?.();
  const split = onThreads ? await loadOnThreads(events.file!, live.file!, until, { ...options, threads }, onPassed) : null;
  // What a failed thread's share wrote goes.
  if (onThreads && !split) for (const name of [ANALYTICS_ROLLUPS, ANALYTICS_LISTENS]) await store.collection(name).clear();
  const { counted, projects } = split ?? (await loadShare(events, store, live, until, { ...options, share: { index: 0, count: 1 } }, onPassed));
  await writeInSteps(store, ANALYTICS_ROLLUPS, await rollupDocuments(projects.all, null));
  if (days) await keepOtherDays(live, store, days);
  return counted;
}

/**
 * The bulk load's shares on threads (`analyticsThread.ts`), each writing its documents into the shadows in turns;
 * null when a thread failed (said in the log), the shadows then holding part of the documents (cleared by the caller).
 */
async function loadOnThreads(eventsFile: string, readFile: string, until: number, options: { bulkEvents: number; days: Days | null; threads: number; log: (message: string) => void }, onPassed: (position: number) => void): Promise<{ counted: number; projects: Sums } | null> {
  const { threads, log } = options;
  log(`counting on ${threads} threads, each the events of a share of the content items and ads`);
  const writing = turnCell();
  const workers = Array.from({ length: threads }, (_, index) => {
    const task: AnalyticsTask = { writing, eventsFile, readFile, until, bulkEvents: options.bulkEvents, days: options.days, share: { index, count: threads } };
    return startThread('analyticsThread', new URL('./analyticsThread.ts', import.meta.url), task);
  });
  try {
    const shares = await sharesDone<ShareLoaded>(workers, onPassed);
    const projects = new Sums();
    for (const share of shares) projects.addPlain(share.projects);
    return { counted: shares.reduce((sum, { counted }) => sum + counted, 0), projects };
  } catch (error) {
    log(`counting on one thread: a thread failed (${error instanceof Error ? error.message : String(error)})`);
    return null;
  }
}

/** What a thread of the bulk load is given. */
export interface AnalyticsTask {
  /** The cell the threads take turns through (`turns`). */
  writing: Int32Array;
  eventsFile: string;
  readFile: string;
  until: number;
  bulkEvents: number;
  days: Days | null;
  share: SubjectShare;
}

/**
 * The projection; `live` is the store the projects' time zones are read from (the live one, also during a rebuild).
 * A rebuild's bulk load counts `bulkEvents` player events in memory before it writes (1 GB resident a million);
 * with `days`, it counts again only the roll-ups of those local days and keeps the live ones of the others.
 */
export function analyticsProjection(
  live: ReadStore,
  { bulkEvents = 1_000_000, days = null, threads = null, log = () => undefined }: { bulkEvents?: number; days?: Days | null; threads?: number | null; log?: (message: string) => void } = {},
): Projection {
  const name = 'analytics';
  return {
    name,
    streamPrefix: PLAYER_EVENTS_PREFIX,
    collections: { [ANALYTICS_ROLLUPS]: rollupIndexes, [ANALYTICS_LISTENS]: [] },
    // Up to 20,000 player events: a batch's writes take a fraction of a second, not the lease term's 10 s.
    batchEvents: 20,
    async apply(event: RecordedEvent, store: ReadStore) {
      await applyPlayerEvents(store, live, playerEventsOf([event]));
    },
    async applyAll(events: RecordedEvent[], store: ReadStore) {
      await applyPlayerEvents(store, live, playerEventsOf(events));
    },
    async bulkLoad(events, store, until, onPassed) {
      const counted = await bulkLoad(events, store, live, until, { bulkEvents, days, threads, log }, onPassed);
      await store.collection(CHECKPOINTS).put({ _id: name, position: until });
      return { counted, unit: 'player events' };
    },
  };
}
