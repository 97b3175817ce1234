// The JSON bodies of notifications (documented in docs/webhooks.md): an item as of the event that triggered it.
import type { ContentEvent, MediaFileRecord } from '../content/events.ts';
import type { ContentStatus } from '../content/readModel.ts';
import { contentSourceOf } from '../generation/source.ts';
import type { RecordedEvent } from '../infrastructure/eventStore/port.ts';
import type { NotificationKind } from './events.ts';

export type ContentNotificationKind = Exclude<NotificationKind, 'webhook.test'>;

const kindsByEvent: Record<string, ContentNotificationKind> = {
  ContentProcessed: 'audio.updated',
  ContentProcessingFailed: 'audio.error',
  ContentDeleted: 'audio.deleted',
};

/** The notification a content event sends, if any. */
export const notificationKindOf = (eventType: string): ContentNotificationKind | null => kindsByEvent[eventType] ?? null;

interface Progress {
  status: ContentStatus;
  published: boolean;
  error: string | null;
  audio: MediaFileRecord[];
  video: MediaFileRecord[];
  deleted: boolean;
}

/** Follows what the content read model shows, event by event, up to the triggering one. */
function progressOf(events: ContentEvent[]): Progress {
  const progress: Progress = { status: 'queued', published: false, error: null, audio: [], video: [], deleted: false };
  for (const event of events) {
    switch (event.type) {
      case 'ContentCreated':
        progress.published = event.data.fields.published ?? false;
        break;
      case 'ContentUpdated':
        if ('published' in event.data.changes) progress.published = event.data.changes.published ?? false;
        break;
      case 'ContentRegenerationRequested':
        Object.assign(progress, { status: 'queued', error: null });
        break;
      case 'ContentProcessingStarted':
        progress.status = 'processing';
        break;
      case 'ContentProcessed':
        Object.assign(progress, { status: 'processed', error: null, audio: event.data.media.audio, video: event.data.media.video, published: event.data.published });
        break;
      case 'ContentProcessingFailed':
        Object.assign(progress, { status: 'error', error: event.data.reason });
        break;
      case 'ContentSkipped':
        Object.assign(progress, { status: 'skipped', error: event.data.reason });
        break;
      case 'ContentDeleted':
        progress.deleted = true;
        break;
    }
  }
  return progress;
}

/**
 * The body of an `audio.*` notification, from the item's stream read up to the triggering event.
 * Legacy field names (`external_id`, `state`, `media`, `action_type`) stand beside the current ones.
 */
export function contentNotification(kind: ContentNotificationKind, contentId: string, events: RecordedEvent[], baseUrl: string, timestamp: string): string {
  const { projectId, fields } = contentSourceOf(events);
  const progress = progressOf(events as unknown as ContentEvent[]);
  const files = (records: MediaFileRecord[]) =>
    progress.deleted
      ? []
      : records.map(({ id, content_type, url, duration, variant, video_size }) => ({ id, content_type, url: `${baseUrl}${url}`, duration, variant, ...(video_size ? { video_size } : {}) }));
  const audio = files(progress.audio);
  const video = files(progress.video);
  const data = {
    id: contentId,
    external_id: fields.sourceId ?? null,
    source_id: fields.sourceId ?? null,
    project_id: projectId,
    status: progress.status,
    state: progress.status,
    published: progress.published,
    title: fields.title ?? null,
    deleted: progress.deleted,
    action_type: kind,
    metadata: fields.metadata ?? null,
    image_url: fields.imageUrl ?? null,
    media: [...audio, ...video],
    audio,
    video,
    error: progress.error,
  };
  return JSON.stringify({ type: kind, timestamp, data });
}

export function testNotification(webhookId: number, projectId: number, timestamp: string): string {
  const data = { webhook_id: webhookId, project_id: projectId, message: 'This is a test notification.' };
  return JSON.stringify({ type: 'webhook.test', timestamp, data });
}
