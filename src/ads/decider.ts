// Business rules of ads: pure decide/evolve; what an ad needs is checked on the fields it ends up with.
import { conflict, invalid, notFound, type AppError, type FieldError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { AdEvent, AdFields } from './events.ts';

export interface AdState {
  status: 'absent' | 'active' | 'deleted';
  projectId: number | null;
  fields: AdFields | null;
}

export type AdCommand =
  | { kind: 'CreateAd'; adId: number; projectId: number; fields: AdFields; now: string }
  | { kind: 'UpdateAd'; projectId: number; changes: Partial<AdFields>; now: string }
  | { kind: 'DeleteAd'; projectId: number; now: string };

/** A custom ad plays its own file, a VAST ad asks its ad server; a time range ends after it starts. */
export function adProblems(fields: AdFields): FieldError[] {
  const problems: FieldError[] = [];
  if (fields.type === 'vast' && !fields.vastUrl) problems.push({ location: 'vast_url', message: 'is required when type is vast' });
  if (fields.type === 'custom' && !fields.mediaUrl) problems.push({ location: 'media_url', message: 'is required when type is custom' });
  if (fields.startsAt && fields.endsAt && Date.parse(fields.endsAt) <= Date.parse(fields.startsAt)) {
    problems.push({ location: 'ends_at', message: 'must be after starts_at' });
  }
  return problems;
}

const checked = (fields: AdFields): AppError | null => {
  const problems = adProblems(fields);
  return problems.length > 0 ? invalid(problems) : null;
};

export const adDecider: Decider<AdState, AdCommand, AdEvent> = {
  initialState: { status: 'absent', projectId: null, fields: null },

  evolve(state, event) {
    switch (event.type) {
      case 'AdCreated':
        return { status: 'active', projectId: event.data.projectId, fields: event.data.fields };
      case 'AdUpdated':
        return { ...state, fields: { ...state.fields!, ...event.data.changes } };
      case 'AdDeleted':
        return { ...state, status: 'deleted' };
    }
  },

  decide(command, state): AdEvent[] | AppError {
    switch (command.kind) {
      case 'CreateAd': {
        if (state.status !== 'absent') return conflict();
        const { adId, projectId, fields, now } = command;
        return checked(fields) ?? [{ type: 'AdCreated', data: { adId, projectId, fields, created: now } }];
      }
      case 'UpdateAd':
        if (!isOfProject(state, command.projectId)) return notFound();
        return checked({ ...state.fields!, ...command.changes }) ?? [{ type: 'AdUpdated', data: { changes: command.changes, updated: command.now } }];
      case 'DeleteAd':
        if (!isOfProject(state, command.projectId)) return notFound();
        return [{ type: 'AdDeleted', data: { deleted: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

const isOfProject = (state: AdState, projectId: number) => state.status === 'active' && state.projectId === projectId;

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
