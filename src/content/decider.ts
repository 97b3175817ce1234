// Business rules of content items and of source-id claims: pure decide/evolve.
import { invalid, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { ContentType } from './commands.ts';
import type { ContentEvent, ContentFields, ExtractedFields, GeneratedMedia, MediaFileRecord, SourceIdEvent } from './events.ts';

export type GenerationStatus = 'queued' | 'processing' | 'processed' | 'error' | 'skipped';

export interface ContentState {
  status: 'absent' | 'active' | 'deleted';
  projectId: number | null;
  contentType: ContentType | null;
  sourceId: string | null;
  autoSegmentUpdates: boolean;
  generation: number;
  generationStatus: GenerationStatus;
  /** The playlist players can listen to while the current generation is being made, once it has a segment. */
  liveAudio: MediaFileRecord | null;
}

/** Fields whose change alters what is spoken. */
const spokenFields = ['title', 'summary', 'body', 'segments', 'audioUrl', 'titleEnabled', 'bodyEnabled', 'summaryEnabled', 'summaryTitleEnabled', 'titleVoiceId', 'summaryVoiceId', 'bodyVoiceId', 'language'] as const;

export type ContentCommand =
  | { kind: 'CreateContent'; contentId: string; projectId: number; contentType: ContentType; fields: ContentFields; previewToken: string; now: string }
  | { kind: 'UpdateContent'; projectId: number; changes: Partial<ContentFields>; now: string }
  | { kind: 'DeleteContent'; projectId: number; now: string }
  | { kind: 'RegenerateContent'; projectId: number; now: string }
  | { kind: 'SummarizeContent'; projectId: number; changes: Partial<ContentFields>; model: string; sourceDigest: string; regenerate: boolean; now: string }
  | { kind: 'StartProcessing'; generation: number; now: string }
  | { kind: 'StartStream'; generation: number; media: MediaFileRecord; now: string }
  | { kind: 'RecordExtraction'; generation: number; url: string; fields: ExtractedFields; now: string }
  | { kind: 'CompleteProcessing'; generation: number; media: GeneratedMedia; published: boolean; videoPublished: boolean; now: string }
  | { kind: 'FailProcessing'; generation: number; reason: string; now: string }
  | { kind: 'SkipProcessing'; generation: number; reason: string; now: string };

export const contentDecider: Decider<ContentState, ContentCommand, ContentEvent> = {
  initialState: { status: 'absent', projectId: null, contentType: null, sourceId: null, autoSegmentUpdates: false, generation: 0, generationStatus: 'queued', liveAudio: null },

  evolve(state, event) {
    switch (event.type) {
      case 'ContentCreated':
        return {
          ...state,
          status: 'active',
          projectId: event.data.projectId,
          contentType: event.data.contentType,
          sourceId: event.data.fields.sourceId ?? null,
          autoSegmentUpdates: event.data.fields.autoSegmentUpdatesEnabled ?? false,
          generation: 1,
          generationStatus: 'queued',
        };
      case 'ContentUpdated': {
        const { changes } = event.data;
        return {
          ...state,
          sourceId: 'sourceId' in changes ? (changes.sourceId ?? null) : state.sourceId,
          autoSegmentUpdates: 'autoSegmentUpdatesEnabled' in changes ? (changes.autoSegmentUpdatesEnabled ?? false) : state.autoSegmentUpdates,
        };
      }
      case 'ContentDeleted':
        return { ...state, status: 'deleted' };
      case 'ContentSummarized':
        return state;
      case 'ContentRegenerationRequested':
        return { ...state, generation: event.data.generation, generationStatus: 'queued', liveAudio: null };
      case 'ContentProcessingStarted':
        return { ...state, generationStatus: 'processing' };
      case 'ContentStreamStarted':
        return { ...state, liveAudio: event.data.media };
      case 'ContentProcessed':
        return { ...state, generationStatus: 'processed' };
      case 'ContentProcessingFailed':
        return { ...state, generationStatus: 'error' };
      case 'ContentSkipped':
        return { ...state, generationStatus: 'skipped' };
      case 'ContentExtracted':
        return state;
    }
  },

  decide(command, state): ContentEvent[] | AppError {
    switch (command.kind) {
      case 'CreateContent': {
        if (state.status !== 'absent') return invalid([{ location: 'id', message: 'has already been taken' }]);
        const { contentId, projectId, contentType, previewToken, now } = command;
        const fields = { ...command.fields, autoSegmentUpdatesEnabled: autoSegmentUpdatesOf(contentType, command.fields.autoSegmentUpdatesEnabled) };
        return [{ type: 'ContentCreated', data: { contentId, projectId, contentType, fields, previewToken, created: now } }];
      }
      case 'UpdateContent': {
        if (state.status !== 'active' || state.projectId !== command.projectId) return notFound();
        const updated: ContentEvent = { type: 'ContentUpdated', data: { changes: command.changes, updated: command.now } };
        const autoUpdates = command.changes.autoSegmentUpdatesEnabled ?? state.autoSegmentUpdates;
        const respoken = spokenFields.some((field) => field in command.changes);
        return autoUpdates && respoken ? [updated, regeneration(state, command.now)] : [updated];
      }
      case 'SummarizeContent': {
        // A summary asked for is narrated at once; one made inside a generation is narrated by that generation.
        if (state.status !== 'active' || state.projectId !== command.projectId) return notFound();
        const { changes, model, sourceDigest, now } = command;
        const summarized: ContentEvent = { type: 'ContentSummarized', data: { changes, model, sourceDigest, summarized: now } };
        return command.regenerate ? [summarized, regeneration(state, now)] : [summarized];
      }
      case 'RegenerateContent':
        if (state.status !== 'active' || state.projectId !== command.projectId) return notFound();
        return [regeneration(state, command.now)];
      case 'StartProcessing':
        if (!isCurrent(state, command.generation) || state.generationStatus !== 'queued') return [];
        return [{ type: 'ContentProcessingStarted', data: { generation: command.generation, started: command.now } }];
      case 'StartStream': {
        // Once per generation: a retried attempt finds it started and keeps the media id it announced.
        if (!isCurrent(state, command.generation) || state.generationStatus !== 'processing' || state.liveAudio) return [];
        const { generation, media, now } = command;
        return [{ type: 'ContentStreamStarted', data: { generation, media, started: now } }];
      }
      case 'RecordExtraction': {
        if (!isCurrent(state, command.generation) || state.generationStatus !== 'processing') return [];
        const { generation, url, fields, now } = command;
        return [{ type: 'ContentExtracted', data: { generation, url, fields, extracted: now } }];
      }
      case 'CompleteProcessing': {
        if (!isCurrent(state, command.generation) || state.generationStatus !== 'processing') return [];
        const { generation, media, published, videoPublished, now } = command;
        return [{ type: 'ContentProcessed', data: { generation, media, published, videoPublished, processed: now } }];
      }
      case 'FailProcessing':
        if (!isCurrent(state, command.generation) || isFinished(state)) return [];
        return [{ type: 'ContentProcessingFailed', data: { generation: command.generation, reason: command.reason, failed: command.now } }];
      case 'SkipProcessing':
        if (!isCurrent(state, command.generation) || isFinished(state)) return [];
        return [{ type: 'ContentSkipped', data: { generation: command.generation, reason: command.reason, skipped: command.now } }];
      case 'DeleteContent':
        if (state.status !== 'active' || state.projectId !== command.projectId) return notFound();
        return [{ type: 'ContentDeleted', data: { deleted: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

export interface SourceIdState {
  ownerId: string | null;
  claimed: string | null;
}

export type SourceIdCommand =
  | { kind: 'ClaimSourceId'; projectId: number; sourceId: string; contentId: string; now: string; ownerAlive: boolean }
  | { kind: 'ReleaseSourceId'; contentId: string };

/** A claim whose item was never written (its creator died) is taken over after this long. */
export const CLAIM_GRACE_MS = 60_000;

export const sourceIdDecider: Decider<SourceIdState, SourceIdCommand, SourceIdEvent> = {
  initialState: { ownerId: null, claimed: null },

  evolve(state, event) {
    switch (event.type) {
      case 'SourceIdClaimed':
        return { ownerId: event.data.contentId, claimed: event.data.claimed };
      case 'SourceIdReleased':
        return state.ownerId === event.data.contentId ? { ownerId: null, claimed: null } : state;
    }
  },

  decide(command, state): SourceIdEvent[] | AppError {
    switch (command.kind) {
      case 'ClaimSourceId': {
        if (state.ownerId === command.contentId) return [];
        if (state.ownerId !== null && command.ownerAlive) {
          return invalid([{ location: 'source_id', message: 'has already been taken' }]);
        }
        const { projectId, sourceId, contentId, now } = command;
        return [{ type: 'SourceIdClaimed', data: { projectId, sourceId, contentId, claimed: now } }];
      }
      case 'ReleaseSourceId':
        return state.ownerId === command.contentId ? [{ type: 'SourceIdReleased', data: { contentId: command.contentId } }] : [];
      default:
        return assertNever(command);
    }
  },
};

/**
 * Whether a new item's media are made again when its text is updated: as asked, else yes for an `auto_segment`
 * item (publishing plugins never send the field and expect an edited post to be narrated again, as the original's
 * answers show) and no for the others, whose segments or audio the client manages itself. Decided here and stored
 * in the event, so items created before this default keep what they were created with.
 */
export const autoSegmentUpdatesOf = (contentType: ContentType, asked: boolean | null | undefined) => asked ?? contentType === 'auto_segment';

/** Steps of an older generation, or of a deleted item, decide nothing: a newer request superseded them. */
const isCurrent = (state: ContentState, generation: number) => state.status === 'active' && state.generation === generation;
const isFinished = (state: ContentState) => ['processed', 'error', 'skipped'].includes(state.generationStatus);
const regeneration = (state: ContentState, now: string): ContentEvent => ({
  type: 'ContentRegenerationRequested',
  data: { generation: state.generation + 1, requested: now },
});

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}

