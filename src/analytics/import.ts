// Historical player events from another system: an NDJSON file, one event a line in the player's shape plus the
// moment it was recorded, validated as posted events are, stored in chunks a second import of the file finds there.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { WrongExpectedRevision, type EventStore } from '../infrastructure/eventStore/port.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { validationError } from '../shared/validation.ts';
import { subjectChecker } from './ingest.ts';
import { importedEventsStream, playerEventSchema, toStoredEvent, type StoredPlayerEvent } from './playerEvents.ts';

/** Lines of the file per stored chunk: a chunk holds the valid events of its lines, so chunks are the file's, whatever is valid. */
export const LINES_PER_CHUNK = 1_000;
/** A line longer than this is refused unread (an event of the player's shape takes under 1 KB). */
export const MAX_LINE_BYTES = 64 * 1024;
/** Rejected lines reported one by one; the rest are counted. */
const REPORTED = 20;

/** `created_at`: when the exporting system recorded the event; not in the future, nor before 2000. */
const recordedAt = z.iso.datetime({ offset: true }).refine((text) => {
  const at = Date.parse(text);
  return at >= Date.UTC(2000, 0, 1) && at <= Date.now() + 60_000;
}, 'must be a moment between 2000 and now');

export interface ImportReport {
  lines: number;
  accepted: number;
  rejected: number;
  /** The first rejected lines, with their numbers (from 1) and why. */
  firstRejected: { line: number; reason: string }[];
  /** Events in chunks stored now, and in chunks an earlier import of the same file had stored. */
  stored: number;
  alreadyStored: number;
}

/** The file's hash and line count, in one pass. */
async function fingerprint(file: string): Promise<{ hash: string; lines: number }> {
  const hash = createHash('sha256');
  let lines = 0;
  let last = 10;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    last = chunk.at(-1) ?? last;
  }
  return { hash: hash.digest('hex').slice(0, 32), lines: lines + (last === 10 ? 0 : 1) };
}

/** The file's lines, each as text or as too long (refused without keeping it), numbered from 1. */
async function* linesOf(file: string): AsyncGenerator<{ number: number; text: string | null }> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let number = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, from)) {
      number += 1;
      const piece = chunk.subarray(from, at);
      if (tooLong || pendingBytes + piece.length > MAX_LINE_BYTES) yield { number, text: null };
      else yield { number, text: Buffer.concat([...pending, piece]).toString('utf8') };
      pending = [];
      pendingBytes = 0;
      tooLong = false;
      from = at + 1;
    }
    const rest = chunk.subarray(from);
    if (tooLong || pendingBytes + rest.length > MAX_LINE_BYTES) {
      tooLong = true;
      pending = [];
      pendingBytes = 0;
    } else if (rest.length > 0) {
      pending.push(Buffer.from(rest));
      pendingBytes += rest.length;
    }
  }
  if (tooLong || pendingBytes > 0) yield { number: number + 1, text: tooLong ? null : Buffer.concat(pending).toString('utf8') };
}

export async function importEvents(
  events: EventStore,
  read: ReadStore,
  file: string,
  progress: (done: number, total: number) => void = () => {},
): Promise<ImportReport> {
  await stat(file);
  const { hash, lines } = await fingerprint(file);
  const check = subjectChecker(read);
  const report: ImportReport = { lines: 0, accepted: 0, rejected: 0, firstRejected: [], stored: 0, alreadyStored: 0 };
  const reject = (line: number, reason: string) => {
    report.rejected += 1;
    if (report.firstRejected.length < REPORTED) report.firstRejected.push({ line, reason });
  };
  let chunk: StoredPlayerEvent[] = [];
  let chunkIndex = -1;
  /** The chunk an earlier import of the file stored: its lines are passed over unread. */
  let storedBefore = false;
  const store = async () => {
    if (chunk.length > 0) {
      try {
        await events.appendToStream(importedEventsStream(hash, chunkIndex), [{ type: 'PlayerEventsRecorded', data: { events: chunk } }], 'no_stream');
        report.stored += chunk.length;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) throw error;
        report.alreadyStored += chunk.length;
      }
    }
    chunk = [];
  };
  const begin = async (index: number) => {
    chunkIndex = index;
    const [recorded] = await events.readStream(importedEventsStream(hash, index));
    storedBefore = recorded !== undefined;
    if (recorded) {
      const stored = (recorded.data as { events: unknown[] }).events.length;
      report.alreadyStored += stored;
      report.accepted += stored;
    }
  };

  for await (const { number, text } of linesOf(file)) {
    report.lines = number;
    const index = Math.floor((number - 1) / LINES_PER_CHUNK);
    if (index !== chunkIndex) {
      await store();
      await begin(index);
      progress(number - 1, lines);
    }
    if (storedBefore) continue;
    if (text === null) {
      reject(number, `longer than ${MAX_LINE_BYTES} bytes`);
      continue;
    }
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      reject(number, 'not JSON');
      continue;
    }
    const parsed = playerEventSchema.safeParse(value);
    const at = recordedAt.safeParse((value as { created_at?: unknown } | null)?.created_at);
    if (!parsed.success || !at.success) {
      const errors = [...(parsed.success ? [] : validationError(parsed.error, value).errors), ...(at.success ? [] : validationError(at.error, undefined).errors.map((e) => ({ ...e, location: 'created_at' })))];
      reject(number, errors.map((error) => `${error.location}: ${error.message}`).join('; '));
      continue;
    }
    const wrong = await check(parsed.data);
    if (wrong.length > 0) {
      reject(number, wrong.map((error) => `${error.location}: ${error.message}`).join('; '));
      continue;
    }
    chunk.push(toStoredEvent(parsed.data, new Date(at.data)));
    report.accepted += 1;
  }
  await store();
  progress(lines, lines);
  return report;
}
