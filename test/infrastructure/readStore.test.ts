// Runs the read store contract on the in-process store, and on MongoDB when TEST_MONGODB_URL names a server.
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, describe } from 'vitest';
import { createMemoryReadStore } from '../../src/infrastructure/readStore/memory.ts';
import { createMongoReadStore } from '../../src/infrastructure/readStore/mongo.ts';
import { readStoreContract } from './readStore.contract.ts';

readStoreContract('memory', async () => createMemoryReadStore());

const server = process.env.TEST_MONGODB_URL;

describe.skipIf(!server)('MongoDB', () => {
  const url = `${server?.replace(/\/+$/, '')}/contract_${randomUUID().replaceAll('-', '')}`;
  readStoreContract('mongodb', () => createMongoReadStore(url));

  afterAll(async () => {
    const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5000 });
    await client.db().dropDatabase();
    await client.close();
  });
});
