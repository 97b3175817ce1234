// The facts of an organization's pronunciation rules, all in one stream (`pronunciation-<organization id>`):
// generation folds it to know the rules, and uniqueness of a rule's text within its scope is decided there.
import type { RuleType } from './commands.ts';

/** A rule as stored: `contentId` is the item's UUID, whatever kind of id the client sent. */
export type RuleFields = {
  projectId: number | null;
  contentId: string | null;
  language: string | null;
  type: RuleType;
  text: string;
  replacement: string | null;
  caseSensitive: boolean;
  enabled: boolean;
};

export type PronunciationRuleCreated = {
  type: 'PronunciationRuleCreated';
  data: { ruleId: number; organizationId: number; fields: RuleFields; created: string };
};
export type PronunciationRuleUpdated = {
  type: 'PronunciationRuleUpdated';
  /** `version` grows when the change alters how the rule sounds, so its preview is made again. */
  data: { ruleId: number; changes: Partial<RuleFields>; version: number; updated: string };
};
export type PronunciationRuleDeleted = { type: 'PronunciationRuleDeleted'; data: { ruleId: number; deleted: string } };
export type PronunciationPreviewRecorded = {
  type: 'PronunciationPreviewRecorded';
  /** `audioUrl` is a path under /media/ when `ready`; `reason` says what failed when `error`. */
  data: { ruleId: number; version: number; status: 'ready' | 'error'; audioUrl: string | null; reason: string | null; recorded: string };
};

export type PronunciationEvent = PronunciationRuleCreated | PronunciationRuleUpdated | PronunciationRuleDeleted | PronunciationPreviewRecorded;

export const PRONUNCIATION_STREAM_PREFIX = 'pronunciation-';
export const pronunciationStream = (organizationId: number) => `${PRONUNCIATION_STREAM_PREFIX}${organizationId}`;
