// What players post to `analytics_url`, as validated on the way in, and as stored in the event store.
import { z } from 'zod';

export const EVENT_TYPES = ['load', 'play', 'play_progress', 'ad_link_click'] as const;
export const DEVICE_TYPES = ['phone', 'tablet', 'desktop', 'ios', 'android'] as const;
export const MEDIA_VARIANTS = ['article', 'summary'] as const;
export const MEDIA_FORMATS = ['audio', 'video'] as const;

/** The device keys of every figure; the player's `phone` is `mobile_web`. */
export const DEVICE_KEYS = ['desktop', 'tablet', 'mobile_web', 'ios', 'android'] as const;
export type DeviceKey = (typeof DEVICE_KEYS)[number];
export const deviceKeyOf = (device: (typeof DEVICE_TYPES)[number]): DeviceKey => (device === 'phone' ? 'mobile_web' : device);

const uuid = z.uuid();
/** The real player sends `undefined` fields as `null` (its JSON replacer): absent and null mean the same. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional().transform((value) => value ?? null);
const count = z.number().int().min(1).max(2 ** 53 - 1);
const seconds = z.number().finite().min(0).max(7 * 24 * 3600);

/** One event as the player posts it (client facts, "Listening analytics"); unknown fields are ignored. */
export const playerEventSchema = z
  .object({
    event_type: z.enum(EVENT_TYPES),
    device_type: z.enum(DEVICE_TYPES),
    media_type: z.enum(['content', 'ad']),
    media_variant: optional(z.enum(MEDIA_VARIANTS)),
    media_format: optional(z.enum(MEDIA_FORMATS)),
    access_tier: optional(z.string().max(100)),
    project_id: count,
    content_id: optional(uuid),
    source_id: optional(z.string().max(500)),
    analytics_id: optional(count),
    ad_id: optional(count),
    media_id: optional(count),
    local_storage_id: optional(uuid),
    listen_session_id: uuid,
    session_created_at: optional(z.number().int().min(0).max(8.64e15)),
    duration: optional(seconds),
    listen_length_seconds: optional(seconds),
    listen_length_percent: optional(z.number().finite().min(0).max(100)),
    speed: optional(z.number().finite().min(0).max(16)),
  })
  .superRefine((event, ctx) => {
    if (event.media_type === 'content' && event.content_id === null) ctx.addIssue({ code: 'custom', path: ['content_id'], message: 'content events need a content_id' });
    if (event.media_type === 'ad' && event.ad_id === null) ctx.addIssue({ code: 'custom', path: ['ad_id'], message: 'ad events need an ad_id' });
  });
export type PlayerEventInput = z.input<typeof playerEventSchema>;
export type PlayerEvent = z.output<typeof playerEventSchema>;

/**
 * A player event as stored: what the analytics need of it, camel-cased, with the moment it was received (or, for an
 * import, the moment the exporting system recorded) as `at` (ISO 8601, UTC, milliseconds).
 */
export interface StoredPlayerEvent {
  at: string;
  type: (typeof EVENT_TYPES)[number];
  device: (typeof DEVICE_TYPES)[number];
  mediaType: 'content' | 'ad';
  /** `article` when the player sent none. */
  variant: (typeof MEDIA_VARIANTS)[number];
  /** `audio` when the player sent none. */
  format: (typeof MEDIA_FORMATS)[number];
  accessTier: string | null;
  projectId: number;
  contentId: string | null;
  sourceId: string | null;
  adId: number | null;
  localStorageId: string | null;
  sessionId: string;
  seconds: number | null;
  percent: number | null;
  duration: number | null;
}

export const toStoredEvent = (event: PlayerEvent, at: Date): StoredPlayerEvent => ({
  at: at.toISOString(),
  type: event.event_type,
  device: event.device_type,
  mediaType: event.media_type,
  variant: event.media_variant ?? 'article',
  format: event.media_format ?? 'audio',
  accessTier: event.access_tier,
  projectId: event.project_id,
  contentId: event.content_id,
  sourceId: event.source_id,
  adId: event.ad_id,
  localStorageId: event.local_storage_id,
  sessionId: event.listen_session_id,
  seconds: event.listen_length_seconds,
  percent: event.listen_length_percent,
  duration: event.duration,
});

/** One append of player events: a log event carries a batch (up to `MAX_EVENTS_PER_RECORD`), never one event each. */
export type PlayerEventsRecorded = { type: 'PlayerEventsRecorded'; data: { events: StoredPlayerEvent[] } };
export const MAX_EVENTS_PER_RECORD = 1_000;

/** Where players post their events (player data and player settings give it as `analytics_url`). */
export const EVENTS_PATH = '/v1/analytics/events';

/** Every stream of player events begins with this: the analytics projection reads these and no other projection does. */
export const PLAYER_EVENTS_PREFIX = 'player-events-';
/** Live events: one stream per UTC day of receipt, appended to with expected revision `any`. */
export const liveEventsStream = (at: Date) => `${PLAYER_EVENTS_PREFIX}${at.toISOString().slice(0, 10)}`;
/** An import: chunk `chunk` of the file whose content hashes to `fileHash`, appended with `no_stream` (a second import of the same file adds nothing). */
export const importedEventsStream = (fileHash: string, chunk: number) => `${PLAYER_EVENTS_PREFIX}import-${fileHash}-${chunk}`;
