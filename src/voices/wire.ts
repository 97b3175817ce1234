// The voice and language wire formats: zod schemas, the source of the OpenAPI document, and the one mapping to them.
import { z } from 'zod';
import type { Voice } from './catalogue.ts';

export const languageWire = z
  .object({ code: z.string().describe('ISO 639-1, with a region where the voice has one: `en_US`'), name: z.string() })
  .meta({ id: 'Language' });

export const voiceWire = z.object({ id: z.number().int().min(1), name: z.string(), language: languageWire }).meta({ id: 'Voice' });
export type VoiceWire = z.infer<typeof voiceWire>;

export const voiceToWire = ({ id, name, language }: Voice): VoiceWire => ({ id, name, language: { code: language.code, name: language.name } });
