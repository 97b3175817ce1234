// Content commands: load the stream, decide, append; source-id claims keep `source_id` unique per project.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { camelKeys } from '../shared/caseMapping.ts';
import { foldStream, handleCommand } from '../shared/decider.ts';
import { invalid } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import type { VoiceCatalogue } from '../voices/catalogue.ts';
import { catalogueOfProject } from '../voices/custom.ts';
import { unknownAccessTiers } from '../accessTiers/handlers.ts';
import { contentTypes, createContentSchemas, updateContentSchemas, uploadContentSchema, type ContentType } from './commands.ts';
import { CLAIM_GRACE_MS, contentDecider, sourceIdDecider } from './decider.ts';
import { contentStream, type ContentFields } from './events.ts';

export const sourceIdStream = (projectId: number, sourceId: string) =>
  `content_source-${projectId}-${createHash('sha256').update(sourceId).digest('hex').slice(0, 40)}`;

export interface ContentHandlers {
  create(projectId: number, body: unknown, now: Date): Promise<{ contentId: string; position: number }>;
  /** An `audio_upload` item whose audio is a file already kept under the media folder (src/content/upload.ts). */
  createUploaded(projectId: number, body: unknown, upload: { audioUrl: string; audioFile: string }, now: Date): Promise<{ contentId: string; position: number }>;
  update(projectId: number, contentId: string, contentType: ContentType, body: unknown, now: Date): Promise<number>;
  remove(projectId: number, contentId: string, now: Date): Promise<number>;
  regenerate(projectId: number, contentId: string, now: Date): Promise<number>;
}

