// An organization's catalogue: the stock voices plus the organization's own, as generation and content checks
// see them. Built by folding the organization's voices stream, so it works where there is no read store (workers).
import { withShift } from '../media/engines/kokoroShift.ts';
import type { EventStore, RecordedEvent } from '../infrastructure/eventStore/port.ts';
import type { ProjectEvent } from '../projects/events.ts';
import { projectStream } from '../projects/events.ts';
import { foldStream } from '../shared/decider.ts';
import type { Voice, VoiceCatalogue } from './catalogue.ts';
import { customVoiceDecider, type CustomVoiceRecord } from './decider.ts';
import type { CustomVoiceFields } from './events.ts';
import { voicesStream } from './events.ts';

/**
 * What the engine is given: espeak-ng takes a variant after a `+` in the voice name (`en-us+f3`); Kokoro takes a
 * blend as weighted style vectors (`af_heart:0.6+bf_emma:0.4`), the base voice weighing what the blend leaves, and a
 * shift after an `@` (`af_heart@pitch=-1.5,low=3,high=0`, src/media/engines/kokoroShift.ts).
 */
export function engineVoiceOf(fields: Pick<CustomVoiceFields, 'engineVoice' | 'variant' | 'blend' | 'shift'> & { engine?: CustomVoiceFields['engine'] }): string {
  if (fields.variant) return `${fields.engineVoice}+${fields.variant}`;
  const shifted = (voice: string) => (fields.engine === undefined || fields.engine === 'kokoro' ? withShift(voice, fields.shift) : voice);
  if (!fields.blend?.length) return shifted(fields.engineVoice);
  const share = (weight: number) => Math.round(weight * 1000) / 1000;
  const rest = 1 - fields.blend.reduce((sum, part) => sum + part.weight, 0);
  return shifted([`${fields.engineVoice}:${share(rest)}`, ...fields.blend.map((part) => `${part.engineVoice}:${share(part.weight)}`)].join('+'));
}

/** A custom voice as the catalogue's voices are: it speaks with its base voice's engine, at its own speed. */
export function customVoiceOf({ id, fields }: CustomVoiceRecord): Voice {
  return {
    id,
    name: fields.name,
    engine: fields.engine,
    engineVoice: engineVoiceOf(fields),
    speed: fields.speed,
    language: fields.language,
    gender: fields.gender === 'neutral' ? null : fields.gender,
    accent: fields.accent,
  };
}

/** The stock catalogue, with `byId` also finding the given custom voices (defaults stay stock voices). */
export function withCustomVoices(stock: VoiceCatalogue, records: readonly CustomVoiceRecord[]): VoiceCatalogue {
  if (records.length === 0) return stock;
  const custom = new Map(records.map((record) => [record.id, customVoiceOf(record)]));
  return { ...stock, byId: (id) => stock.byId(id) ?? custom.get(id) };
}

/** The custom voices of an organization, from its stream. */
export const customVoicesOf = (events: RecordedEvent[]) => Object.values(foldStream(customVoiceDecider, events).voices);

export async function organizationCatalogue(store: EventStore, stock: VoiceCatalogue, organizationId: number): Promise<VoiceCatalogue> {
  return withCustomVoices(stock, customVoicesOf(await store.readStream(voicesStream(organizationId))));
}

/** The catalogue of the organization a project's stream names (the stock one when the project is unknown). */
export async function projectCatalogue(store: EventStore, stock: VoiceCatalogue, projectEvents: RecordedEvent[]): Promise<VoiceCatalogue> {
  const created = (projectEvents as unknown as ProjectEvent[]).find((event) => event.type === 'ProjectCreated');
  return created?.type === 'ProjectCreated' ? organizationCatalogue(store, stock, created.data.organizationId) : stock;
}

export async function catalogueOfProject(store: EventStore, stock: VoiceCatalogue, projectId: number): Promise<VoiceCatalogue> {
  return projectCatalogue(store, stock, await store.readStream(projectStream(projectId)));
}
