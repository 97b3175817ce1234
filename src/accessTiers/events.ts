// The facts of access tiers (`access_tier-<id>`) and of the claims that keep their names unique per project.
import { createHash } from 'node:crypto';
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { AccessTierWireFields } from './commands.ts';

export type AccessTierFields = CamelKeys<AccessTierWireFields>;

export type AccessTierCreated = { type: 'AccessTierCreated'; data: { accessTierId: number; projectId: number; fields: AccessTierFields; created: string } };
export type AccessTierUpdated = { type: 'AccessTierUpdated'; data: { changes: Partial<AccessTierFields>; updated: string } };

export type AccessTierEvent = AccessTierCreated | AccessTierUpdated;

export type AccessTierNameClaimed = { type: 'AccessTierNameClaimed'; data: { projectId: number; name: string; accessTierId: number } };
export type AccessTierNameReleased = { type: 'AccessTierNameReleased'; data: { accessTierId: number } };

export type NameClaimEvent = AccessTierNameClaimed | AccessTierNameReleased;

export const accessTierStream = (accessTierId: number) => `access_tier-${accessTierId}`;
export const nameClaimStream = (projectId: number, name: string) =>
  `access_tier_name-${projectId}-${createHash('sha256').update(name).digest('hex').slice(0, 40)}`;