export function createContentHandlers(store: EventStore, voices: VoiceCatalogue): ContentHandlers {
  /** Voice ids must name a stock voice or one of the project's organization's own (src/voices/custom.ts). */
  const checkVoices = async (projectId: number, fields: Partial<ContentFields>) => {
    const references = voiceReferences(fields);
    const catalogue = references.some(({ id }) => !voices.byId(id)) ? await catalogueOfProject(store, voices, projectId) : voices;
    const unknown = references.filter(({ id }) => !catalogue.byId(id));
    if (unknown.length > 0) throw invalid(unknown.map(({ location }) => ({ location, message: 'is not a known voice (see GET /organization/voices)' })));
  };

  /** A language must have a voice to read it (its own or its closest, src/voices/catalogue.ts): none is a 422, never another language's voice. */
  const checkLanguages = (fields: Partial<ContentFields>) => {
    const unread = languageReferences(fields).filter(({ code }) => !voices.defaultFor(code));
    if (unread.length > 0) throw invalid(unread.map(({ location, code }) => ({ location, message: `${code} has no voice (GET /organization/languages lists the languages that have one)` })));
  };

  const checkAccessTiers = async (projectId: number, fields: Partial<ContentFields>) => {
    const unknown = await unknownAccessTiers(store, projectId, fields.accessTiers);
    if (unknown.length > 0) throw invalid(unknown);
  };

  const claim = async (projectId: number, sourceId: string, contentId: string, now: string) => {
    const stream = sourceIdStream(projectId, sourceId);
    const owner = foldStream(sourceIdDecider, await store.readStream(stream));
    const ownerAlive = owner.ownerId ? await isAlive(owner.ownerId, owner.claimed!, now) : false;
    await handleCommand(store, stream, sourceIdDecider, { kind: 'ClaimSourceId', projectId, sourceId, contentId, now, ownerAlive });
  };

  // A claim holder is alive while its item exists, or briefly before its item is written.
  const isAlive = async (contentId: string, claimed: string, now: string) => {
    const state = foldStream(contentDecider, await store.readStream(contentStream(contentId)));
    if (state.status === 'active') return true;
    return state.status === 'absent' && Date.parse(now) - Date.parse(claimed) < CLAIM_GRACE_MS;
  };

  const release = (projectId: number, sourceId: string, contentId: string) =>
    handleCommand(store, sourceIdStream(projectId, sourceId), sourceIdDecider, { kind: 'ReleaseSourceId', contentId });

  /** Every create ends here, its fields parsed from the body of its door. */
  const create = async (projectId: number, contentType: ContentType, fields: ContentFields, now: Date) => {
    checkLanguages(fields);
    await checkVoices(projectId, fields);
    await checkAccessTiers(projectId, fields);
    const contentId = randomUUID();
    const at = now.toISOString();
    if (fields.sourceId) await claim(projectId, fields.sourceId, contentId, at);
    const previewToken = randomBytes(18).toString('base64url');
    const command = { kind: 'CreateContent', contentId, projectId, contentType, fields, previewToken, now: at } as const;
    const { position } = await handleCommand(store, contentStream(contentId), contentDecider, command);
    return { contentId, position };
  };

  return {
    async create(projectId, body, now) {
      const contentType = typeOf(body);
      return create(projectId, contentType, camelKeys<ContentFields>(parseOrThrow(createContentSchemas[contentType], body)), now);
    },

    async createUploaded(projectId, body, upload, now) {
      const fields = camelKeys<ContentFields>(parseOrThrow(uploadContentSchema, body));
      return create(projectId, 'audio_upload', { ...fields, ...upload }, now);
    },

    async update(projectId, contentId, contentType, body, now) {
      if (isObject(body) && body.type !== undefined && body.type !== contentType) {
        throw invalid([{ location: 'type', message: `cannot be changed (the item is ${contentType})` }]);
      }
      const wire = parseOrThrow(updateContentSchemas[contentType], body);
      const changes = camelKeys<Partial<ContentFields>>(wire);
      // A recording named by URL replaces an uploaded one.
      if (changes.audioUrl) changes.audioFile = null;
      checkLanguages(changes);
      await checkVoices(projectId, changes);
      await checkAccessTiers(projectId, changes);
      const at = now.toISOString();
      const before = foldStream(contentDecider, await store.readStream(contentStream(contentId)));
      const newSourceId = 'sourceId' in changes && changes.sourceId !== before.sourceId ? changes.sourceId : undefined;
      if (newSourceId) await claim(projectId, newSourceId, contentId, at);
      const { position } = await handleCommand(store, contentStream(contentId), contentDecider, {
        kind: 'UpdateContent',
        projectId,
        changes,
        now: at,
      });
      if ('sourceId' in changes && before.sourceId && before.sourceId !== changes.sourceId) {
        await release(projectId, before.sourceId, contentId);
      }
      return position;
    },

    async regenerate(projectId, contentId, now) {
      const command = { kind: 'RegenerateContent', projectId, now: now.toISOString() } as const;
      return (await handleCommand(store, contentStream(contentId), contentDecider, command)).position;
    },

    async remove(projectId, contentId, now) {
      const { state, position } = await handleCommand(store, contentStream(contentId), contentDecider, {
        kind: 'DeleteContent',
        projectId,
        now: now.toISOString(),
      });
      if (state.sourceId) await release(projectId, state.sourceId, contentId);
      return position;
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body shape is chosen by `type`, which defaults to auto_segment. */
function typeOf(body: unknown): ContentType {
  if (!isObject(body)) throw invalid([{ location: 'body', message: 'must be a JSON object' }]);
  const type = body.type ?? 'auto_segment';
  if (typeof type === 'string' && (contentTypes as readonly string[]).includes(type)) return type as ContentType;
  throw invalid([{ location: 'type', message: `must be one of: ${contentTypes.join(', ')}` }]);
}

/** Every language a body names, with where it stands in the body. */
function languageReferences(fields: Partial<ContentFields>): { location: string; code: string }[] {
  return [
    ...(fields.language ? [{ location: 'language', code: fields.language }] : []),
    ...(fields.segments ?? []).flatMap((segment, index) => (segment.language?.code ? [{ location: `segments.${index}.language.code`, code: segment.language.code }] : [])),
  ];
}

/** Every voice id a body names, with where it stands in the body. */
function voiceReferences(fields: Partial<ContentFields>): { location: string; id: number }[] {
  const sections = [['title_voice_id', fields.titleVoiceId], ['summary_voice_id', fields.summaryVoiceId], ['body_voice_id', fields.bodyVoiceId]] as const;
  return [
    ...sections.flatMap(([location, id]) => (id ? [{ location, id }] : [])),
    ...(fields.segments ?? []).flatMap((segment, index) => (segment.voice ? [{ location: `segments.${index}.voice.id`, id: segment.voice.id }] : [])),
  ];
}
