// Why a video render failed: the workflow retries 'ffmpeg', 'timeout' and 'memory', not 'aborted' nor 'refused';
// 'asset' names an image, video or font that could not be fetched; 'refused' one the media intake does not allow
// (not an allowed format, or more pixels than allowed: the same every time); 'memory' an ffmpeg that passed its bound.
export type VideoRenderFailure = 'ffmpeg' | 'timeout' | 'aborted' | 'asset' | 'refused' | 'memory';

export class VideoRenderError extends Error {
  constructor(
    readonly reason: VideoRenderFailure,
    message: string,
    /** The URL of the image, video or font an 'asset' or 'refused' failure is about. */
    readonly source?: string,
  ) {
    super(message);
    this.name = 'VideoRenderError';
  }
}
