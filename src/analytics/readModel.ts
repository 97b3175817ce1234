// The analytics read model: hourly and daily roll-ups per subject, and the state of each listen that feeds them.
import type { IndexSpec } from '../infrastructure/readStore/port.ts';
import type { DeviceKey } from './playerEvents.ts';
import { countMerged } from './uniques.ts';

export const ANALYTICS_ROLLUPS = 'analyticsRollups';
export const ANALYTICS_LISTENS = 'analyticsListens';

/** What a roll-up counts for: one content item, one ad, or all the content of a project. */
export type Scope = 'content' | 'ad' | 'project';
export type Grain = 'hour' | 'day';

/**
 * The counters of one cell (device × variant × format × access tier). Content cells: impressions `i`, listens `l`,
 * listen time `t` (milliseconds: the sum over listens of the largest position each reached), percent sum `p` (in
 * thousandths of a percent: the sum over listens of the largest percentage each reached), retention `r` (listens
 * that reached 10 %, 20 %, …, 100 %), listeners `u` (a sketch, src/analytics/uniques.ts). Ad cells: impressions `i`
 * and clicks `c`. Every counter is a whole number, so sums come out the same in whatever groups they are added.
 */
/** `t` and `p` count thousandths: of a second, of a percent. */
export const THOUSANDTHS = 1_000;

export interface Cell {
  i: number;
  l: number;
  t: number;
  p: number;
  r: number[];
  u: string;
  c: number;
}

export interface RollupView {
  _id: string;
  projectId: number;
  scope: Scope;
  /** The content item's UUID, the ad's id or the project's id, as text. */
  subject: string;
  grain: Grain;
  /** Where the local hour or day begins (epoch ms). */
  start: number;
  /** The local date it falls on, `yyyy-mm-dd`. */
  day: string;
  /** The last log position applied to it (a replay of that event or an earlier one leaves it as it is). */
  position: number;
  /** Cells by `device|variant|format|tier` (tier '' when the player sent none). */
  cells: Record<string, Cell>;
  /** A daily one's listeners counted per device and in total, as its summary has them (`summaryOf`). */
  n?: Partial<Record<DeviceKey | 'total', number>>;
  [field: string]: unknown;
}

/** Where a listen's figures were counted: its cell, local hour and day. */
export interface Counted {
  cell: string;
  hour: number;
  dayStart: number;
  day: string;
}

/**
 * One listen (a session's content item or ad): what has been counted of it, so a duplicate send counts once. Only
 * the listen's place is kept, where its later progress adds: an impression or a click is counted once and never
 * touched again. (Listens counted before this held the impression's and click's places too, and whose listen it
 * was; those read the same.)
 */
export interface ListenView {
  _id: string;
  projectId: number;
  position: number;
  /** Whether the impression (`load`) was counted. */
  loaded: boolean | Counted | null;
  /** The listen (`play`), where counted; null before it. */
  played: Counted | null;
  /** Whether an ad's click was counted. */
  clicked: boolean | Counted | null;
  seconds: number;
  percent: number;
  [field: string]: unknown;
}

export const rollupIndexes: IndexSpec[] = [
  { name: 'subject_grain_start', keys: { scope: 1, subject: 1, grain: 1, start: 1 } },
  { name: 'project_scope_grain_day', keys: { projectId: 1, scope: 1, grain: 1, day: 1 } },
];

export const rollupId = (scope: Scope, subject: string, grain: Grain | typeof SUMMARY, start: number) => `${scope}:${subject}:${grain}:${start}`;

/** A cell's counters, without its listeners. */
export type Counters = Pick<Cell, 'i' | 'l' | 't' | 'p' | 'r' | 'c'>;

/** Adds `from`'s counters to `into`'s. */
export function addCounters(into: Counters, from: Counters): void {
  into.i += from.i;
  into.l += from.l;
  into.t += from.t;
  into.p += from.p;
  into.c += from.c;
  for (let step = 0; step < 10; step += 1) into.r[step]! += from.r[step]!;
}

const emptyCounters = (): Counters => ({ i: 0, l: 0, t: 0, p: 0, r: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], c: 0 });
export const emptyCell = (): Cell => ({ ...emptyCounters(), u: '' });

/** The grain of a day's summary (`DaySummaryView`), in the roll-ups' collection and indexes. */
export const SUMMARY = 'summary';

/** A device's (or all devices') figures of a day: the counters of its cells summed, and its distinct listeners `n`. */
export type DeviceSum = Counters & { n: number };

/**
 * A daily roll-up's cells summed per device and in total, written with it: a daily query without a cell filter
 * reads these, whose size does not grow with the cells a busy day fills nor with its listeners' sketches.
 */
export interface DaySummaryView {
  _id: string;
  projectId: number;
  scope: Scope;
  subject: string;
  grain: typeof SUMMARY;
  start: number;
  day: string;
  position: number;
  devices: Partial<Record<DeviceKey | 'total', DeviceSum>>;
  [field: string]: unknown;
}

/** The device of a cell's key (`device|variant|format|tier`). */
export const deviceOfCell = (key: string) => key.slice(0, key.indexOf('|')) as DeviceKey;

/**
 * The summary of a daily roll-up. Its listeners are counted again from the cells' sketches only for the devices in
 * `recount` (and then the total), those whose cells gained listeners; the others keep the counts the roll-up holds
 * (`n`, which this sets). All are counted when `recount` is left out or the roll-up holds none.
 */
export function summaryOf(day: RollupView, recount?: ReadonlySet<DeviceKey>): DaySummaryView {
  const counted = day.n && recount ? day.n : null;
  const sums = new Map<DeviceKey | 'total', { sum: Counters; sketches: string[] | null }>();
  const into = (key: DeviceKey | 'total', counts: boolean) => {
    let held = sums.get(key);
    if (!held) sums.set(key, (held = { sum: emptyCounters(), sketches: counts ? [] : null }));
    return held;
  };
  const countsTotal = !counted || recount!.size > 0;
  for (const [key, cell] of Object.entries(day.cells)) {
    const device = deviceOfCell(key);
    for (const held of [into('total', countsTotal), into(device, !counted || recount!.has(device))]) {
      addCounters(held.sum, cell);
      if (cell.u) held.sketches?.push(cell.u);
    }
  }
  const devices: DaySummaryView['devices'] = {};
  const n: NonNullable<RollupView['n']> = {};
  for (const [key, { sum, sketches }] of sums) devices[key] = { ...sum, n: (n[key] = sketches ? countMerged(sketches) : counted![key] ?? 0) };
  day.n = n;
  const { projectId, scope, subject, start, position } = day;
  return { _id: rollupId(scope, subject, SUMMARY, start), projectId, scope, subject, grain: SUMMARY, start, day: day.day, position, devices };
}
