// The video settings template read model: its document type and the queries of the template routes.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import type { VideoTemplateFields } from './events.ts';

export const VIDEO_TEMPLATES = 'video_templates';

export type VideoTemplateView = VideoTemplateFields & { _id: string; revision: number; id: number; organizationId: number; created: string; updated: string };

export const videoTemplateIndexes: IndexSpec[] = [{ name: 'organization_id', keys: { organizationId: 1, id: 1 } }];

/** By id, and only within its organization: another organization's template is as good as missing. */
export async function findVideoTemplate(read: ReadStore, organizationId: number, id: number): Promise<VideoTemplateView | null> {
  const found = await read.collection<VideoTemplateView>(VIDEO_TEMPLATES).findOne({ _id: String(id) });
  return found?.organizationId === organizationId ? found : null;
}

export const listVideoTemplates = (read: ReadStore, organizationId: number, offset: number, limit: number) =>
  read.collection<VideoTemplateView>(VIDEO_TEMPLATES).find({ organizationId }, { sort: { id: 1 }, skip: offset, limit });
