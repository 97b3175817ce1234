// Business rules of an organization's pronunciation rules: pure decide/evolve over the organization's stream.
import { conflict, invalid, notFound, type AppError, type FieldError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import { needsReplacement } from './commands.ts';
import { unknownIpaSymbols } from './ipa.ts';
import type { PronunciationEvent, RuleFields } from './events.ts';

export interface RuleState {
  fields: RuleFields;
  /** Grows with every change to how the rule sounds; the preview is of one version. */
  version: number;
  /** The version whose preview is recorded (0: none yet). */
  previewed: number;
}

export interface DictionaryState {
  rules: Record<number, RuleState>;
}

export type PronunciationCommand =
  | { kind: 'CreateRule'; ruleId: number; organizationId: number; fields: RuleFields; now: string }
  | { kind: 'UpdateRule'; ruleId: number; changes: Partial<RuleFields>; now: string }
  | { kind: 'DeleteRule'; ruleId: number; now: string }
  | { kind: 'RecordPreview'; ruleId: number; version: number; outcome: { status: 'ready'; audioUrl: string } | { status: 'error'; reason: string }; now: string };

/** More rules than this would make every generation slower without a good reason. */
export const MAX_RULES_PER_ORGANIZATION = 1000;

/** The fields whose change alters what the rule says. */
const SOUNDING: (keyof RuleFields)[] = ['type', 'text', 'replacement', 'caseSensitive', 'language'];

const sameScope = (a: RuleFields, b: RuleFields) => a.projectId === b.projectId && a.contentId === b.contentId && a.language === b.language;
/** Two rules that would match the same written text. */
const sameText = (a: RuleFields, b: RuleFields) => a.text.toLowerCase() === b.text.toLowerCase() && (!a.caseSensitive || !b.caseSensitive || a.text === b.text);

/** What makes a rule unusable on its own or beside the others of its organization. */
function problemsOf(fields: RuleFields, ruleId: number, state: DictionaryState): FieldError[] {
  const problems: FieldError[] = [];
  if (needsReplacement(fields.type) && fields.replacement === null) problems.push({ location: 'replacement', message: `is required for type ${fields.type}` });
  if (!needsReplacement(fields.type) && fields.replacement !== null) problems.push({ location: 'replacement', message: `must be null for type ${fields.type}` });
  const unknown = fields.type === 'ipa_transcription' && fields.replacement !== null ? unknownIpaSymbols(fields.replacement) : [];
  if (unknown.length > 0) problems.push({ location: 'replacement', message: `holds symbols the voices here cannot say: ${unknown.join(' ')}` });
  if (fields.contentId !== null && fields.projectId === null) problems.push({ location: 'content_id', message: 'needs project.id: an item is named within its project' });
  const twin = Object.entries(state.rules).find(([id, rule]) => Number(id) !== ruleId && sameScope(rule.fields, fields) && sameText(rule.fields, fields));
  if (twin) problems.push({ location: 'text', message: `rule ${twin[0]} already says how to pronounce this text in the same scope and language` });
  return problems;
}

export const pronunciationDecider: Decider<DictionaryState, PronunciationCommand, PronunciationEvent> = {
  initialState: { rules: {} },

  evolve(state, event) {
    switch (event.type) {
      case 'PronunciationRuleCreated':
        return { rules: { ...state.rules, [event.data.ruleId]: { fields: event.data.fields, version: 1, previewed: 0 } } };
      case 'PronunciationRuleUpdated': {
        const rule = state.rules[event.data.ruleId]!;
        return { rules: { ...state.rules, [event.data.ruleId]: { ...rule, fields: { ...rule.fields, ...event.data.changes }, version: event.data.version } } };
      }
      case 'PronunciationRuleDeleted': {
        const { [event.data.ruleId]: _deleted, ...rules } = state.rules;
        return { rules };
      }
      case 'PronunciationPreviewRecorded': {
        const rule = state.rules[event.data.ruleId];
        return rule ? { rules: { ...state.rules, [event.data.ruleId]: { ...rule, previewed: event.data.version } } } : state;
      }
    }
  },

  decide(command, state): PronunciationEvent[] | AppError {
    switch (command.kind) {
      case 'CreateRule': {
        const { ruleId, organizationId, fields, now } = command;
        if (state.rules[ruleId]) return conflict();
        if (Object.keys(state.rules).length >= MAX_RULES_PER_ORGANIZATION) {
          return invalid([{ location: 'body', message: `an organization has at most ${MAX_RULES_PER_ORGANIZATION} pronunciation rules` }]);
        }
        const problems = problemsOf(fields, ruleId, state);
        return problems.length > 0 ? invalid(problems) : [{ type: 'PronunciationRuleCreated', data: { ruleId, organizationId, fields, created: now } }];
      }
      case 'UpdateRule': {
        const rule = state.rules[command.ruleId];
        if (!rule) return notFound();
        const changes = { ...command.changes };
        // A rule turned into a way of saying the written text drops its replacement unless one is sent (and refused).
        if (changes.type && !needsReplacement(changes.type) && !('replacement' in changes)) changes.replacement = null;
        const fields = { ...rule.fields, ...changes };
        const problems = problemsOf(fields, command.ruleId, state);
        if (problems.length > 0) return invalid(problems);
        const sounds = SOUNDING.some((key) => key in changes && changes[key] !== rule.fields[key]);
        return [{ type: 'PronunciationRuleUpdated', data: { ruleId: command.ruleId, changes, version: rule.version + (sounds ? 1 : 0), updated: command.now } }];
      }
      case 'DeleteRule':
        if (!state.rules[command.ruleId]) return notFound();
        return [{ type: 'PronunciationRuleDeleted', data: { ruleId: command.ruleId, deleted: command.now } }];
      case 'RecordPreview': {
        // A preview of a version the rule has left behind (or of a deleted rule) is of no use; one per version is kept.
        const rule = state.rules[command.ruleId];
        if (rule?.version !== command.version || rule.previewed === command.version) return [];
        const { outcome } = command;
        const audioUrl = outcome.status === 'ready' ? outcome.audioUrl : null;
        const reason = outcome.status === 'error' ? outcome.reason : null;
        return [{ type: 'PronunciationPreviewRecorded', data: { ruleId: command.ruleId, version: command.version, status: outcome.status, audioUrl, reason, recorded: command.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
