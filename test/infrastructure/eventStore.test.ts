// Runs the event store contract against SQLite always, and against EventStoreDB when EVENTSTORE_URL is set.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WrongExpectedRevision } from '../../src/infrastructure/eventStore/port.ts';
import { createEventStoreDbEventStore } from '../../src/infrastructure/eventStore/eventstoredb.ts';
import { createSqliteEventStore } from '../../src/infrastructure/eventStore/sqlite.ts';
import { eventStoreContract } from './eventStore.contract.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'event-store-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

eventStoreContract('SQLite', async () => createSqliteEventStore(path.join(dir, 'events.sqlite')));

describe('SQLite appendMany', () => {
  it('is one transaction: a refused append leaves none of the others, and the head stays where it was', async () => {
    const store = createSqliteEventStore(path.join(dir, 'many.sqlite'));
    try {
      await store.appendToStream('taken-1', [{ type: 'Noted', data: {} }], 'no_stream');
      const head = await store.headPosition();
      const refused = store.appendMany([
        { stream: 'fresh-1', events: [{ type: 'Noted', data: {} }], expected: 'no_stream' },
        { stream: 'taken-1', events: [{ type: 'Noted', data: {} }], expected: 'no_stream' },
      ]);
      await expect(refused).rejects.toBeInstanceOf(WrongExpectedRevision);
      expect(await store.streamRevision('fresh-1')).toBe(-1);
      expect(await store.headPosition()).toBe(head);
    } finally {
      await store.close();
    }
  });

  it('lets several processes append to one file at once: none is refused for a lock, and each stream stays in order', async () => {
    const file = path.join(dir, 'shared.sqlite');
    createSqliteEventStore(file).close();
    // All start at one moment (after their start-up), then each appends to its own stream one event at a time, expecting its last revision: a read of the
    // revision followed by a write, the step that fails at once when another process commits in between.
    const script = `
      const { createSqliteEventStore } = await import(${JSON.stringify(path.resolve('src/infrastructure/eventStore/sqlite.ts'))});
      const store = createSqliteEventStore(process.argv[1]);
      await new Promise((resolve) => setTimeout(resolve, Number(process.argv[3]) - Date.now()));
      for (let i = 0; i < 1000; i++) await store.appendToStream(process.argv[2], [{ type: 'Noted', data: { i } }], i === 0 ? 'no_stream' : i - 1);
      await store.close();`;
    const run = (stream: string) =>
      new Promise<void>((resolve, reject) =>
        execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, file, stream, String(startAt)], (error, _out, stderr) => (error ? reject(new Error(stderr)) : resolve())),
      );
    const startAt = Date.now() + 4_000;
    await Promise.all(['one', 'two', 'three'].map(run));
    const store = createSqliteEventStore(file);
    try {
      for (const stream of ['one', 'two', 'three']) {
        expect((await store.readStream(stream)).map((event) => (event.data as { i: number }).i)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
      }
      expect(await store.headPosition()).toBe(3000);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('reports an empty log at position 0', async () => {
    const store = createSqliteEventStore(path.join(dir, 'empty.sqlite'));
    expect(await store.headPosition()).toBe(0);
    await store.close();
  });
});

// e.g. EVENTSTORE_URL=esdb://localhost:2113?tls=false
const eventStoreUrl = process.env.EVENTSTORE_URL;
describe.skipIf(!eventStoreUrl)('with EVENTSTORE_URL', () => {
  eventStoreContract('EventStoreDB', async () => createEventStoreDbEventStore(eventStoreUrl as string));
});
