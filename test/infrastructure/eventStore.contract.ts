// The event store contract, written once and run against every adapter of the port.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  WrongExpectedRevision,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '../../src/infrastructure/eventStore/port.ts';

// Streams are unique per test so the suite can share a real server with other runs.
const newStream = (name: string) => `${name}-${randomUUID()}`;
const noted = (n: number): NewEvent => ({ type: 'Noted', data: { n } });

// Long enough for a subscription to deliver anything it wrongly would.
const SETTLE_MS = 200;

export function eventStoreContract(name: string, open: () => Promise<EventStore>) {
  describe(`${name} event store`, () => {
    let store: EventStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });

    describe('appendToStream', () => {
      it("starts a stream with 'no_stream' at revision 0, and refuses a second 'no_stream'", async () => {
        const stream = newStream('fresh');
        const result = await store.appendToStream(stream, [noted(0)], 'no_stream');
        expect(result.revision).toBe(0);
        expect(Number.isInteger(result.position) && result.position > 0).toBe(true);

        const refused = store.appendToStream(stream, [noted(1)], 'no_stream');
        await expect(refused).rejects.toBeInstanceOf(WrongExpectedRevision);
        await expect(refused).rejects.toMatchObject({ stream, expected: 'no_stream', actual: 0 });
      });

      it('appends at the expected revision and refuses a stale one without storing anything', async () => {
        const stream = newStream('optimistic');
        expect((await store.appendToStream(stream, [noted(0), noted(1)], 'no_stream')).revision).toBe(1);
        expect((await store.appendToStream(stream, [noted(2)], 1)).revision).toBe(2);

        const stale = store.appendToStream(stream, [noted(3), noted(4)], 1);
        await expect(stale).rejects.toBeInstanceOf(WrongExpectedRevision);
        await expect(stale).rejects.toMatchObject({ stream, expected: 1, actual: 2 });
        await expect(store.appendToStream(newStream('missing'), [noted(0)], 0)).rejects.toMatchObject({ actual: -1 });
        expect((await store.readStream(stream)).map((event) => event.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
      });

      it("always appends with 'any'", async () => {
        const stream = newStream('any');
        expect((await store.appendToStream(stream, [noted(0)], 'any')).revision).toBe(0);
        expect((await store.appendToStream(stream, [noted(1), noted(2)], 'any')).revision).toBe(2);
      });

      it('lets exactly one of concurrent appends with the same expected revision win', async () => {
        for (const expected of ['no_stream', 0] as const) {
          const stream = newStream('race');
          if (expected === 0) await store.appendToStream(stream, [noted(0)], 'no_stream');
          const results = await Promise.allSettled(
            Array.from({ length: 5 }, (_, i) => store.appendToStream(stream, [noted(i + 1)], expected)),
          );
          expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
          for (const result of results) {
            if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(WrongExpectedRevision);
          }
          expect(await store.streamRevision(stream)).toBe(expected === 0 ? 1 : 0);
        }
      });
    });

    describe('readStream and streamRevision', () => {
      it('reads a stream in order with its data round-tripped', async () => {
        const stream = newStream('read');
        const data = {
          title: 'Élan — 日本語 🎧',
          nested: { list: [1, 'two', { three: null }], flag: true, ratio: 0.25 },
        };
        await store.appendToStream(stream, [{ type: 'Created', data }, noted(1)], 'no_stream');
        const last = await store.appendToStream(stream, [noted(2)], 1);

        const events = await store.readStream(stream);
        expect(events.map(({ type, data, stream, revision }) => ({ type, data, stream, revision }))).toEqual([
          { type: 'Created', data, stream, revision: 0 },
          { type: 'Noted', data: { n: 1 }, stream, revision: 1 },
          { type: 'Noted', data: { n: 2 }, stream, revision: 2 },
        ]);
        expect(new Set(events.map((event) => event.id)).size).toBe(3);
        for (const event of events) expect(new Date(event.created).toISOString()).toBe(event.created);
        expectIncreasing(events.map((event) => event.position));
        expect(events.at(-1)?.position).toBe(last.position);
        expect(await store.streamRevision(stream)).toBe(2);
      });

      it('treats a missing stream as empty, at revision -1', async () => {
        const stream = newStream('missing');
        expect(await store.readStream(stream)).toEqual([]);
        expect(await store.streamRevision(stream)).toBe(-1);
      });
    });

    describe('readAll', () => {
      it('pages through the log in position order, strictly after the given position', async () => {
        const a = newStream('paged-a');
        const b = newStream('paged-b');
        const start = await store.appendToStream(a, [noted(0)], 'no_stream');
        await store.appendToStream(b, [noted(1), noted(2)], 'no_stream');
        await store.appendToStream(a, [noted(3)], 0);
        await store.appendToStream(b, [noted(4)], 1);
        const last = await store.appendToStream(a, [noted(5)], 1);

        const seen: RecordedEvent[] = [];
        let after = start.position;
        // A shared server may keep growing, so stop once past our last event rather than at the very end.
        while (after < last.position) {
          const page = await store.readAll(after, 2);
          expect(page.length).toBeGreaterThan(0);
          expect(page.length).toBeLessThanOrEqual(2);
          for (const event of page) {
            expect(event.position).toBeGreaterThan(after);
            after = event.position;
          }
          seen.push(...page);
        }

        const ours = seen.filter((event) => event.stream === a || event.stream === b);
        expect(ours.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }]);
        expect(ours.at(-1)?.position).toBe(last.position);
        const fromStreams = [...(await store.readStream(a)), ...(await store.readStream(b))]
          .filter((event) => event.position > start.position)
          .sort((x, y) => x.position - y.position);
        expect(ours).toEqual(fromStreams);
      });

      it('reads from the start of the log with position 0', async () => {
        await store.appendToStream(newStream('first'), [noted(0)], 'no_stream');
        const page = await store.readAll(0, 1);
        expect(page).toHaveLength(1);
        expect(page[0]?.position).toBeGreaterThan(0);
      });
    });

    describe('appendMany and headPosition', () => {
      it('appends to several streams in order, each append seeing the ones before it, and the head is the last position', async () => {
        const a = newStream('many-a');
        const b = newStream('many-b');
        const results = await store.appendMany([
          { stream: a, events: [noted(0)], expected: 'no_stream' },
          { stream: b, events: [noted(1), noted(2)], expected: 'no_stream' },
          { stream: a, events: [noted(3)], expected: 0 },
        ]);
        expect(results.map((result) => result.revision)).toEqual([0, 1, 1]);
        expectIncreasing(results.map((result) => result.position));
        expect((await store.readStream(a)).map((event) => event.data)).toEqual([{ n: 0 }, { n: 3 }]);
        expect((await store.readStream(b)).map((event) => event.position)).toEqual([results[1]!.position - 1, results[1]!.position]);
        // A shared server may have moved on meanwhile; the head is never behind what we appended.
        expect(await store.headPosition()).toBeGreaterThanOrEqual(results[2]!.position);
      });

      it('refuses an append whose expected revision does not hold', async () => {
        const a = newStream('many-refused');
        await store.appendToStream(a, [noted(0)], 'no_stream');
        await expect(store.appendMany([{ stream: a, events: [noted(1)], expected: 'no_stream' }])).rejects.toBeInstanceOf(WrongExpectedRevision);
        expect(await store.streamRevision(a)).toBe(0);
      });
    });

    describe('subscribeToAll', () => {
      it('delivers events after the given position, then live ones, in order and once each, until closed', async () => {
        const stream = newStream('subscribed');
        const start = await store.appendToStream(stream, [noted(0)], 'no_stream');
        await store.appendToStream(stream, [noted(1), noted(2)], 0);

        const seen: RecordedEvent[] = [];
        const errors: unknown[] = [];
        let inFlight = 0;
        let overlapped = false;
        const subscription = store.subscribeToAll(
          start.position,
          async (event) => {
            inFlight += 1;
            overlapped ||= inFlight > 1;
            if (event.stream === stream) {
              await sleep(5);
              seen.push(event);
            }
            inFlight -= 1;
          },
          (error) => errors.push(error),
        );

        await vi.waitFor(() => expect(seen).toHaveLength(2));
        await store.appendToStream(stream, [noted(3)], 2);
        await store.appendToStream(stream, [noted(4)], 3);
        await vi.waitFor(() => expect(seen).toHaveLength(4));
        await sleep(SETTLE_MS);
        await subscription.close();
        await store.appendToStream(stream, [noted(5)], 4);
        await sleep(SETTLE_MS);

        expect(seen.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
        expect(seen.map((event) => event.revision)).toEqual([1, 2, 3, 4]);
        const stored = (await store.readStream(stream)).slice(1, 5);
        expect(seen.map((event) => event.position)).toEqual(stored.map((event) => event.position));
        expect(overlapped).toBe(false);
        expect(errors).toEqual([]);
      });

      it('stops and reports once when the handler throws', async () => {
        const stream = newStream('failing');
        const start = await store.appendToStream(stream, [noted(0)], 'no_stream');
        await store.appendToStream(stream, [noted(1), noted(2)], 0);

        const failure = new Error('handler failed');
        const handled: number[] = [];
        const errors: unknown[] = [];
        const subscription = store.subscribeToAll(
          start.position,
          async (event) => {
            if (event.stream !== stream) return;
            handled.push(event.revision);
            throw failure;
          },
          (error) => errors.push(error),
        );

        await vi.waitFor(() => expect(errors).toHaveLength(1));
        await store.appendToStream(stream, [noted(3)], 2);
        await sleep(SETTLE_MS);
        expect(errors[0]).toBe(failure);
        expect(errors).toHaveLength(1);
        expect(handled).toEqual([1]);
        await subscription.close();
      });

      it('closes only once the handler call in flight has finished', async () => {
        const stream = newStream('closing');
        const start = await store.appendToStream(stream, [noted(0)], 'no_stream');
        let release = () => {};
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        const started: number[] = [];
        const finished: number[] = [];
        const errors: unknown[] = [];
        const subscription = store.subscribeToAll(
          start.position,
          async (event) => {
            if (event.stream !== stream) return;
            started.push(event.revision);
            await gate;
            finished.push(event.revision);
          },
          (error) => errors.push(error),
        );

        await store.appendToStream(stream, [noted(1)], 0);
        await vi.waitFor(() => expect(started).toEqual([1]));
        await store.appendToStream(stream, [noted(2)], 1);
        let closed = false;
        const closing = subscription.close().then(() => {
          closed = true;
        });
        await sleep(SETTLE_MS / 4);
        expect(closed).toBe(false);
        release();
        await closing;
        expect(finished).toEqual([1]);
        await sleep(SETTLE_MS);
        expect(started).toEqual([1]);
        expect(errors).toEqual([]);
      });
    });
  });
}

function expectIncreasing(positions: number[]) {
  positions.slice(1).forEach((position, i) => expect(position).toBeGreaterThan(positions[i] ?? -Infinity));
}
