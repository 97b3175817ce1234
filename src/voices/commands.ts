// What clients may send to the voice routes, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { languageCode, positiveId } from '../shared/wireSchemas.ts';

/**
 * espeak-ng's voice variants a custom voice may add to an espeak-ng base voice (`en-us` + `f3`): they change the
 * voice's pitch, formants and breath. Piper voices have none.
 */
export const ESPEAK_VARIANTS = ['f1', 'f2', 'f3', 'f4', 'f5', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'croak', 'whisper', 'whisperf', 'grandma', 'grandpa', 'klatt'] as const;
export type EspeakVariant = (typeof ESPEAK_VARIANTS)[number];

export const voiceSpeed = z.number().min(0.5).max(2).describe('How fast the voice speaks: 1 is its base voice\'s pace, 1.3 is 1.3 times as fast (0.5 to 2)');
const voiceName = z.string().trim().min(1).max(100);
const description = z.string().trim().max(1000).nullable();

/** Kokoro voices mixed into a Kokoro base voice: each takes its weight's share, the base voice keeps the rest. */
export const voiceBlend = z
  .array(z.object({ voice: z.object({ id: positiveId }), weight: z.number().gt(0).lt(1) }))
  .min(1)
  .max(3)
  .refine((parts) => parts.reduce((sum, part) => sum + part.weight, 0) < 1, 'weights must add up to less than 1: the base voice speaks the rest')
  .nullable()
  .describe('Kokoro voices blended into a Kokoro base voice (1 to 3, weights above 0 adding up to less than 1; the base voice weighs the rest)');

const fields = {
  name: voiceName,
  base_voice: z.object({ id: positiveId }).describe('The stock voice (`type: stock`) it speaks with'),
  speed: voiceSpeed,
  variant: z.enum(ESPEAK_VARIANTS).nullable().describe('An espeak-ng voice variant (pitch, formants, breath); only with an espeak-ng base voice'),
  blend: voiceBlend,
  description,
};

export const customVoiceSchemas = {
  create: z.object({ ...fields, speed: fields.speed.default(1), variant: fields.variant.default(null), blend: fields.blend.default(null), description: description.default(null) }),
  update: z.object(fields).partial(),
};
export type CustomVoiceBody = z.infer<typeof customVoiceSchemas.create>;

export const voiceScope = z.enum(['primary', 'secondary']);
export const voiceGender = z.enum(['female', 'male', 'neutral']);
export const voiceEngine = z.enum(['piper', 'kokoro', 'pico', 'rhvoice', 'espeak-ng']);
export const voiceType = z.enum(['stock', 'custom', 'designed']);

export const voiceQuery = z.object({
  'filter[language.code]': languageCode.optional().describe('Voices that read this language: a bare language (`en`) covers every region of it'),
  'filter[gender]': voiceGender.optional(),
  'filter[engine]': voiceEngine.optional(),
  'filter[type]': voiceType.optional(),
  'filter[scopes][]': z
    .union([voiceScope, z.array(voiceScope)])
    .optional()
    .describe('With a language: `primary` voices are native to it, `secondary` ones also read it (another region of the language). Only `primary` when unset'),
});

export const designPreviewsSchema = z.object({
  voice_description: z.string().trim().min(20).max(1000).describe('How the voice should sound: gender, age, pace, warmth, accent ("a calm, slow British woman")'),
  // At most 500 characters (about 30 s of speech): three previews, two of them neural ones spoken one after another on
  // two cores, then answer well within the server's 120 s request limit.
  text: z.string().trim().min(100).max(500).regex(/\p{L}/u, 'must hold words to say').optional().describe('What the previews say (100 to 500 characters); a standard passage when unset'),
});

export const finalizeDesignSchema = z.object({
  generated_voice_id: z.string().min(1).max(200).describe('A preview\'s `generated_voice_id` from design_previews'),
  voice_name: voiceName,
  voice_description: description.optional(),
});
