// The voice and language wire formats: zod schemas, the source of the OpenAPI document, and the one mapping to them.
import { z } from 'zod';
import { timestamp } from '../shared/wireResponses.ts';
import type { Voice, VoiceCatalogue } from './catalogue.ts';
import { ESPEAK_VARIANTS, voiceEngine, voiceGender, voiceScope, voiceType } from './commands.ts';
import type { CustomVoiceView } from './readModel.ts';

const voiceRef = z.object({ id: z.number().int().min(1), name: z.string() });

export const languageWire = z
  .object({
    code: z.string().describe('ISO 639-1, with a region where the voice has one: `en_US`'),
    name: z.string(),
    accent: z.string().describe('How the language sounds in its region ("American", "British"); `Standard` for a language without one'),
    default_voices: z
      .object({ title: voiceRef, body: voiceRef, summary: voiceRef })
      .describe('The voice each section speaks with when nothing else is chosen: the neural voice where there is one'),
  })
  .meta({ id: 'Language' });
export type LanguageWire = z.infer<typeof languageWire>;

export const voiceWire = z
  .object({
    id: z.number().int().min(1),
    name: z.string(),
    language: z.object({ code: z.string(), name: z.string() }),
    gender: voiceGender.nullable(),
    accent: z.string().nullable(),
    engine: voiceEngine,
    type: voiceType.describe('`stock`: installed with an engine; `custom`: made from one with its settings; `designed`: made from a description'),
    speed: z.number().describe('1 for stock voices'),
    scopes: z.array(voiceScope).describe('`primary` when the voice is native to the language asked for (its own when none was), `secondary` when it also reads it'),
    base_voice: voiceRef.nullable().describe('The stock voice a custom or designed voice speaks with'),
    variant: z.enum(ESPEAK_VARIANTS).nullable(),
    blend: z
      .array(z.object({ voice: voiceRef, weight: z.number() }))
      .nullable()
      .describe('Kokoro voices mixed into the base voice with their weights (the base voice weighs the rest); null when none'),
    shift: z
      .object({
        semitones: z.number().describe('Pitch shift in semitones (negative is lower)'),
        low_db: z.number().describe('Gain of the low band (around 160 Hz), in dB'),
        high_db: z.number().describe('Gain of the high band (around 4 kHz), in dB'),
      })
      .nullable()
      .describe('A designed Kokoro voice\'s pitch and timbre shift, applied by a DSP filter after it speaks (its tempo and word times unchanged); null when none'),
    description: z.string().nullable(),
    created: timestamp.nullable().describe('Null for stock voices'),
    updated: timestamp.nullable(),
  })
  .meta({ id: 'Voice' });
export type VoiceWire = z.infer<typeof voiceWire>;

type Scope = z.infer<typeof voiceScope>;

export const stockVoiceToWire = (voice: Voice, scope: Scope = 'primary'): VoiceWire => ({
  id: voice.id,
  name: voice.name,
  language: { code: voice.language.code, name: voice.language.name },
  gender: voice.gender,
  // espeak-ng names no accent: a regional voice has its region's.
  accent: voice.accent ?? (voice.language.code.includes('_') ? accentOf(voice.language.code) : null),
  engine: voice.engine,
  type: 'stock',
  speed: 1,
  scopes: [scope],
  base_voice: null,
  variant: null,
  blend: null,
  shift: null,
  description: null,
  created: null,
  updated: null,
});

export const customVoiceToWire = (voice: CustomVoiceView, catalogue: VoiceCatalogue, scope: Scope = 'primary'): VoiceWire => ({
  id: voice.id,
  name: voice.name,
  language: voice.language,
  gender: voice.gender,
  accent: voice.accent,
  engine: voice.engine,
  type: voice.type,
  speed: voice.speed,
  scopes: [scope],
  base_voice: { id: voice.baseVoiceId, name: catalogue.byId(voice.baseVoiceId)?.name ?? voice.engineVoice },
  variant: voice.variant as VoiceWire['variant'],
  blend: voice.blend?.length ? voice.blend.map((part) => ({ voice: { id: part.voiceId, name: catalogue.byId(part.voiceId)?.name ?? part.engineVoice }, weight: part.weight })) : null,
  shift: voice.shift ? { semitones: voice.shift.semitones, low_db: voice.shift.lowDb, high_db: voice.shift.highDb } : null,
  description: voice.description,
  created: voice.created,
  updated: voice.updated,
});

/** Regions whose accent has a common name; others are named by their region ("Caribbean" is a region name too). */
const ACCENTS: Record<string, string> = {
  US: 'American', GB: 'British', AU: 'Australian', CA: 'Canadian', IE: 'Irish', IN: 'Indian', NZ: 'New Zealand', ZA: 'South African',
  BR: 'Brazilian', PT: 'European', MX: 'Mexican', ES: 'Castilian', FR: 'French', BE: 'Belgian', CH: 'Swiss', AT: 'Austrian', DE: 'German',
  IT: 'Italian', JP: 'Japanese', CN: 'Mainland', RU: 'Russian',
};
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

export function accentOf(code: string): string {
  const region = code.split('_')[1];
  if (!region) return 'Standard';
  return ACCENTS[region] ?? regionNames.of(region) ?? region;
}

export function languageToWire(language: { code: string; name: string }, catalogue: VoiceCatalogue): LanguageWire {
  const voice = catalogue.defaultFor(language.code)!;
  const ref = { id: voice.id, name: voice.name };
  return { code: language.code, name: language.name, accent: accentOf(language.code), default_voices: { title: ref, body: ref, summary: ref } };
}
