// Rendered player-data answers, kept while the read models they came from are unchanged.
//
// An entry is served as it is while the projections have applied no new event since it was made (no
// read at all). After an event, it is still served if the documents it was made from keep their
// revisions (a few counts; no reading, rendering, serialising or hashing).
import type { Basis } from './readModel.ts';

export type Answer =
  | { found: true; body: string; etag: string; allowedDomains: string[] }
  | { found: false };

interface Entry {
  /** Position of the projections when the answer was made (read before its documents were). */
  position: number;
  /** Revisions of every document the answer depends on. */
  basis: Basis;
  answer: Answer;
  size: number;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private size = 0;

  /** Bounded by entries and by characters of bodies, least recently used first out. */
  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxChars = 32_000_000,
  ) {}

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, position: number, basis: Basis, answer: Answer): void {
    this.delete(key);
    const size = key.length + (answer.found ? answer.body.length : 0);
    if (size > this.maxChars) return;
    this.entries.set(key, { position, basis, answer, size });
    this.size += size;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.size <= this.maxChars) break;
      this.delete(oldest);
    }
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.size -= entry.size;
  }
}
