// The facts of ads (`ad-<id>`).
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { AdWireFields } from './commands.ts';

export type AdFields = CamelKeys<AdWireFields>;

export type AdCreated = { type: 'AdCreated'; data: { adId: number; projectId: number; fields: AdFields; created: string } };
export type AdUpdated = { type: 'AdUpdated'; data: { changes: Partial<AdFields>; updated: string } };
export type AdDeleted = { type: 'AdDeleted'; data: { deleted: string } };

export type AdEvent = AdCreated | AdUpdated | AdDeleted;

export const adStream = (adId: number) => `ad-${adId}`;
