// Which destinations a webhook may reach: https only, and no private, loopback or link-local addresses,
// checked on the URL at creation and on every resolved address at delivery (unless the setting allows them).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const privateRanges: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
];

const blocked = new BlockList();
for (const [network, prefix] of privateRanges) {
  blocked.addSubnet(network, prefix, 'ipv4');
  // The same ranges written as IPv4-mapped IPv6 (::ffff:10.0.0.1 reaches 10.0.0.1).
  blocked.addSubnet(`::ffff:${network}`, 96 + prefix, 'ipv6');
}
blocked.addAddress('::', 'ipv6');
blocked.addAddress('::1', 'ipv6');
blocked.addSubnet('fc00::', 7, 'ipv6');
blocked.addSubnet('fe80::', 10, 'ipv6');

/** True for an IP address in a private, loopback, link-local, shared or unspecified range. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The host of a URL as a resolver or an address check takes it: no IPv6 brackets, no trailing dot. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();

const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** Why a webhook may not use this URL, or null when it may (the check that needs no DNS). */
export function urlProblem(value: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a valid URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate ? 'must be an http(s) URL' : 'must be an https URL';
  }
  if (url.username || url.password) return 'must not carry a user name or password (send credentials as a custom header)';
  const host = hostOf(url);
  if (!allowPrivate && (isLocalName(host) || isPrivateAddress(host))) return 'must not point to a private, loopback or link-local address';
  return null;
}

/** A destination the delivery refused to contact; permanent, unlike a network error. */
export class RefusedDestination extends Error {
  constructor(host: string, address: string) {
    super(`refused to connect: ${host} resolves to ${address}, a private, loopback or link-local address`);
  }
}

/**
 * A DNS lookup for http(s).request that refuses private answers. The check runs on the very addresses
 * the socket then connects to, so a name that changes its answer between check and connect gains nothing.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = allowPrivate ? undefined : addresses.find(({ address }) => isPrivateAddress(address));
      if (refused) return callback(new RefusedDestination(hostname, refused.address), '', 0);
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}
