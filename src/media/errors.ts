// Typed failures of the media layer, so activities can tell retryable ones from permanent ones.

export type SynthesisFailure =
  | 'timeout' // the synthesizer ran past its time limit and was killed
  | 'unknown-voice'
  | 'not-built' // the native helper is missing and could not be built
  | 'failed'; // the synthesizer crashed or wrote no audio

export class SynthesisError extends Error {
  override readonly name = 'SynthesisError';
  constructor(
    readonly reason: SynthesisFailure,
    message: string,
  ) {
    super(message);
  }
}

export type MediaFailure =
  | 'bad-url'
  | 'http-status' // the server answered with a non-2xx status (see `status`)
  | 'network'
  | 'refused' // the outbound address rule refused the host, a DNS answer or a redirect target
  | 'redirects' // too many redirects, or one to a URL that cannot be followed
  | 'too-large'
  | 'timeout'
  | 'undecodable' // ffmpeg found no audio it could decode
  | 'invalid-input'
  | 'unsupported-format' // the bytes are not a format allowed for the use (src/media/intake.ts): refused for good
  | 'over-limit' // longer than the duration limit, or more pixels than the picture limit: refused for good
  | 'tool-failed'; // ffmpeg or ffprobe failed on input we produced ourselves

export class MediaError extends Error {
  override readonly name = 'MediaError';
  constructor(
    readonly reason: MediaFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
