// The projection runner around projections that fail: a real SQLite event store and in-memory read store, with
// small projections whose failures the test decides (the runner is the unit; the projections are its surroundings).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteEventStore } from '../../src/infrastructure/eventStore/sqlite.ts';
import type { EventStore, RecordedEvent } from '../../src/infrastructure/eventStore/port.ts';
import { createMemoryReadStore } from '../../src/infrastructure/readStore/memory.ts';
import type { ReadStore } from '../../src/infrastructure/readStore/port.ts';
import type { Projection } from '../../projections/projection.ts';
import { QUARANTINE_STREAM } from '../../projections/quarantine.ts';
import { catchUp, startProjections, type ProjectionRunner } from '../../projections/runner.ts';
import { retryQuarantine } from '../../src/operations/quarantine.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Decides, per event, what the projection's store or code does with it: nothing (apply) or throw. */
type Failure = (event: RecordedEvent) => Error | null;

/** Keeps the text of each `note-*` stream, guarded by revision (idempotent, as real projections are). */
function notes(name: string, fail: { current: Failure }): Projection {
  return {
    name,
    streamPrefix: 'note-',
    collections: { [name]: [] },
    async apply(event, read) {
      const error = fail.current(event);
      if (error) throw error;
      const docs = read.collection<{ _id: string; revision: number; texts: string[] }>(name);
      const doc = (await docs.findOne({ _id: event.stream })) ?? { _id: event.stream, revision: -1, texts: [] };
      if (event.revision <= doc.revision) return;
      await docs.put({ ...doc, revision: event.revision, texts: [...doc.texts, (event.data as { text: string }).text] });
    },
  };
}

const ok: Failure = () => null;
const write = (events: EventStore, stream: string, ...texts: string[]) =>
  events.appendToStream(stream, texts.map((text) => ({ type: 'NoteWritten', data: { text } })), 'any');
const textsOf = async (read: ReadStore, collection: string, stream: string) =>
  ((await read.collection(collection).findOne({ _id: stream })) as { texts: string[] } | null)?.texts ?? null;
const networkError = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { name: 'MongoNetworkError' });

let events: EventStore;
let read: ReadStore;
let runners: ProjectionRunner[];
beforeEach(async () => {
  await Promise.all((runners ?? []).map((runner) => runner.close()));
  runners = [];
  events = createSqliteEventStore(path.join(dir, `${Math.random().toString(36).slice(2)}.sqlite`));
  read = createMemoryReadStore();
});

async function run(projections: Projection[], store = read) {
  const runner = await startProjections(events, store, projections);
  runners.push(runner);
  return runner;
}

describe('an event a projection cannot apply', () => {
  it('is quarantined at once when no second try can change it, and no other projection waits for it', async () => {
    const failing = { current: ((event) => ((event.data as { text: string }).text === 'deep' ? new RangeError('Maximum call stack size exceeded') : null)) as Failure };
    const runner = await run([notes('a', failing), notes('b', { current: ok })]);
    await write(events, 'note-1', 'first');
    const { position } = await write(events, 'note-2', 'deep');
    const after = await write(events, 'note-3', 'later');

    const started = Date.now();
    expect(await runner.waitFor(after.position)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await textsOf(read, 'a', 'note-3')).toEqual(['later']);
    expect(await textsOf(read, 'a', 'note-2')).toBeNull();
    expect(await textsOf(read, 'b', 'note-2')).toEqual(['deep']);
    const [entry, ...others] = runner.quarantined();
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ projection: 'a', position, stream: 'note-2', eventType: 'NoteWritten', error: 'RangeError: Maximum call stack size exceeded', failures: 1 });
    const [recorded] = await events.readAll(position - 1, 1);
    expect(entry!.eventId).toBe(recorded!.id);
  });

  it('is tried three times in a row when the failure is of no known kind, then quarantined', async () => {
    let calls = 0;
    const runner = await run([notes('a', { current: () => (calls++, new Error('something odd')) })]);
    const { position } = await write(events, 'note-1', 'x');
    await expect.poll(() => runner.quarantined().length).toBe(1);
    expect(calls).toBe(3);
    expect(runner.position).toBeGreaterThanOrEqual(position);
  });

  it('is not quarantined when it applies on a later try', async () => {
    let calls = 0;
    const runner = await run([notes('a', { current: () => (++calls < 3 ? new Error('a passing race') : null) })]);
    const { position } = await write(events, 'note-1', 'x');
    expect(await runner.waitFor(position)).toBe(true);
    expect(await textsOf(read, 'a', 'note-1')).toEqual(['x']);
    expect(runner.quarantined()).toEqual([]);
  });
});

