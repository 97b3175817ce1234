// Who runs the projections when several processes share the read store: a lease of numbered terms, each one document
// created with the store's atomic insert, so that two processes can never hold the same term (docs/deployment.md).
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Document, ReadStore } from '../src/infrastructure/readStore/port.ts';

export const LEASES = 'leases';

/** One term of a lease: only its holder writes it after creating it; a later term supersedes it. */
export interface LeaseTerm extends Document {
  name: string;
  /** The fencing token: grows by one at every change of holder. */
  term: number;
  owner: string;
  host: string;
  pid: number;
  /** Epoch ms; past it, any process may start the next term. */
  expiresAt: number;
  /** Log position every projection of the holder has passed (what followers' read-your-writes wait for). */
  position: number;
  /** Where the term's runner started: the checkpoint it resumed from. */
  from: number;
  since: string;
}

export interface LeaseOptions {
  name: string;
  ttlMs: number;
  now?: () => number;
}

export interface Lease {
  readonly owner: string;
  /** The term held, or null. */
  readonly term: number | null;
  /** True while the term is held and has not run out by this process's clock. */
  valid(): boolean;
  /** Starts the next term when the current one has run out (or its holder died on this host); true when held. */
  claim(from: number): Promise<boolean>;
  /** Extends the term; false when it is lost (superseded, or not extended in time). */
  renew(): Promise<boolean>;
  /** Records the position the holder's projections have passed, for followers. */
  publish(position: number): Promise<void>;
  /** Ends the term at once, so that another process takes over without waiting for it to run out. */
  release(): Promise<void>;
  /** The latest term, held or not. */
  latest(): Promise<LeaseTerm | null>;
}

/** Terms kept behind the latest one, as a record of who led. */
const KEPT_TERMS = 20;

const idOf = (name: string, term: number) => `${name}:${String(term).padStart(10, '0')}`;

/** A process on this host that no longer exists cannot hold anything: no need to wait for its term to run out. */
function diedHere(term: LeaseTerm): boolean {
  if (term.host !== hostname() || term.pid === process.pid) return false;
  try {
    process.kill(term.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export async function openLease(read: ReadStore, options: LeaseOptions): Promise<Lease> {
  const now = options.now ?? Date.now;
  const terms = read.collection<LeaseTerm>(LEASES);
  await terms.ensureIndex({ name: 'name_term', keys: { name: 1, term: -1 }, unique: true });
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  // A renewal must end well before the term would run out: clocks of hosts differ a little.
  const margin = Math.min(1_000, options.ttlMs / 5);
  let held: LeaseTerm | null = null;
  let validUntil = 0;
  // Writes of the held term go one at a time, each with the term as it is when its turn comes: a publication sent
  // during a renewal must not write the old expiry back.
  let writing: Promise<unknown> = Promise.resolve();
  const write = () => {
    writing = writing.catch(() => undefined).then(() => held && terms.put({ ...held }));
    return writing;
  };

  const latest = async () => (await terms.find({ name: options.name }, { sort: { term: -1 }, limit: 1 }))[0] ?? null;
  const lose = () => {
    held = null;
    validUntil = 0;
  };

  const valid = () => held !== null && now() < validUntil - margin;

  return {
    owner,
    get term() {
      return held?.term ?? null;
    },
    valid,
    async claim(from) {
      const current = await latest();
      const started = now();
      // A term of our own that we no longer hold (its runner failed to start) is no reason to wait either.
      if (current && current.expiresAt > started && current.owner !== owner && !diedHere(current)) return false;
      const term = (current?.term ?? 0) + 1;
      const next: LeaseTerm = {
        _id: idOf(options.name, term),
        name: options.name,
        term,
        owner,
        host: hostname(),
        pid: process.pid,
        expiresAt: started + options.ttlMs,
        position: from,
        from,
        since: new Date(started).toISOString(),
      };
      if (!(await terms.insert(next))) return false;
      held = { ...next };
      validUntil = next.expiresAt;
      if (term > KEPT_TERMS) await terms.deleteOne(idOf(options.name, term - KEPT_TERMS)).catch(() => undefined);
      return true;
    },
    async renew() {
      if (!held) return false;
      const started = now();
      // A claimant that read the old expiry before this write could start the next term once it passes: a renewal
      // that ends later than that is no renewal.
      if (started >= validUntil - margin) return lose(), false;
      const term = held.term;
      held.expiresAt = started + options.ttlMs;
      try {
        await write();
        const current = await latest();
        if (current?.term !== term || now() >= validUntil - margin) return lose(), false;
      } catch {
        // The store is away: the term holds until it runs out, and the next renewal tries again.
        return valid();
      }
      if (held?.term !== term) return false;
      validUntil = started + options.ttlMs;
      return true;
    },
    async publish(position) {
      if (!held || position <= held.position || !valid()) return;
      held.position = position;
      await write();
    },
    async release() {
      if (!held) return;
      validUntil = 0;
      held.expiresAt = 0;
      await write().catch(() => undefined);
      held = null;
    },
    latest,
  };
}
