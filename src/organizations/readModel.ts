// Read models of organizations and API keys (keys are found by the hash of their value).
import { createHash } from 'node:crypto';
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import type { KeyScope } from './events.ts';

export const ORGANIZATIONS = 'organizations';
export const API_KEYS = 'apiKeys';

export type OrganizationView = { _id: string; id: number; name: string; created: string };
export type ApiKeyView = {
  _id: string;
  keyId: string;
  organizationId: number;
  scope: KeyScope;
  projectId: number | null;
  label: string;
  created: string;
};

export const apiKeyIndexes: IndexSpec[] = [{ name: 'key_id', keys: { keyId: 1 } }];

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

export const findApiKey = (read: ReadStore, key: string) => read.collection<ApiKeyView>(API_KEYS).findOne({ _id: hashApiKey(key) });

export const listOrganizations = (read: ReadStore) => read.collection<OrganizationView>(ORGANIZATIONS).find({}, { sort: { id: 1 } });
