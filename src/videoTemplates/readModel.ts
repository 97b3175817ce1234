// The video settings template read model: its document type and the queries of the template routes.
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { organizationResource, organizationResourceIndexes, type OrganizationResourceDocument } from '../shared/organizationResources.ts';
import type { VideoTemplateFields } from './events.ts';

export const VIDEO_TEMPLATES = 'video_templates';

export type VideoTemplateView = OrganizationResourceDocument<VideoTemplateFields>;

export const videoTemplateIndexes = organizationResourceIndexes;

const templates = organizationResource<VideoTemplateView>(VIDEO_TEMPLATES);

export const findVideoTemplate = templates.find;

export const listVideoTemplates = (read: ReadStore, organizationId: number, offset: number, limit: number) =>
  templates.list(read, organizationId, { skip: offset, limit });
