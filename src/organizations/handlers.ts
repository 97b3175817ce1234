// Organization commands: create organizations (with their built-in video templates), issue and revoke API keys (stored hashed, shown once).
import { randomBytes, randomUUID } from 'node:crypto';
import { allocateId, handleCommand } from '../shared/decider.ts';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { builtInVideoTemplates } from '../videoTemplates/builtIn.ts';
import { createVideoTemplateHandlers } from '../videoTemplates/handlers.ts';
import { organizationDecider } from './decider.ts';
import { organizationStream, type KeyScope } from './events.ts';
import { hashApiKey } from './readModel.ts';

export interface IssuedKey {
  keyId: string;
  key: string;
  position: number;
}

export interface OrganizationHandlers {
  /** Creates the organization and its built-in video templates; the position is the last of their events. */
  create(name: string, now: Date): Promise<{ organizationId: number; position: number }>;
  /** Issues a key; `value` fixes the key (bootstrap), otherwise a random one is made. */
  issueKey(organizationId: number, scope: KeyScope, projectId: number | null, label: string, now: Date, value?: string): Promise<IssuedKey>;
  revokeKey(organizationId: number, keyId: string, now: Date): Promise<number>;
}

export const newApiKey = () => `sk_${randomBytes(24).toString('base64url')}`;

export function createOrganizationHandlers(store: EventStore): OrganizationHandlers {
  const templates = createVideoTemplateHandlers(store);
  return {
    async create(name, now) {
      const organizationId = await allocateId(store, 'organization');
      const command = { kind: 'CreateOrganization', organizationId, name, now: now.toISOString() } as const;
      let { position } = await handleCommand(store, organizationStream(organizationId), organizationDecider, command);
      for (const template of builtInVideoTemplates) {
        position = Math.max(position, (await templates.create(organizationId, template, now)).position);
      }
      return { organizationId, position };
    },
    async issueKey(organizationId, scope, projectId, label, now, value = newApiKey()) {
      const keyId = randomUUID();
      const command = { kind: 'IssueApiKey', keyId, keyHash: hashApiKey(value), scope, projectId, label, now: now.toISOString() } as const;
      const { position } = await handleCommand(store, organizationStream(organizationId), organizationDecider, command);
      return { keyId, key: value, position };
    },
    async revokeKey(organizationId, keyId, now) {
      const command = { kind: 'RevokeApiKey', keyId, now: now.toISOString() } as const;
      return (await handleCommand(store, organizationStream(organizationId), organizationDecider, command)).position;
    },
  };
}
