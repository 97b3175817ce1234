// Request counts shared by every API process through the read store: the n-th request of a window takes slot n, a
// document only one process can create (the store's atomic insert), so N processes together let `limit` through;
// windows open the same way, with the first request after the last one ended.
import type { Document, ReadStore } from '../infrastructure/readStore/port.ts';
import { WINDOW_MS, type RequestCounter } from './rateLimit.ts';

export const RATE_LIMIT_WINDOWS = 'rateLimitWindows';
export const RATE_LIMIT_SLOTS = 'rateLimitSlots';

/** The k-th window of a name: it starts with the first request after the previous one ended, as in one process. */
interface Window extends Document {
  name: string;
  k: number;
  started: number;
  expiresAt: number;
}

interface Slot extends Document {
  /** The window's id: `<name>:<k>`. */
  window: string;
  n: number;
  expiresAt: number;
}

/** Documents of ended windows removed per sweep, a page at a time, so a sweep never holds up requests for long. */
const SWEEP_PAGES = 20;
const SWEEP_PAGE = 500;

export async function sharedCounter(read: ReadStore, log: (message: string) => void, now: () => number = Date.now): Promise<RequestCounter & { close(): void }> {
  const windows = read.collection<Window>(RATE_LIMIT_WINDOWS);
  const slots = read.collection<Slot>(RATE_LIMIT_SLOTS);
  await windows.ensureIndex({ name: 'name_k', keys: { name: 1, k: -1 } });
  await windows.ensureIndex({ name: 'expiresAt', keys: { expiresAt: 1 } });
  await slots.ensureIndex({ name: 'window_n', keys: { window: 1, n: -1 } });
  await slots.ensureIndex({ name: 'expiresAt', keys: { expiresAt: 1 } });
  /** Per name, its current window as this process last saw it, and the highest slot it knows taken there. */
  const known = new Map<string, { window: Window; taken: number }>();

  /** The name's window that holds `at`, opening the next one when the last has ended (one process wins each). */
  const windowAt = async (name: string, at: number): Promise<Window> => {
    for (;;) {
      const [last] = await windows.find({ name }, { sort: { k: -1 }, limit: 1 });
      if (last && at < last.expiresAt) return last;
      const k = (last?.k ?? 0) + 1;
      const next: Window = { _id: `${name}:${k}`, name, k, started: at, expiresAt: at + WINDOW_MS };
      if (await windows.insert(next)) return next;
    }
  };
  const highest = async (window: string) => (await slots.find({ window }, { sort: { n: -1 }, limit: 1 }))[0]?.n ?? 0;

  const sweep = async () => {
    try {
      for (const collection of [slots, windows] as const) {
        for (let page = 0; page < SWEEP_PAGES; page++) {
          const ended = await collection.find({ expiresAt: { $lt: now() } }, { limit: SWEEP_PAGE });
          for (const { _id } of ended) await collection.deleteOne(_id);
          if (ended.length < SWEEP_PAGE) break;
        }
      }
      const at = now();
      for (const [name, { window }] of known) if (window.expiresAt <= at) known.delete(name);
    } catch (error) {
      log(`could not remove ended rate-limit windows: ${String(error)}`);
    }
  };
  const sweeping = setInterval(() => void sweep(), WINDOW_MS);
  sweeping.unref();

  return {
    async take(name, limit) {
      const at = now();
      let entry = known.get(name);
      if (!entry || at >= entry.window.expiresAt) {
        const window = await windowAt(name, at);
        entry = { window, taken: await highest(window._id) };
        known.set(name, entry);
      }
      const { window } = entry;
      const resetsAt = window.expiresAt;
      for (let n = entry.taken + 1; n <= limit; ) {
        if (await slots.insert({ _id: `${window._id}:${n}`, window: window._id, n, expiresAt: resetsAt })) {
          entry.taken = Math.max(entry.taken, n);
          return { allowed: true, used: n, resetsAt, at };
        }
        // Another process took it: go on above the highest slot taken so far.
        entry.taken = Math.max(n, await highest(window._id));
        n = entry.taken + 1;
      }
      entry.taken = limit;
      return { allowed: false, used: limit, resetsAt, at };
    },
    close: () => clearInterval(sweeping),
  };
}
