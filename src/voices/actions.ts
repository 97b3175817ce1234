// Voice use cases of the REST routes: the stock catalogue and the organization's own voices, listed together.
// Any key reads them (publishing plugins hold project keys); only organization keys make, change or delete them.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { principalOf, reachableProject, requireOrganizationKey } from '../http/auth.ts';
import { resourceIdOf } from '../shared/crud/actions.ts';
import { conflict, invalid, notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { customVoicesProjection } from '../../projections/voices.ts';
import { readAfterWrite } from '../../projections/inMemory.ts';
import type { VoiceShift } from '../media/engines/kokoroShift.ts';
import type { Voice } from './catalogue.ts';
import { customVoiceSchemas, designPreviewsSchema, finalizeDesignSchema, voiceQuery, type CustomVoiceBody } from './commands.ts';
import { DEFAULT_PREVIEW_TEXT, designCandidates, settingsOfGeneratedVoiceId, previewOf, variantGender } from './design.ts';
import { voicesStream, type BlendPart, type CustomVoiceFields } from './events.ts';
import { dropMultipartBody } from './clone.ts';
import { createCustomVoiceHandlers } from './handlers.ts';
import { findCustomVoice, listCustomVoices, type CustomVoiceView } from './readModel.ts';
import { customVoiceToWire, languageToWire, stockVoiceToWire, type VoiceWire } from './wire.ts';

type Scope = 'primary' | 'secondary';

type BlendWire = CustomVoiceBody['blend'];

/** A stored blend in the wire's shape, so keeping it through an update checks it as a new one is. */
const storedBlend = (voice: CustomVoiceView): BlendWire => (voice.blend?.length ? voice.blend.map((part) => ({ voice: { id: part.voiceId }, weight: part.weight })) : null);

/** How a voice relates to a language: native to it (a bare language covers its regions), or another region of it. */
function scopeOf(voiceLanguage: string, code: string): Scope | null {
  const base = (language: string) => language.split('_')[0];
  if (voiceLanguage === code || (!code.includes('_') && base(voiceLanguage) === code)) return 'primary';
  return base(voiceLanguage) === base(code) ? 'secondary' : null;
}

export type VoiceActions = ReturnType<typeof voiceActions>;

export function voiceActions(services: Services) {
  const { events, read, runner, now, voices: catalogue, synthesizer } = services;
  const handlers = createCustomVoiceHandlers(events);

  /** Every voice a caller sees, in the wire format: the stock ones, then the organization's own. */
  const everyVoice = async (organizationId: number) => [
    ...catalogue.voices.map((voice) => ({ language: voice.language.code, wire: (scope?: Scope) => stockVoiceToWire(voice, scope) })),
    ...(await listCustomVoices(read, organizationId)).map((voice) => ({ language: voice.language.code, wire: (scope?: Scope) => customVoiceToWire(voice, catalogue, scope) })),
  ];

  const existingCustom = async (organizationId: number, ref: string): Promise<CustomVoiceView> => {
    const id = resourceIdOf(ref);
    if (Number.isSafeInteger(id) && catalogue.byId(id)) throw conflict('Stock voices cannot be changed or deleted: create a custom voice from one (POST /organization/voices)');
    const found = Number.isSafeInteger(id) ? await findCustomVoice(read, organizationId, id) : null;
    if (!found) throw notFound();
    return found;
  };

  const afterWrite = async (organizationId: number, id: number, position: number): Promise<VoiceWire> => {
    const write = { position, stream: voicesStream(organizationId), projection: customVoicesProjection };
    const found = await readAfterWrite({ runner, events, read }, write, (store) => findCustomVoice(store, organizationId, id));
    if (!found) throw notFound();
    return customVoiceToWire(found, catalogue);
  };

  /**
   * The stored fields a base voice, variant, blend, shift and speed make: language, gender and accent come from them.
   * A shift (voice design's) stays only with a Kokoro base voice, which is the one engine it is applied to.
   */
  const builtFrom = (base: Voice, variant: string | null, speed: number, blend: BlendPart[] | null, shift: VoiceShift | null = null): Omit<CustomVoiceFields, 'name' | 'type' | 'description'> => {
    if (variant !== null && base.engine !== 'espeak-ng') throw invalid([{ location: 'variant', message: `only espeak-ng voices have variants; ${base.name} is a ${base.engine} voice` }]);
    return {
      baseVoiceId: base.id,
      engine: base.engine,
      engineVoice: base.engineVoice,
      variant,
      speed,
      blend,
      shift: base.engine === 'kokoro' ? shift : null,
      language: { code: base.language.code, name: base.language.name },
      gender: (variant ? variantGender(variant) : null) ?? base.gender,
      accent: base.accent,
    };
  };

  /** A blend as stored: only Kokoro mixes style vectors, so the base and every blended voice must be Kokoro's. */
  const blendOf = (base: Voice, wire: BlendWire): BlendPart[] | null => {
    if (!wire) return null;
    const refused = (message: string) => invalid([{ location: 'blend', message }]);
    if (base.engine !== 'kokoro') throw refused(`only Kokoro voices blend; the base voice ${base.name} is a ${base.engine} voice`);
    return wire.map(({ voice, weight }) => {
      const part = catalogue.byId(voice.id);
      if (!part) throw refused(`voice ${voice.id} names no stock voice (GET /organization/voices?filter[engine]=kokoro)`);
      if (part.engine !== 'kokoro') throw refused(`only Kokoro voices blend; ${part.name} is a ${part.engine} voice`);
      if (part.id === base.id) throw refused(`${part.name} is the base voice already: blend other Kokoro voices into it`);
      return { voiceId: part.id, engineVoice: part.engineVoice, weight };
    });
  };

  const stockBase = (id: number): Voice => {
    const base = catalogue.byId(id);
    if (!base) throw invalid([{ location: 'base_voice.id', message: 'names no stock voice (GET /organization/voices?filter[type]=stock)' }]);
    return base;
  };

  return {
    async list(ctx: Context, query: Record<string, unknown>): Promise<VoiceWire[]> {
      const q = parseOrThrow(voiceQuery, query, 'Invalid query parameters');
      const code = q['filter[language.code]'];
      const scopes = new Set<Scope>([q['filter[scopes][]'] ?? 'primary'].flat());
      const voices = (await everyVoice(principalOf(ctx).organizationId)).flatMap(({ language, wire }) => {
        const scope = code ? scopeOf(language, code) : 'primary';
        return scope && scopes.has(scope) ? [wire(scope)] : [];
      });
      return voices.filter(
        (voice) =>
          (!q['filter[gender]'] || voice.gender === q['filter[gender]']) &&
          (!q['filter[engine]'] || voice.engine === q['filter[engine]']) &&
          (!q['filter[type]'] || voice.type === q['filter[type]']),
      );
    },

    async get(ctx: Context, ref: string): Promise<VoiceWire> {
      const id = resourceIdOf(ref);
      const stock = Number.isSafeInteger(id) ? catalogue.byId(id) : undefined;
      if (stock) return stockVoiceToWire(stock);
      const found = Number.isSafeInteger(id) ? await findCustomVoice(read, principalOf(ctx).organizationId, id) : null;
      if (!found) throw notFound();
      return customVoiceToWire(found, catalogue);
    },

    async create(ctx: Context, body: unknown): Promise<VoiceWire> {
      const { organizationId } = requireOrganizationKey(ctx);
      const wire: CustomVoiceBody = parseOrThrow(customVoiceSchemas.create, body);
      const base = stockBase(wire.base_voice.id);
      const fields: CustomVoiceFields = { name: wire.name, type: 'custom', description: wire.description, ...builtFrom(base, wire.variant, wire.speed, blendOf(base, wire.blend)) };
      const { id, position } = await handlers.create(organizationId, fields, now());
      return afterWrite(organizationId, id, position);
    },

    async update(ctx: Context, ref: string, body: unknown): Promise<VoiceWire> {
      const { organizationId } = requireOrganizationKey(ctx);
      const found = await existingCustom(organizationId, ref);
      const wire = parseOrThrow(customVoiceSchemas.update, body);
      const base = wire.base_voice ? stockBase(wire.base_voice.id) : (catalogue.byId(found.baseVoiceId) ?? null);
      const changes: Partial<CustomVoiceFields> = {
        ...(wire.name !== undefined && { name: wire.name }),
        ...(wire.description !== undefined && { description: wire.description }),
      };
      if (wire.base_voice || wire.variant !== undefined || wire.speed !== undefined || wire.blend !== undefined) {
        if (!base) throw invalid([{ location: 'base_voice.id', message: 'the voice\'s base voice is no longer installed: name another' }]);
        // A blend left out stays as it was, checked again against a new base voice.
        const blend = wire.blend !== undefined ? blendOf(base, wire.blend) : blendOf(base, storedBlend(found));
        Object.assign(changes, builtFrom(base, wire.variant !== undefined ? wire.variant : found.variant, wire.speed ?? found.speed, blend, found.shift ?? null));
      }
      return afterWrite(organizationId, found.id, await handlers.update(organizationId, found.id, changes, now()));
    },

    async remove(ctx: Context, ref: string): Promise<void> {
      const { organizationId } = requireOrganizationKey(ctx);
      const found = await existingCustom(organizationId, ref);
      await runner.waitFor(await handlers.remove(organizationId, found.id, now()));
    },

    languages() {
      return catalogue.languages().map((language) => languageToWire(language, catalogue));
    },

    /** The voices that read the project's language: its own region's first (`primary`), then the language's other regions. */
    async projectVoices(ctx: Context, projectRef: string | undefined): Promise<VoiceWire[]> {
      const project = await reachableProject(ctx, read, projectRef);
      const voices = (await everyVoice(project.organizationId)).flatMap(({ language, wire }) => {
        const scope = scopeOf(language, project.language);
        return scope ? [wire(scope)] : [];
      });
      return [...voices.filter((voice) => voice.scopes[0] === 'primary'), ...voices.filter((voice) => voice.scopes[0] === 'secondary')];
    },

    async designPreviews(ctx: Context, body: unknown) {
      requireOrganizationKey(ctx);
      const wire = parseOrThrow(designPreviewsSchema, body);
      const text = wire.text ?? DEFAULT_PREVIEW_TEXT;
      // Side by side: the engines' worker pools bound how many speak at once, so previews share the machine with
      // generation as any request does, and a request answers in the time of its slowest preview where workers are free.
      const previews = await Promise.all(designCandidates(wire.voice_description, catalogue).map((candidate) => previewOf(synthesizer, candidate, catalogue, text)));
      return { text, previews };
    },

    async finalizeDesign(ctx: Context, body: unknown): Promise<VoiceWire> {
      const { organizationId } = requireOrganizationKey(ctx);
      const wire = parseOrThrow(finalizeDesignSchema, body);
      const settings = settingsOfGeneratedVoiceId(wire.generated_voice_id, catalogue);
      const fields: CustomVoiceFields = {
        name: wire.voice_name,
        type: 'designed',
        description: wire.voice_description ?? null,
        ...builtFrom(settings.base, settings.variant, settings.speed, blendOf(settings.base, settings.blend), settings.shift),
      };
      const { id, position } = await handlers.create(organizationId, fields, now());
      return afterWrite(organizationId, id, position);
    },

    /** A multipart body (recordings) is read and dropped first, so the client reads the answer; JSON bodies answer the same. */
    async clone(ctx: Context): Promise<never> {
      requireOrganizationKey(ctx);
      if (ctx.request.is('multipart/form-data')) await dropMultipartBody(ctx, services.audioLimits.maxBytes);
      throw invalid(
        [{ location: 'files', message: 'cannot be cloned with the installed engines' }],
        'Voice cloning is not available: none of the installed speech engines (Piper, Kokoro, espeak-ng) clones voices. Design one instead (POST /organization/voices/design_previews)',
      );
    },
  };
}
