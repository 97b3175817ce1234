// Speaker commands through the resource kit, with the organization as the owner: voice ids are checked against the catalogue.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { projectResourceHandlers } from '../shared/crud/handlers.ts';
import { invalid } from '../shared/errors.ts';
import type { VoiceCatalogue } from '../voices/catalogue.ts';
import { speakerSchemas } from './commands.ts';
import { organizationResourceWrites } from '../shared/crud/organizationDecider.ts';
import { speakerLifecycle, speakerStream, type SpeakerEvent, type SpeakerFields } from './events.ts';

/** The body as the kit hands it over (camelCase), before its voices become catalogue ids. */
type BodyFields = Omit<SpeakerFields, 'voiceIds'> & { voices?: { id: number }[]; voiceIds: number[] };

/** Stored fields only: the wire's `voices` are kept as `voiceIds`. */
const stored = <T extends Partial<BodyFields>>({ voices: _voices, ...fields }: T) => fields;

export function createSpeakerHandlers(store: EventStore, catalogue: VoiceCatalogue) {
  return projectResourceHandlers(store, {
    sequence: 'speaker',
    stream: speakerStream,
    schemas: speakerSchemas,
    ...organizationResourceWrites<SpeakerFields, SpeakerEvent, BodyFields>(speakerLifecycle, { created: stored, changed: stored }),
    async prepare(_organizationId, fields) {
      if (!fields.voices) return {};
      const unknown = fields.voices.flatMap((voice, index) => (catalogue.byId(voice.id) ? [] : [{ location: `voices.${index}.id`, message: 'names no voice of the catalogue' }]));
      if (unknown.length > 0) throw invalid(unknown);
      return { voiceIds: [...new Set(fields.voices.map((voice) => voice.id))] };
    },
  });
}