describe('a read store that is away', () => {
  it('is waited for, however long, without quarantining, and a write waits for it at most the bound', async () => {
    const failing = { current: (() => networkError()) as Failure };
    const runner = await run([notes('a', failing)]);
    const { position } = await write(events, 'note-1', 'kept');

    const started = Date.now();
    expect(await runner.waitFor(position, 500)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_500);
    await expect.poll(() => runner.progress()[0]!.waitingSince).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(runner.quarantined()).toEqual([]);

    failing.current = ok;
    expect(await runner.waitFor(position, 15_000)).toBe(true);
    expect(await textsOf(read, 'a', 'note-1')).toEqual(['kept']);
    expect(runner.progress()[0]!.waitingSince).toBeNull();
    expect(runner.quarantined()).toEqual([]);
  });

  it('keeps the checkpoint before the event when the runner closes while waiting', async () => {
    const failing = { current: (() => networkError()) as Failure };
    const first = await run([notes('a', failing)]);
    const { position } = await write(events, 'note-1', 'kept');
    await expect.poll(() => first.progress()[0]!.waitingSince).not.toBeNull();
    await first.close();
    expect(first.position).toBeLessThan(position);

    // The same (durable) read store, as after a restart: the event is applied now, not skipped.
    failing.current = ok;
    const second = await run([notes('a', failing)]);
    await catchUp(events, second);
    expect(await textsOf(read, 'a', 'note-1')).toEqual(['kept']);
  });
});

describe('retrying the quarantine after a fix', () => {
  it('holds the later events of its stream, applies them all in order once fixed, and a replay records nothing again', async () => {
    const broken: Failure = (event) => ((event.data as { text: string }).text === 'bad' ? new TypeError("Cannot read properties of undefined (reading 'x')") : null);
    const failing = { current: broken };
    const runner = await run([notes('a', failing)]);
    const { position } = await write(events, 'note-1', 'bad');
    const later = await write(events, 'note-1', 'after');
    await write(events, 'note-2', 'elsewhere');
    await expect.poll(() => runner.quarantined().map((entry) => [entry.position, entry.error])).toEqual([
      [position, "TypeError: Cannot read properties of undefined (reading 'x')"],
      [later.position, `held: the event at position ${position} of its stream is quarantined`],
    ]);
    expect(await textsOf(read, 'a', 'note-1')).toBeNull();
    expect(await textsOf(read, 'a', 'note-2')).toEqual(['elsewhere']);

    const stillBroken = await retryQuarantine(events, [position]);
    expect(stillBroken.code).toBe(1);
    expect(stillBroken.report).toMatch(new RegExp(`position ${position}  a: failed again: TypeError`));
    expect(runner.quarantined()[0]!.failures).toBe(2);

    failing.current = ok;
    const fixed = await retryQuarantine(events, null);
    expect(fixed.code).toBe(0);
    expect(fixed.report).toContain(`position ${position}  a: applied; out of quarantine`);
    expect(fixed.report).toContain(`position ${later.position}  a: applied; out of quarantine`);
    expect(await textsOf(read, 'a', 'note-1')).toEqual(['bad', 'after']);
    await expect.poll(() => runner.quarantined()).toEqual([]);

    // A replay from the start with the fixed code (the embedded default replays at every start) meets both retry
    // requests again and ends with the same read model, adding nothing to the quarantine stream.
    const recorded = await events.streamRevision(QUARANTINE_STREAM);
    const replayed = createMemoryReadStore();
    const replay = await run([notes('a', failing)], replayed);
    await catchUp(events, replay);
    expect(await textsOf(replayed, 'a', 'note-1')).toEqual(['bad', 'after']);
    expect(await events.streamRevision(QUARANTINE_STREAM)).toBe(recorded);
    expect(replay.quarantined()).toEqual([]);
  });

  it('tells when nothing is quarantined at a position', async () => {
    expect(await retryQuarantine(events, [42])).toEqual({ code: 2, report: 'no event in quarantine at position 42' });
  });
});

