// Why a video render failed: the workflow retries 'ffmpeg' and 'timeout', not 'aborted'; 'asset' names an image or font that could not be fetched.
export type VideoRenderFailure = 'ffmpeg' | 'timeout' | 'aborted' | 'asset';

export class VideoRenderError extends Error {
  constructor(
    readonly reason: VideoRenderFailure,
    message: string,
  ) {
    super(message);
    this.name = 'VideoRenderError';
  }
}
