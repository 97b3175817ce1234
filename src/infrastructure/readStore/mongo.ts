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
    async bulkWrite(writes) {
      if (writes.length === 0) return;
      const operations = writes.map((write) =>
        'put' in write
          ? { replaceOne: { filter: { _id: write.put._id }, replacement: write.put as Document, upsert: true } }
          : { deleteOne: { filter: { _id: write.delete } } },
      );
      await translatingDuplicates(() => collection.bulkWrite(operations, { ordered: true }));
    },
    async clear() {
      await collection.deleteMany({});
    },
    async insert(document) {
      try {
        await collection.insertOne({ ...document });
        return true;
      } catch (error) {
        // The duplicate may be another unique index's: FerretDB's message does not say which.
        if (isDuplicateKey(error) && (await collection.countDocuments({ _id: document._id })) > 0) return false;
        throw isDuplicateKey(error) ? new DuplicateKeyError(collection.collectionName, error.message, { cause: error }) : error;
      }
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
    async renameCollection(from, to) {
      // Atomic per collection; the target's indexes go with it, and MongoDB carries the source's over. A source
      // never written does not exist: the target is then emptied.
      const exists = (await db.listCollections({ name: from }, { nameOnly: true }).toArray()).length > 0;
      if (!exists) {
        await db.collection(to).deleteMany({});
        return;
      }
      try {
        await db.renameCollection(from, to, { dropTarget: true });
      } catch (error) {
        // FerretDB 1.x has no dropTarget: the target goes first, so a read in between finds it empty.
        if (!(error instanceof MongoServerError && /dropTarget/.test(error.message))) throw error;
        await db.collection(to).drop().catch(() => false);
        await db.renameCollection(from, to);
      }
    },
    close: () => client.close(),
  };
}
