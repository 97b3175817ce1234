// Why an outbound request failed, as a value callers can tell apart (a refusal is permanent, a timeout is not).

export type FetchFailure =
  | 'bad-url' // not an http(s) URL
  | 'refused' // the address rule refused the host, a DNS answer or a redirect target
  | 'redirects' // more redirects than allowed, or one to a URL that cannot be followed
  | 'too-large' // the body passed its size limit
  | 'timeout' // the whole exchange passed its time limit
  | 'network'; // no connection, reset, TLS failure, DNS failure

export class FetchError extends Error {
  override readonly name = 'FetchError';
  constructor(
    readonly reason: FetchFailure,
    message: string,
  ) {
    super(message);
  }
}
