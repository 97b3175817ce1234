// Business rules of access tiers and of their name claims: pure decide/evolve.
import { conflict, invalid, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { AccessTierEvent, AccessTierFields, NameClaimEvent } from './events.ts';

export interface AccessTierState {
  status: 'absent' | 'active';
  projectId: number | null;
  name: string;
}

export type AccessTierCommand =
  | { kind: 'CreateAccessTier'; accessTierId: number; projectId: number; fields: AccessTierFields; now: string }
  | { kind: 'UpdateAccessTier'; projectId: number; changes: Partial<AccessTierFields>; now: string };

export const accessTierDecider: Decider<AccessTierState, AccessTierCommand, AccessTierEvent> = {
  initialState: { status: 'absent', projectId: null, name: '' },

  evolve(state, event) {
    switch (event.type) {
      case 'AccessTierCreated':
        return { status: 'active', projectId: event.data.projectId, name: event.data.fields.name };
      case 'AccessTierUpdated':
        return { ...state, name: event.data.changes.name ?? state.name };
    }
  },

  decide(command, state): AccessTierEvent[] | AppError {
    switch (command.kind) {
      case 'CreateAccessTier': {
        if (state.status !== 'absent') return conflict();
        const { accessTierId, projectId, fields, now } = command;
        return [{ type: 'AccessTierCreated', data: { accessTierId, projectId, fields, created: now } }];
      }
      case 'UpdateAccessTier':
        if (state.status !== 'active' || state.projectId !== command.projectId) return notFound();
        return [{ type: 'AccessTierUpdated', data: { changes: command.changes, updated: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

/** Who holds a name in a project; tiers are never deleted, so a holder lets go only by renaming. */
export interface NameClaimState {
  ownerId: number | null;
}

export type NameClaimCommand =
  | { kind: 'ClaimName'; projectId: number; name: string; accessTierId: number }
  | { kind: 'ReleaseName'; accessTierId: number };

export const nameTaken = () => invalid([{ location: 'name', message: 'has already been taken' }]);

export const nameClaimDecider: Decider<NameClaimState, NameClaimCommand, NameClaimEvent> = {
  initialState: { ownerId: null },

  evolve(_state, event) {
    return { ownerId: event.type === 'AccessTierNameClaimed' ? event.data.accessTierId : null };
  },

  decide(command, state): NameClaimEvent[] | AppError {
    switch (command.kind) {
      case 'ClaimName': {
        if (state.ownerId === command.accessTierId) return [];
        if (state.ownerId !== null) return nameTaken();
        const { projectId, name, accessTierId } = command;
        return [{ type: 'AccessTierNameClaimed', data: { projectId, name, accessTierId } }];
      }
      case 'ReleaseName':
        if (state.ownerId !== command.accessTierId) return [];
        return [{ type: 'AccessTierNameReleased', data: { accessTierId: command.accessTierId } }];
      default:
        return assertNever(command);
    }
  },
};

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
