// The command handlers of a project-owned resource: parse the wire body, allocate an id, decide, append.
import type { z } from 'zod';
import type { EventStore, NewEvent } from '../../infrastructure/eventStore/port.ts';
import { camelKeys } from '../caseMapping.ts';
import { allocateId, handleCommand, type Decider } from '../decider.ts';
import { parseOrThrow } from '../validation.ts';

/** How a resource's commands are written and where its events go. */
export interface ResourceWrites<Fields, State, Command, Event extends NewEvent> {
  /** Name of the id sequence (`ad` gives ads the ids 1, 2, 3, ...). */
  sequence: string;
  stream: (id: number) => string;
  decider: Decider<State, Command, Event>;
  /** Wire-format (snake_case) bodies of create and update. */
  schemas: { create: z.ZodType<Record<string, unknown>>; update: z.ZodType<Record<string, unknown>> };
  /** Builds the decider's commands. */
  commands: {
    create(id: number, projectId: number, fields: Fields, now: string): Command;
    update(projectId: number, changes: Partial<Fields>, now: string): Command;
    /** Absent for resources that are never deleted. */
    remove?(projectId: number, now: string): Command;
  };
  /** What the schemas cannot check or resolve alone (ids of other resources): runs on create and update bodies. */
  prepare?(projectId: number, fields: Partial<Fields>): Promise<Partial<Fields>>;
  /** Runs once the new id is known, before anything of the resource is appended (claims of unique values). */
  beforeCreate?(projectId: number, id: number, fields: Fields): Promise<void>;
  /** Runs before an update is appended; what it returns runs after it (releasing a value the update gave up). */
  beforeUpdate?(projectId: number, id: number, changes: Partial<Fields>): Promise<(() => Promise<unknown>) | void>;
}

export interface ResourceHandlers {
  create(projectId: number, body: unknown, now: Date): Promise<{ id: number; position: number }>;
  /** The global position of the last appended event (0 when nothing changed). */
  update(projectId: number, id: number, body: unknown, now: Date): Promise<number>;
  remove?(projectId: number, id: number, now: Date): Promise<number>;
}

export function projectResourceHandlers<Fields, State, Command, Event extends NewEvent>(
  store: EventStore,
  writes: ResourceWrites<Fields, State, Command, Event>,
): ResourceHandlers {
  const { decider, stream, commands } = writes;
  const prepared = async <T extends Partial<Fields>>(projectId: number, fields: T): Promise<T> =>
    writes.prepare ? ({ ...fields, ...(await writes.prepare(projectId, fields)) } as T) : fields;
  const remove = commands.remove?.bind(commands);

  return {
    async create(projectId, body, now) {
      const fields = await prepared(projectId, camelKeys<Fields & object>(parseOrThrow(writes.schemas.create, body)));
      const id = await allocateId(store, writes.sequence);
      await writes.beforeCreate?.(projectId, id, fields);
      const { position } = await handleCommand(store, stream(id), decider, commands.create(id, projectId, fields, now.toISOString()));
      return { id, position };
    },

    async update(projectId, id, body, now) {
      const changes = await prepared(projectId, camelKeys<Partial<Fields> & object>(parseOrThrow(writes.schemas.update, body)));
      const after = await writes.beforeUpdate?.(projectId, id, changes);
      const { position } = await handleCommand(store, stream(id), decider, commands.update(projectId, changes, now.toISOString()));
      await after?.();
      return position;
    },

    ...(remove && {
      async remove(projectId: number, id: number, now: Date) {
        return (await handleCommand(store, stream(id), decider, remove(projectId, now.toISOString()))).position;
      },
    }),
  };
}
