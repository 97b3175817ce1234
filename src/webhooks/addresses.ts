// Which destinations a webhook may use: https only, and (unless WEBHOOKS_ALLOW_PRIVATE) no host that the
// outbound address rule refuses. Checked on the URL at creation; delivery checks every resolved address again.
import { addressClassOf, hostOf, isLocalName, refusalOf } from '../infrastructure/fetch/addresses.ts';

/** True for an IP address that is not a public unicast one (loopback, private, link-local, metadata, ...). */
export const isPrivateAddress = (address: string): boolean => addressClassOf(address) !== null;

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
  const refused = (!allowPrivate && isLocalName(host)) || refusalOf(host, allowPrivate) !== null;
  return refused ? 'must not point to a private, loopback or link-local address' : null;
}
