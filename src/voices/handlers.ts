// Custom voice commands: allocate an id, decide against the organization's voices stream, append.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { allocateId, handleCommand } from '../shared/decider.ts';
import { customVoiceDecider, type CustomVoiceCommand } from './decider.ts';
import { CUSTOM_VOICE_ID_BASE, voicesStream, type CustomVoiceFields } from './events.ts';

export function createCustomVoiceHandlers(store: EventStore) {
  const run = (organizationId: number, command: CustomVoiceCommand) => handleCommand(store, voicesStream(organizationId), customVoiceDecider, command);
  return {
    async create(organizationId: number, fields: CustomVoiceFields, now: Date): Promise<{ id: number; position: number }> {
      const voiceId = CUSTOM_VOICE_ID_BASE + (await allocateId(store, 'customVoice'));
      const { position } = await run(organizationId, { kind: 'CreateVoice', voiceId, organizationId, fields, now: now.toISOString() });
      return { id: voiceId, position };
    },
    /** The global position of the change (0 when nothing changed). */
    async update(organizationId: number, voiceId: number, changes: Partial<CustomVoiceFields>, now: Date): Promise<number> {
      return (await run(organizationId, { kind: 'UpdateVoice', voiceId, changes, now: now.toISOString() })).position;
    },
    async remove(organizationId: number, voiceId: number, now: Date): Promise<number> {
      return (await run(organizationId, { kind: 'DeleteVoice', voiceId, now: now.toISOString() })).position;
    },
  };
}
