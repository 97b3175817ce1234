// MongoDB read store; kept to what FerretDB 1.x also serves (plain CRUD, countDocuments, indexes, no transactions).
import { Long, MongoClient, MongoServerError, type Collection as MongoCollection } from 'mongodb';
import { DuplicateKeyError, type Collection, type Document, type ReadStore } from './port.ts';
import { planOfExplained } from './mongoPlan.ts';

const DUPLICATE_KEY = 11000;

/**
 * MongoDB reports code 11000; FerretDB 1.x does too for inserts, but reports a replacement (or a unique
 * index built over duplicates) as an InternalError carrying its backend's message: SQLite's, or
 * PostgreSQL's unique-violation state 23505.
 */
const isDuplicateKey = (error: unknown): error is MongoServerError =>
  error instanceof MongoServerError &&
  (error.code === DUPLICATE_KEY || /UNIQUE constraint failed|SQLSTATE 23505/.test(error.message));

/** The database named in the URL's path, or `service` when it names none. */
function databaseOf(url: string): string {
  const path = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^?]*)/.exec(url)?.[1];
  return path ? decodeURIComponent(path) : 'service';
}

function createMongoCollection<T extends Document>(collection: MongoCollection<Document>): Collection<T> {
  async function translatingDuplicates<R>(operation: () => Promise<R>): Promise<R> {
    try {
      return await operation();
    } catch (error) {
      if (isDuplicateKey(error)) {
        throw new DuplicateKeyError(collection.collectionName, error.message, { cause: error });
      }
      throw error;
    }
  }

  return {
    async findOne(filter) {
      return (await collection.findOne(filter)) as T | null;
    },
    async find(filter, options = {}) {
      return (await collection.find(filter, options).toArray()) as T[];
    },
    count: (filter) => collection.countDocuments(filter),
    async put(document) {
      await translatingDuplicates(() => collection.replaceOne({ _id: document._id }, document, { upsert: true }));
    },
    async deleteOne(id) {
      await collection.deleteOne({ _id: id });
    },
    async clear() {
      await collection.deleteMany({});
    },
    async ensureIndex({ keys, name, unique }) {
      // An explicit `unique: undefined` would be sent as null.
      await translatingDuplicates(() => collection.createIndex(keys, { name, ...(unique ? { unique } : {}) }));
    },
    async explain(filter, { skip, ...options } = {}) {
      // FerretDB 1.x takes an explained find's skip only as a 64-bit integer (plain finds take either).
      const explained = await collection.find(filter, { ...options, ...(skip ? { skip: Long.fromNumber(skip) as unknown as number } : {}) }).explain('queryPlanner');
      return planOfExplained(explained);
    },
  };
}

export async function createMongoReadStore(url: string): Promise<ReadStore> {
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(databaseOf(url));
  return {
    collection: <T extends Document>(name: string) => createMongoCollection<T>(db.collection<Document>(name)),
    close: () => client.close(),
  };
}
