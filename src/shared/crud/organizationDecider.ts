// The business rules every organization-owned resource with a stream of its own shares (speakers, video settings
// templates, background tracks): created once, then changed or deleted only by its organization.
import type { NewEvent } from '../../infrastructure/eventStore/port.ts';
import type { Decider } from '../decider.ts';
import { conflict, notFound, type AppError } from '../errors.ts';

/** A resource's three events: their stored type names and the name of the id in the created event (`speakerId`). */
export interface Lifecycle<Event extends NewEvent> {
  types: { created: Event['type']; updated: Event['type']; deleted: Event['type'] };
  idKey: string;
}

export interface OrganizationResourceState {
  status: 'absent' | 'active' | 'deleted';
  organizationId: number | null;
}

export type OrganizationResourceCommand<Fields> =
  | { kind: 'create'; id: number; organizationId: number; fields: Fields; now: string }
  | { kind: 'update'; organizationId: number; changes: Partial<Fields>; now: string }
  | { kind: 'remove'; organizationId: number; now: string };

/**
 * What a resource hands the kit's handlers (`ResourceWrites`) besides its sequence, stream and schemas: the decider,
 * and commands with the organization as owner. `stored` turns a body's fields into the stored ones (defaults left out).
 */
export function organizationResourceWrites<Fields, Event extends NewEvent, Body = Fields>(
  lifecycle: Lifecycle<Event>,
  stored: { created?(fields: Body): Fields; changed?(changes: Partial<Body>): Partial<Fields> } = {},
) {
  const created = stored.created ?? ((fields: Body) => fields as unknown as Fields);
  const changed = stored.changed ?? ((changes: Partial<Body>) => changes as unknown as Partial<Fields>);
  return {
    decider: organizationResourceDecider<Fields, Event>(lifecycle),
    commands: {
      create: (id: number, organizationId: number, fields: Body, now: string) => ({ kind: 'create', id, organizationId, fields: created(fields), now }) as const,
      update: (organizationId: number, changes: Partial<Body>, now: string) => ({ kind: 'update', organizationId, changes: changed(changes), now }) as const,
      remove: (organizationId: number, now: string) => ({ kind: 'remove', organizationId, now }) as const,
    },
  };
}

const isOfOrganization = (state: OrganizationResourceState, organizationId: number) => state.status === 'active' && state.organizationId === organizationId;

function organizationResourceDecider<Fields, Event extends NewEvent>({
  types,
  idKey,
}: Lifecycle<Event>): Decider<OrganizationResourceState, OrganizationResourceCommand<Fields>, Event> {
  // The events' data, key order included, are as they have always been stored.
  const event = (type: Event['type'], data: Record<string, unknown>) => [{ type, data } as Event];
  return {
    initialState: { status: 'absent', organizationId: null },

    evolve(state, { type, data }) {
      switch (type) {
        case types.created:
          return { status: 'active', organizationId: (data as { organizationId: number }).organizationId };
        case types.deleted:
          return { ...state, status: 'deleted' };
        default:
          return state;
      }
    },

    decide(command, state): Event[] | AppError {
      switch (command.kind) {
        case 'create': {
          if (state.status !== 'absent') return conflict();
          const { id, organizationId, fields, now } = command;
          return event(types.created, { [idKey]: id, organizationId, fields, created: now });
        }
        case 'update':
          if (!isOfOrganization(state, command.organizationId)) return notFound();
          return event(types.updated, { changes: command.changes, updated: command.now });
        case 'remove':
          if (!isOfOrganization(state, command.organizationId)) return notFound();
          return event(types.deleted, { deleted: command.now });
      }
    },
  };
}
