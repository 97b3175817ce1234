// The CMS integration read model: one document per project that configured its integration.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import type { CmsSettings } from './settings.ts';

export const CMS_INTEGRATIONS = 'cmsIntegrations';

export type CmsIntegrationView = CmsSettings & {
  /** The project id, as text. */
  _id: string;
  revision: number;
  projectId: number;
  created: string;
  updated: string;
};

export const cmsIntegrationIndexes: IndexSpec[] = [];

export const findCmsIntegration = (read: ReadStore, projectId: number): Promise<CmsIntegrationView | null> =>
  read.collection<CmsIntegrationView>(CMS_INTEGRATIONS).findOne({ _id: String(projectId) });
