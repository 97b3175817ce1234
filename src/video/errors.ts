// Why a video render failed: the workflow retries 'ffmpeg', 'timeout' and 'memory', not 'aborted'; 'asset' names an
// image or font that could not be fetched; 'memory' an ffmpeg that passed its memory bound.
export type VideoRenderFailure = 'ffmpeg' | 'timeout' | 'aborted' | 'asset' | 'memory';

export class VideoRenderError extends Error {
  constructor(
    readonly reason: VideoRenderFailure,
    message: string,
  ) {
    super(message);
    this.name = 'VideoRenderError';
  }
}
