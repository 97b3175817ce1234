// Hours, days, weeks, months and years as a project's time zone has them: where each begins, as an instant.
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const formats = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formats.set(zone, format);
  }
  return format;
}

/** Minutes the zone is ahead of UTC at `ms`; looked up once per zone and quarter hour (no zone changes offset off the quarter). */
export function offsetMinutes(zone: string, ms: number): number {
  const quarter = Math.floor(ms / 900_000);
  const key = `${zone} ${quarter}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  const parts = Object.fromEntries(formatOf(zone).formatToParts(new Date(quarter * 900_000)).map(({ type, value }) => [type, value]));
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const minutes = Math.round((local - quarter * 900_000) / 60_000);
  if (offsets.size > 100_000) offsets.clear();
  offsets.set(key, minutes);
  return minutes;
}

/** The instant a local wall-clock time (as if UTC, in ms) happens in the zone: the offset of the instant it names. */
function instantOf(zone: string, localMs: number): number {
  const first = localMs - offsetMinutes(zone, localMs) * 60_000;
  return localMs - offsetMinutes(zone, first) * 60_000;
}

export interface LocalPeriods {
  hourStart: number;
  dayStart: number;
  day: string;
}

/** By zone and quarter hour: a zone's hours and days begin on quarter hours, so every instant of one has the same. */
const periodsByQuarter = new Map<string, Map<number, LocalPeriods>>();

/** The local hour and day an instant falls in: where each begins (instants, ms) and the local date `yyyy-mm-dd`. */
export function localPeriodsOf(zone: string, ms: number): LocalPeriods {
  let known = periodsByQuarter.get(zone);
  if (!known) periodsByQuarter.set(zone, (known = new Map()));
  const quarter = Math.floor(ms / 900_000);
  let periods = known.get(quarter);
  if (!periods) {
    if (known.size > 100_000) known.clear();
    known.set(quarter, (periods = periodsAt(zone, ms)));
  }
  return periods;
}

function periodsAt(zone: string, ms: number): LocalPeriods {
  const offset = offsetMinutes(zone, ms) * 60_000;
  const local = ms + offset;
  const hourStart = Math.floor(local / HOUR_MS) * HOUR_MS - offset;
  const midnight = Math.floor(local / DAY_MS) * DAY_MS;
  return { hourStart, dayStart: instantOf(zone, midnight), day: new Date(midnight).toISOString().slice(0, 10) };
}

/** Today's local date in the zone. */
export const localDateOf = (zone: string, ms: number): string => localPeriodsOf(zone, ms).day;

/** The instant local midnight of `day` (`yyyy-mm-dd`) happens. */
export const dayStartOf = (zone: string, day: string): number => instantOf(zone, Date.parse(`${day}T00:00:00Z`));

export const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

export type Grouping = 'all' | 'hour' | 'day' | 'week' | 'month' | 'year';

/** The local date the period holding `day` begins on: weeks begin on Mondays (ISO 8601). */
export function periodDayOf(grouping: Exclude<Grouping, 'hour'>, day: string, firstDay: string): string {
  if (grouping === 'all') return firstDay;
  if (grouping === 'day') return day;
  if (grouping === 'month') return `${day.slice(0, 8)}01`;
  if (grouping === 'year') return `${day.slice(0, 5)}01-01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** An instant as ISO 8601 in the zone's local time with its offset, e.g. `2026-11-28T00:00:00+05:30`. */
export function localIso(zone: string, ms: number): string {
  const minutes = offsetMinutes(zone, ms);
  const local = new Date(ms + minutes * 60_000).toISOString().slice(0, 19);
  if (minutes === 0) return `${local}Z`;
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export { HOUR_MS, DAY_MS };
