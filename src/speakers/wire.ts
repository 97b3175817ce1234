// The speaker's wire format: zod schemas (the source of the OpenAPI document) and the one mapping to them.
import { z } from 'zod';
import { timestamp, urlText } from '../shared/wireResponses.ts';
import type { VoiceCatalogue } from '../voices/catalogue.ts';
import type { SpeakerView } from './readModel.ts';

export const customVoiceWire = z
  .object({
    id: z.number().int().min(1),
    name: z.string(),
    script_ids: z.array(z.number().int()),
    cloning_status: z.string().describe('Where cloning the voice stands (`script-preparation`, ...)'),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'CustomVoice' });

export const partialCustomVoiceWire = customVoiceWire.pick({ id: true, name: true, cloning_status: true }).meta({ id: 'CustomVoiceSummary' });

export const speakerWire = z
  .object({
    id: z.number().int().min(1),
    first_name: z.string(),
    last_name: z.string(),
    avatar_url: urlText.nullable(),
    created: timestamp,
    updated: timestamp,
    custom_voices: z
      .array(z.union([customVoiceWire, partialCustomVoiceWire]))
      .describe('Voices cloned for this speaker: whole with `detail=full` (the default), `id`, `name` and `cloning_status` with `detail=partial`, none with `detail=none`. No installed engine clones voices, so the list is empty'),
    voices: z.array(z.object({ id: z.number().int().min(1), name: z.string() })).describe('Catalogue voices this speaker speaks with'),
  })
  .meta({ id: 'Speaker' });
export type SpeakerWire = z.infer<typeof speakerWire>;

export const speakerToWire = (speaker: SpeakerView, catalogue: VoiceCatalogue): SpeakerWire => ({
  id: speaker.id,
  first_name: speaker.firstName,
  last_name: speaker.lastName,
  avatar_url: speaker.avatarUrl,
  created: speaker.created,
  updated: speaker.updated,
  // Custom voices come from cloning, which no installed engine does: there are none to show at any `detail`.
  custom_voices: [],
  // A voice that has left the catalogue (espeak-ng reinstalled without it) is no longer offered.
  voices: speaker.voiceIds.flatMap((id) => {
    const voice = catalogue.byId(id);
    return voice ? [{ id, name: voice.name }] : [];
  }),
});
