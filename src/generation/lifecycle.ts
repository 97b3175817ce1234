// The generation lifecycle, queued → processing → processed | skipped | error, run by Temporal or in-process.
// Deterministic and free of I/O: every effect is an activity, so Temporal can replay it.
import type { GeneratedMedia, MediaFileRecord } from '../content/events.ts';

/**
 * How soon a generation is wanted: `interactive` (an item just created: someone may be waiting to listen) goes
 * before `bulk` (regenerations, imports), which runs on fewer slots (docs/generation.md#queues-and-priorities).
 */
export type GenerationLane = 'interactive' | 'bulk';

export interface GenerationInput {
  contentId: string;
  generation: number;
  /** Absent in workflows started before lanes existed: interactive. */
  lane?: GenerationLane;
}

export type MediaOutcome = { kind: 'media'; media: GeneratedMedia; published: boolean } | { kind: 'nothing'; reason: string };

export interface GenerationActivities {
  /** Appends ContentProcessingStarted; false when this generation is superseded or already finished. */
  startProcessing(input: GenerationInput): Promise<boolean>;
  /** Prepares text, synthesizes, fetches and assembles; idempotent (same files for the same generation). */
  generateMedia(input: GenerationInput): Promise<MediaOutcome>;
  /** Renders the videos the item's effective video settings ask for from the narration `media` holds; [] when none. */
  renderVideos(input: GenerationInput, media: GeneratedMedia): Promise<MediaFileRecord[]>;
  recordProcessed(input: GenerationInput, media: GeneratedMedia, published: boolean): Promise<void>;
  recordSkipped(input: GenerationInput, reason: string): Promise<void>;
  recordFailed(input: GenerationInput, reason: string): Promise<void>;
}

/** Exponential backoff with bounded attempts; Temporal and the in-process runner both apply it. */
export const generationRetry = {
  initialIntervalMs: 1_000,
  backoffCoefficient: 2,
  maximumIntervalMs: 20_000,
  maximumAttempts: 4,
} as const;

export async function generationLifecycle(activities: GenerationActivities, input: GenerationInput): Promise<string> {
  if (!(await activities.startProcessing(input))) return 'superseded';
  let outcome: MediaOutcome;
  try {
    outcome = await activities.generateMedia(input);
  } catch (error) {
    await activities.recordFailed(input, failureReason(error));
    return 'error';
  }
  if (outcome.kind === 'nothing') {
    await activities.recordSkipped(input, outcome.reason);
    return 'skipped';
  }
  // Its own step, retried on its own: a failed render does not make the narration again. The item is processed
  // only once every video it asks for exists.
  let video: MediaFileRecord[];
  try {
    video = await activities.renderVideos(input, outcome.media);
  } catch (error) {
    await activities.recordFailed(input, failureReason(error));
    return 'error';
  }
  await activities.recordProcessed(input, { ...outcome.media, video }, outcome.published);
  return 'processed';
}

/** The innermost message: Temporal wraps an activity's last failure in an ActivityFailure. */
export function failureReason(error: unknown): string {
  let current = error as { message?: string; cause?: unknown } | undefined;
  while (current?.cause) current = current.cause as typeof current;
  return current?.message || 'generation failed';
}
