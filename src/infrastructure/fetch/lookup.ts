// The address check of outbound requests, applied to literal hosts before connecting and to DNS answers
// inside the connection's own lookup, so the address checked is the address connected to.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { FetchError } from './errors.ts';
import { refusalOf } from './addresses.ts';

/** A refusal of a host named by its address. */
export function literalRefusal(host: string, allowPrivate: boolean): FetchError | null {
  if (isIP(host) === 0) return null;
  const kind = refusalOf(host, allowPrivate);
  return kind ? new FetchError('refused', `refused to connect: ${host} is ${kind}`) : null;
}

/**
 * A DNS lookup for http(s).request that refuses a name when any of its addresses is refused: a name that
 * answers with a public and a private address could otherwise be steered to the private one.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const kind = refusalOf(address, allowPrivate);
        if (kind) return callback(new FetchError('refused', `refused to connect: ${hostname} resolves to ${address}, ${kind}`), '', 0);
      }
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}
