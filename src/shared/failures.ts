// Tells apart why an operation on a store failed: the store is away (wait, or answer 503) or the work itself cannot succeed.

/**
 * - `unavailable`: a store or server could not be reached or is overloaded; the same event will apply once it
 *   is back, and skipping it would lose it, so the runner waits without limit.
 * - `poison`: an error no second attempt can change (a stack overflow on a deeply nested payload, a type error
 *   in the projection's code on this event's shape): quarantined at once.
 * - `unknown`: anything else; tried a few times in a row, then quarantined.
 */
export type FailureKind = 'unavailable' | 'poison' | 'unknown';

const UNAVAILABLE_NAMES = new Set([
  // MongoDB driver: the server or the connection pool is unreachable or was reset.
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  'MongoWaitQueueTimeoutError',
  'MongoServerClosedError',
  // EventStoreDB client.
  'UnavailableError',
  'DeadlineExceededError',
  'NotLeaderError',
]);

/** MongoDB server codes for a node that is shutting down, stepping down or unreachable. */
const MONGO_UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);
const MONGO_TRANSIENT_LABELS = ['RetryableWriteError', 'ResetPool', 'TransientTransactionError', 'SystemOverloadedError'];

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN', 'ENOTFOUND']);
/** SQLite answers for a file that is busy, locked, out of space or failing I/O: none is about the event. */
const SQLITE_TRANSIENT = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|NOMEM|PROTOCOL)/;
/** gRPC (EventStoreDB, Temporal): UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED. */
const GRPC_TRANSIENT = new Set([14, 4, 8]);

const POISON_NAMES = new Set(['RangeError', 'TypeError', 'SyntaxError', 'ReferenceError', 'BSONError']);

type ErrorLike = { name?: unknown; code?: unknown; details?: unknown; cause?: unknown; hasErrorLabel?: unknown };

function isUnavailable(error: ErrorLike): boolean {
  const name = typeof error.name === 'string' ? error.name : '';
  if (UNAVAILABLE_NAMES.has(name)) return true;
  const { code } = error;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLITE_TRANSIENT.test(code))) return true;
  if (name.startsWith('Mongo')) {
    if (typeof code === 'number' && MONGO_UNAVAILABLE_CODES.has(code)) return true;
    const hasLabel = error.hasErrorLabel;
    if (typeof hasLabel === 'function' && MONGO_TRANSIENT_LABELS.some((label) => hasLabel.call(error, label))) return true;
  }
  return typeof code === 'number' && typeof error.details === 'string' && GRPC_TRANSIENT.has(code);
}

/** Looks through the error and its causes (drivers wrap the socket error that says what happened). */
export function failureKind(error: unknown): FailureKind {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if (isUnavailable(current as ErrorLike)) return 'unavailable';
    current = (current as ErrorLike).cause;
  }
  const name = (error as ErrorLike | null)?.name;
  return typeof name === 'string' && POISON_NAMES.has(name) ? 'poison' : 'unknown';
}

/** One line for the quarantine: the error's name and message, without a stack (it names server files). */
export function describeFailure(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
