// Pronunciation rule commands: allocate an id, decide against the organization's stream, append.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { allocateId, handleCommand } from '../shared/decider.ts';
import { pronunciationDecider, type PronunciationCommand } from './decider.ts';
import { pronunciationStream, type RuleFields } from './events.ts';

export type PreviewOutcome = Extract<PronunciationCommand, { kind: 'RecordPreview' }>['outcome'];

export function createRuleHandlers(store: EventStore) {
  const run = (organizationId: number, command: PronunciationCommand) => handleCommand(store, pronunciationStream(organizationId), pronunciationDecider, command);
  return {
    async create(organizationId: number, fields: RuleFields, now: Date): Promise<{ id: number; position: number }> {
      const ruleId = await allocateId(store, 'pronunciationRule');
      const { position } = await run(organizationId, { kind: 'CreateRule', ruleId, organizationId, fields, now: now.toISOString() });
      return { id: ruleId, position };
    },
    /** The global position of the change (0 when nothing changed). */
    async update(organizationId: number, ruleId: number, changes: Partial<RuleFields>, now: Date): Promise<number> {
      return (await run(organizationId, { kind: 'UpdateRule', ruleId, changes, now: now.toISOString() })).position;
    },
    async remove(organizationId: number, ruleId: number, now: Date): Promise<number> {
      return (await run(organizationId, { kind: 'DeleteRule', ruleId, now: now.toISOString() })).position;
    },
    async recordPreview(organizationId: number, ruleId: number, version: number, outcome: PreviewOutcome, now: Date): Promise<number> {
      return (await run(organizationId, { kind: 'RecordPreview', ruleId, version, outcome, now: now.toISOString() })).position;
    },
  };
}

export type RuleHandlers = ReturnType<typeof createRuleHandlers>;
