// Business rules of organizations and their API keys: pure decide/evolve.
import { invalid, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { KeyScope, OrganizationEvent } from './events.ts';

export interface OrganizationState {
  exists: boolean;
  keys: Record<string, string>;
}

export type OrganizationCommand =
  | { kind: 'CreateOrganization'; organizationId: number; name: string; now: string }
  | { kind: 'IssueApiKey'; keyId: string; keyHash: string; scope: KeyScope; projectId: number | null; label: string; now: string }
  | { kind: 'RevokeApiKey'; keyId: string; now: string };

export const organizationDecider: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: { exists: false, keys: {} },

  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated':
        return { ...state, exists: true };
      case 'ApiKeyIssued':
        return { ...state, keys: { ...state.keys, [event.data.keyId]: event.data.keyHash } };
      case 'ApiKeyRevoked': {
        const { [event.data.keyId]: _revoked, ...keys } = state.keys;
        return { ...state, keys };
      }
    }
  },

  decide(command, state): OrganizationEvent[] | AppError {
    switch (command.kind) {
      case 'CreateOrganization':
        if (state.exists) return invalid([{ location: 'id', message: 'has already been taken' }]);
        return [{ type: 'OrganizationCreated', data: { organizationId: command.organizationId, name: command.name, created: command.now } }];
      case 'IssueApiKey': {
        if (!state.exists) return notFound();
        const { keyId, keyHash, scope, projectId, label, now } = command;
        return [{ type: 'ApiKeyIssued', data: { keyId, keyHash, scope, projectId, label, created: now } }];
      }
      case 'RevokeApiKey': {
        const keyHash = state.keys[command.keyId];
        if (!keyHash) return notFound();
        return [{ type: 'ApiKeyRevoked', data: { keyId: command.keyId, keyHash, revoked: command.now } }];
      }
    }
  },
};