describe('reactors', () => {
  it('start where the read models are when they have no checkpoint of their own', async () => {
    const first = await run([notes('a', { current: ok })]);
    await write(events, 'note-1', 'old');
    await catchUp(events, first);
    await first.close();

    const seen: string[] = [];
    const reactor: Projection = { name: 'reactor', streamPrefix: 'note-', collections: {}, apply: async (event) => void seen.push((event.data as { text: string }).text) };
    const second = await startProjections(events, read, [notes('a', { current: ok })], { reactors: [reactor] });
    runners.push(second);
    const { position } = await write(events, 'note-1', 'new');
    await second.waitFor(position);
    expect(seen).toEqual(['new']);
  });
});

describe('a projection that applies a batch at once', () => {
  /** `notes` with an `applyAll` that applies each event as `apply` does, and records the texts it was handed. */
  function notesAll(name: string, fail: { current: Failure }, handed: string[][]): Projection {
    const single = notes(name, fail);
    return {
      ...single,
      async applyAll(batch, store) {
        handed.push(batch.map((event) => (event.data as { text: string }).text));
        for (const event of batch) await single.apply(event, store);
      },
    };
  }

  it("is handed a batch's events together, with the same documents as one by one", async () => {
    await write(events, 'note-1', 'one', 'two');
    await write(events, 'note-2', 'three');
    const { position } = await write(events, 'note-1', 'four');
    const handed: string[][] = [];
    const runner = await run([notesAll('a', { current: ok }, handed), notes('b', { current: ok })]);
    await catchUp(events, runner);
    expect(runner.position).toBe(position);
    expect(handed.flat()).toEqual(['one', 'two', 'three', 'four']);
    expect(Math.max(...handed.map((texts) => texts.length))).toBeGreaterThan(1);
    for (const collection of ['a', 'b']) {
      expect(await textsOf(read, collection, 'note-1')).toEqual(['one', 'two', 'four']);
      expect(await textsOf(read, collection, 'note-2')).toEqual(['three']);
    }
  });

  it('is applied event by event when the batch fails, so the failure is pinned on its event alone', async () => {
    const failing = { current: ((event) => ((event.data as { text: string }).text === 'deep' ? new RangeError('Maximum call stack size exceeded') : null)) as Failure };
    await write(events, 'note-1', 'first');
    const { position } = await write(events, 'note-2', 'deep');
    const after = await write(events, 'note-3', 'later');
    const handed: string[][] = [];
    const runner = await run([notesAll('a', failing, handed)]);
    expect(await runner.waitFor(after.position, 5_000)).toBe(true);
    expect(handed.find((texts) => texts.includes('deep'))?.length).toBeGreaterThan(1);
    expect(await textsOf(read, 'a', 'note-1')).toEqual(['first']);
    expect(await textsOf(read, 'a', 'note-2')).toBeNull();
    expect(await textsOf(read, 'a', 'note-3')).toEqual(['later']);
    expect(runner.quarantined().map((entry) => [entry.position, entry.stream])).toEqual([[position, 'note-2']]);
  });
});
