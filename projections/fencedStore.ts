// The read store as the projection leader writes to it: every write first checks that its lease term still holds,
// so a leader that lost the lease (paused, cut off) stops writing documents and checkpoints (docs/deployment.md).
import type { Collection, Document, ReadStore } from '../src/infrastructure/readStore/port.ts';

/** A write refused because the lease term it was made under is over. */
export class LeaseLost extends Error {
  constructor() {
    super('the projections lease was lost: this process no longer writes the read models');
  }
}

/** The collection methods that write (bulkWrite where the store has it). */
const WRITES = ['put', 'deleteOne', 'clear', 'insert', 'bulkWrite'] as const;

export function fencedStore(read: ReadStore, mayWrite: () => boolean): ReadStore {
  const guarded = <T extends Document>(collection: Collection<T>): Collection<T> => {
    const fenced: Record<string, unknown> = { ...collection };
    for (const method of WRITES) {
      const write = (collection as unknown as Record<string, unknown>)[method];
      if (typeof write !== 'function') continue;
      fenced[method] = (...args: unknown[]) => (mayWrite() ? (write as (...a: unknown[]) => Promise<unknown>).apply(collection, args) : Promise.reject(new LeaseLost()));
    }
    return fenced as unknown as Collection<T>;
  };
  const wrap = (store: ReadStore): ReadStore => ({
    collection: <T extends Document>(name: string) => guarded(store.collection<T>(name)),
    ...(store.transaction ? { transaction: <R>(work: (inner: ReadStore) => Promise<R>) => store.transaction!((inner) => work(wrap(inner))) } : {}),
    close: () => store.close(),
  });
  return wrap(read);
}
