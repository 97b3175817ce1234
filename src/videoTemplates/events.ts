// The facts of video settings templates (`video-template-<id>`), owned by an organization.
import type { Lifecycle } from '../shared/crud/organizationDecider.ts';
/** Stored fields; `settings` keep the wire's snake_case names, as they are answered unchanged. */
export type VideoTemplateFields = { name: string; slug: string; settings: Record<string, unknown> };

export type VideoTemplateCreated = {
  type: 'VideoTemplateCreated';
  data: { templateId: number; organizationId: number; fields: VideoTemplateFields; created: string };
};
export type VideoTemplateUpdated = { type: 'VideoTemplateUpdated'; data: { changes: Partial<VideoTemplateFields>; updated: string } };
export type VideoTemplateDeleted = { type: 'VideoTemplateDeleted'; data: { deleted: string } };

export type VideoTemplateEvent = VideoTemplateCreated | VideoTemplateUpdated | VideoTemplateDeleted;

/** What the kit's decider and projection need to know of the three events. */
export const videoTemplateLifecycle: Lifecycle<VideoTemplateEvent> = {
  types: { created: 'VideoTemplateCreated', updated: 'VideoTemplateUpdated', deleted: 'VideoTemplateDeleted' },
  idKey: 'templateId',
};

export const VIDEO_TEMPLATE_STREAM_PREFIX = 'video-template-';
export const videoTemplateStream = (templateId: number) => `${VIDEO_TEMPLATE_STREAM_PREFIX}${templateId}`;
