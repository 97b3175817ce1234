// Embedded event store: one SQLite file, same semantics as EventStoreDB for what the service uses.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import Database from 'better-sqlite3';
import { useWriteAheadLog } from '../sqliteLog.ts';
import {
  WrongExpectedRevision,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type LogShare,
  type RecordedEvent,
  type StreamAppend,
  type Subscription,
} from './port.ts';
import { StorageFull } from '../../shared/storageFull.ts';

/** A row of `SELECT_EVENTS`, as an array: a replay reads every event, and arrays cost it less than objects. */
type Row = [position: number, id: string, stream: string, revision: number, type: string, data: string, created: string];
const SELECT_EVENTS = 'SELECT position, id, stream, revision, type, data, created FROM events';

const toEvent = ([position, id, stream, revision, type, data, created]: Row): RecordedEvent => ({
  id,
  stream,
  revision,
  position,
  type,
  data: JSON.parse(data),
  created,
});

/** A stream's name begins with `prefix`, as SQL: a comparison of its first characters, no pattern. */
const startsWith = (prefix: string) => `substr(stream, 1, ${[...prefix].length}) = ${quoted(prefix)}`;
const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
const anyOf = (conditions: string[]) => (conditions.length === 0 ? '0' : `(${conditions.join(' OR ')})`);

/** The WHERE clause of a share of the log (see `LogShare`), positions as parameters. */
function shareSql({ prefixes, shared, index, count }: LogShare): string {
  const share = `unicode(substr(stream, -1)) % ${count} = ${index}`;
  const others = index === 0 ? `NOT ${anyOf(shared.map(startsWith))}` : '0';
  return `position > ? AND position <= ? AND ${anyOf(prefixes.map(startsWith))} AND (${anyOf(shared.map(startsWith))} AND ${share} OR ${others})`;
}

const BATCH = 500;
/** The most of the file a share's read maps (SQLite maps no more than it was built to: 2 GB; pages past it are read as usual). */
const SHARE_MAP_BYTES = 2 ** 31;
const POLL_MS = 200;

export function createSqliteEventStore(file: string): EventStore {
  const db = new Database(file);
  useWriteAheadLog(db);
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS events (
      position INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      stream TEXT NOT NULL,
      revision INTEGER NOT NULL,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created TEXT NOT NULL,
      UNIQUE (stream, revision)
    )`);
  const selectStream = db.prepare<[string], Row>(`${SELECT_EVENTS} WHERE stream = ? ORDER BY revision`).raw();
  const selectRevision = db.prepare<[string], { revision: number | null }>(
    'SELECT MAX(revision) AS revision FROM events WHERE stream = ?',
  );
  const selectHead = db.prepare<[], number | null>('SELECT MAX(position) FROM events').pluck();
  const selectAll = db.prepare<[number, number], Row>(`${SELECT_EVENTS} WHERE position > ? ORDER BY position LIMIT ?`).raw();
  const insert = db.prepare<[string, string, number, string, string, string]>(
    'INSERT INTO events (id, stream, revision, type, data, created) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const appended = new EventEmitter();
  appended.setMaxListeners(0);
  let closed = false;

  const currentRevision = (stream: string) => selectRevision.get(stream)?.revision ?? -1;

  const appendOne = (stream: string, events: NewEvent[], expected: ExpectedRevision): AppendResult => {
    const actual = currentRevision(stream);
    const ok = expected === 'any' || (expected === 'no_stream' ? actual === -1 : actual === expected);
    if (!ok) throw new WrongExpectedRevision(stream, expected, actual);
    const created = new Date().toISOString();
    let revision = actual;
    let position = 0;
    for (const event of events) {
      revision += 1;
      const info = insert.run(randomUUID(), stream, revision, event.type, JSON.stringify(event.data), created);
      position = Number(info.lastInsertRowid);
    }
    return { revision, position };
  };
  // Run with `.immediate`: the write lock is taken before the revision is read. Another process appending to the same
  // file (several API processes share it) would otherwise make the upgrade from reader to writer fail at once with
  // SQLITE_BUSY, which no busy timeout waits out.
  const append = db.transaction(appendOne);
  const appendAll = db.transaction((appends: StreamAppend[]) => appends.map(({ stream, events, expected }) => appendOne(stream, events, expected)));

  /** Runs a write; a full disk rolled the transaction back whole: callers answer 507 and the client retries once there is room. */
  const writing = <R>(write: () => R): R => {
    try {
      return write();
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_FULL') throw new StorageFull(error);
      throw error;
    }
  };

  return {
    async readStream(stream) {
      return selectStream.all(stream).map(toEvent);
    },
    async streamRevision(stream) {
      return currentRevision(stream);
    },
    async appendToStream(stream, events, expected) {
      if (events.length === 0) throw new Error('appendToStream needs at least one event');
      const result = writing(() => append.immediate(stream, events, expected));
      appended.emit('appended');
      return result;
    },
    async appendMany(appends) {
      if (appends.some(({ events }) => events.length === 0)) throw new Error('appendMany needs at least one event per stream');
      if (appends.length === 0) return [];
      const results = writing(() => appendAll.immediate(appends));
      appended.emit('appended');
      return results;
    },
    async readAll(after, limit) {
      return selectAll.all(after, limit).map(toEvent);
    },
    file,
    async readShare(after, until, share) {
      if (!Number.isInteger(share.count) || share.count < 1 || !Number.isInteger(share.index) || share.index < 0 || share.index >= share.count) {
        throw new Error(`no share ${share.index} of ${share.count}`);
      }
      // Each share reads every page of the range: mapped, the pages are read where the OS keeps them rather than
      // copied in one by one. Unmapped again after, so the pages a replay touched do not stay in its memory.
      db.pragma(`mmap_size = ${SHARE_MAP_BYTES}`);
      let rows: Row[];
      try {
        rows = db.prepare<[number, number], Row>(`${SELECT_EVENTS} WHERE ${shareSql(share)} ORDER BY position`).raw().all(after, until) as Row[];
      } finally {
        db.pragma('mmap_size = 0');
      }
      return rows.map(toEvent);
    },
    async headPosition() {
      return selectHead.get() ?? 0;
    },
    subscribeToAll(after, handler, onError): Subscription {
      let position = after;
      let running = false;
      let pending = false;
      let stopped = false;
      let idle: Promise<void> = Promise.resolve();
      const drain = async () => {
        running = true;
        try {
          do {
            pending = false;
            for (;;) {
              if (stopped || closed) return;
              const rows = selectAll.all(position, BATCH);
              if (rows.length === 0) break;
              for (const row of rows) {
                if (stopped) return;
                await handler(toEvent(row));
                position = row[0];
              }
            }
          } while (pending);
        } finally {
          running = false;
        }
      };
      const stop = () => {
        stopped = true;
        clearInterval(poll);
        appended.off('appended', wake);
      };
      // `idle` must stay the drain in flight, so a wake during it only flags more work: close() awaits it.
      const wake = () => {
        if (running) {
          pending = true;
          return;
        }
        idle = drain().catch((error: unknown) => {
          stop();
          if (!onError) throw error;
          onError(error);
        });
      };
      appended.on('appended', wake);
      // Other processes (the operator CLI) append to the same file; polling finds their events.
      const poll = setInterval(wake, POLL_MS);
      poll.unref();
      wake();
      return {
        async close() {
          stop();
          await idle.catch(() => undefined);
        },
      };
    },
    async close() {
      closed = true;
      appended.removeAllListeners();
      db.close();
    },
  };
}
