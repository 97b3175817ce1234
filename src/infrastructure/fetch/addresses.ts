// Which addresses an outbound request may reach: public unicast only, unless private ones are allowed;
// cloud metadata endpoints never (they hand out the host's credentials).
import ipaddr from 'ipaddr.js';

/** Instance-metadata endpoints of the big clouds; some sit in ranges a private network may legitimately use. */
const metadataAddresses = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, ...
  '169.254.170.2', // AWS ECS task metadata
  '168.63.129.16', // Azure wire server (a public address)
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud
  'fd00:ec2::254', // AWS over IPv6
]);

/** ipaddr.js range names in words, each with its article. */
const classNames: Record<string, string> = {
  loopback: 'a loopback',
  private: 'a private',
  linkLocal: 'a link-local',
  uniqueLocal: 'a unique-local',
  carrierGradeNat: 'a carrier-grade NAT (shared)',
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  deprecatedSiteLocal: 'a site-local',
};

/** IPv6 forms that carry an IPv4 address in their last 32 bits: the IPv4 address decides. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  const [a, b, c, d, e, f, g, h] = address.parts as [number, number, number, number, number, number, number, number];
  const low32 = () => new ipaddr.IPv4([g >> 8, g & 0xff, h >> 8, h & 0xff]);
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return low32();
  if (range === '6to4') return new ipaddr.IPv4([b >> 8, b & 0xff, c >> 8, c & 0xff]);
  // The deprecated IPv4-compatible form ::a.b.c.d (but not :: and ::1, which have their own ranges).
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && (g !== 0 || h > 1)) return low32();
  return null;
}

/**
 * What kind of address this is when it is not a public unicast one, in words ("a loopback address"),
 * or null for a public address (or for text that is not an IP address at all).
 */
export function addressClassOf(text: string): string | null {
  if (!ipaddr.isValid(text)) return null;
  let address = ipaddr.parse(text);
  if (address.kind() === 'ipv6') {
    // A zone (fe80::1%eth0) does not change the class; ipaddr keeps it aside.
    address = embeddedIPv4(address as ipaddr.IPv6) ?? address;
  }
  const normal = address.toString();
  if (metadataAddresses.has(normal)) return 'a cloud metadata address';
  const range = address.range();
  if (range === 'unicast') return null;
  return `${classNames[range] ?? 'a reserved'} address`;
}

/** Why this address may not be contacted, or null when it may: the one rule of every outbound request. */
export function refusalOf(address: string, allowPrivate: boolean): string | null {
  const kind = addressClassOf(address);
  if (kind === null) return null;
  // Metadata endpoints stay refused whatever the setting: no test or local set-up needs them.
  if (allowPrivate && kind !== 'a cloud metadata address') return null;
  return kind;
}

/** The host of a URL as a resolver or an address check takes it: no IPv6 brackets, no trailing dot. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();

/** Names that always mean this machine, whatever DNS says. */
export const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost');
