// Downloads an image or a font through the guarded fetcher (address rule, size and time limits) to a file.
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { FetchError, guardedFetch } from '../infrastructure/fetch/fetcher.ts';
import { VideoRenderError } from './errors.ts';

export interface AssetLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Loopback and private addresses may be fetched (local use and tests). */
  allowPrivate: boolean;
}

/** Writes beside the target and renames, so a cut-off download never passes for a whole file. */
export async function download(url: string, file: string, limits: AssetLimits, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw new VideoRenderError('aborted', 'the render was cancelled');
  const partial = `${file}.part`;
  try {
    const response = await guardedFetch(url, limits);
    if (response.status < 200 || response.status > 299) {
      response.body.destroy();
      throw new VideoRenderError('asset', `${url} answered HTTP ${response.status}`);
    }
    await pipeline(response.body, createWriteStream(partial), { signal });
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    if (error instanceof FetchError) throw new VideoRenderError('asset', `cannot fetch ${url}: ${error.message}`);
    if (signal?.aborted) throw new VideoRenderError('aborted', 'the render was cancelled');
    throw error;
  }
}
