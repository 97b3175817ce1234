// The shadow collections a rebuild writes into before it swaps them in (rebuild.ts), on whichever thread writes them.
import { inTransaction, type ReadStore } from '../infrastructure/readStore/port.ts';

export const shadowOf = (collection: string) => `${collection}~rebuild`;

/** `store` with every collection under its shadow's name. */
export const shadowsOf = (store: ReadStore): ReadStore => ({
  collection: (name) => store.collection(shadowOf(name)),
  close: async () => {},
});

/** `shadowsOf(store)` whose transactions are the store's, with the shadows' names inside too. */
export const shadowsWithTransactions = (store: ReadStore): ReadStore & Required<Pick<ReadStore, 'transaction'>> => ({
  ...shadowsOf(store),
  transaction: (work) => inTransaction(store, (transaction) => work(shadowsOf(transaction))),
});
