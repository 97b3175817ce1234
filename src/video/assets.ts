// Downloads an image, a video or a font through the guarded fetcher (address rule, size and time limits) to a file,
// and admits it through the media intake (src/media/intake.ts): its format sniffed and allowed, its pixels counted.
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { FetchError, guardedFetch } from '../infrastructure/fetch/fetcher.ts';
import { MediaError } from '../media/errors.ts';
import { VideoRenderError } from './errors.ts';

export interface AssetLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Loopback and private addresses may be fetched (local use and tests). */
  allowPrivate: boolean;
  /** The most pixels an image or a video frame may have (IMAGE_MAX_PIXELS); 40 million when left out. */
  maxPixels?: number;
}

/** Writes beside the target and renames, so a cut-off download never passes for a whole file. */
export async function download(url: string, file: string, limits: AssetLimits, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw new VideoRenderError('aborted', 'the render was cancelled');
  const partial = `${file}.part`;
  try {
    const response = await guardedFetch(url, limits);
    if (response.status < 200 || response.status > 299) {
      response.body.destroy();
      throw new VideoRenderError('asset', `${url} answered HTTP ${response.status}`, url);
    }
    await pipeline(response.body, createWriteStream(partial), { signal });
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    if (error instanceof FetchError) throw new VideoRenderError('asset', `cannot fetch ${url}: ${error.message}`, url);
    if (signal?.aborted) throw new VideoRenderError('aborted', 'the render was cancelled');
    throw error;
  }
}

/**
 * The intake's refusals as render failures: a format not allowed or a picture too large is 'refused' (never retried),
 * a file ffmpeg cannot read an 'asset' failure, as before. The refused file is removed.
 */
export async function admitted<T>(url: string, file: string, admit: () => Promise<T>): Promise<T> {
  try {
    return await admit();
  } catch (error) {
    if (!(error instanceof MediaError)) throw error;
    await rm(file, { force: true });
    const permanent = error.reason === 'unsupported-format' || error.reason === 'over-limit';
    throw new VideoRenderError(permanent ? 'refused' : 'asset', error.message, url);
  }
}
