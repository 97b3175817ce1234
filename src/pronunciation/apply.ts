// Applies an organization's pronunciation rules where a text is spoken, after text normalization: the engine is
// given the rule's way of saying the matched words, and each spoken token keeps the written token it came from,
// so word timings go back to the words as written (src/speech/writtenTimings.ts). Phoneme input (`[[…]]`) comes
// only from an IPA rule's transcription, through phonemeMarkup; everything else is speakable text (src/speech/normalize.ts).
import type { EventStore, RecordedEvent } from '../infrastructure/eventStore/port.ts';
import type { ProjectEvent } from '../projects/events.ts';
import type { SpeechEngine } from '../media/synthesizer.ts';
import { foldStream } from '../shared/decider.ts';
import { normalizeForSpeech, phonemeMarkup, speakable, whitespaceTokens, type NormalizedText, type SpokenToken } from '../speech/normalize.ts';
import { pronunciationDecider } from './decider.ts';
import { pronunciationStream, type RuleFields } from './events.ts';
import { ipaForPiper, ipaToEspeak } from './ipa.ts';

/** Which project and item a text is spoken for. */
export interface SpeakingScope {
  projectId: number;
  contentId: string;
}

/** Who speaks it: the voice's engine and language. */
export interface Speaker {
  engine: SpeechEngine;
  language: { code: string };
}

/** A language rule (`en`) covers every region of it; a regional one (`en_GB`) only itself. */
const coversLanguage = (rule: string | null, language: string) => rule === null || rule === language || (!rule.includes('_') && language.split('_')[0] === rule);

/** The most specific rules first (one item, then one project, then the organization; one language before all), then the longest texts. */
const precedence = (rule: RuleFields) => (rule.contentId ? 0 : rule.projectId ? 2 : 4) + (rule.language ? 0 : 1);

/** The enabled rules of an organization's stream that apply in a scope, in the order they are tried (languages are chosen per voice). */
export function rulesFor(organizationEvents: RecordedEvent[], scope: SpeakingScope): RuleFields[] {
  const { rules } = foldStream(pronunciationDecider, organizationEvents);
  return Object.values(rules)
    .map((rule) => rule.fields)
    .filter((rule) => rule.enabled && (rule.projectId === null || rule.projectId === scope.projectId) && (rule.contentId === null || rule.contentId === scope.contentId))
    .sort((a, b) => precedence(a) - precedence(b) || b.text.split(' ').length - a.text.split(' ').length);
}

/** The rules for an item, from its project's stream (which names the organization) and the organization's rules. */
export async function scopeRulesOf(events: EventStore, projectEvents: RecordedEvent[], scope: SpeakingScope): Promise<RuleFields[]> {
  const created = (projectEvents as unknown as ProjectEvent[]).find((event) => event.type === 'ProjectCreated');
  if (created?.type !== 'ProjectCreated') return [];
  return rulesFor(await events.readStream(pronunciationStream(created.data.organizationId)), scope);
}

const LEAD = /^\p{P}+/u;
const TRAIL = /\p{P}+$/u;
const core = (token: string) => token.replace(LEAD, '').replace(TRAIL, '') || token;

/** The token's punctuation beyond what the rule's own word carries ("Dr." matched by the rule "Dr." keeps none). */
const beyond = (token = '', own = '') => (token.startsWith(own) ? token.slice(own.length) : token);

const matches = (rule: RuleFields, written: readonly string[], at: number, words: readonly string[]) =>
  words.every((word, offset) => {
    const token = written[at + offset];
    if (token === undefined) return false;
    return rule.caseSensitive ? core(token) === core(word) : core(token).toLowerCase() === core(word).toLowerCase();
  });

/** "NASA" → "N.A.S.A.": letters with a dot each are spelled by every engine (a lone "A" would be read as the article); digits stay numbers. */
function spelled(word: string): string[] {
  const letters = [...core(word)];
  if (letters.every((char) => /\p{L}/u.test(char))) return [letters.map((char) => `${char.toUpperCase()}.`).join('')];
  return letters.map((char) => (/\p{L}/u.test(char) ? `${char.toUpperCase()}.` : char));
}

/** The spoken words of a rule for the written words it matched. */
function sayingOf(rule: RuleFields, matched: readonly string[], speaker: Speaker): string[] {
  switch (rule.type) {
    case 'substitute':
      // Normalized as any text is ("5 km" in a replacement is said in words).
      return whitespaceTokens(normalizeForSpeech(rule.replacement!, speaker.language.code).spoken);
    case 'say_as_letter_sequence':
      return matched.flatMap(spelled);
    case 'say_as_word':
      // Lower case: engines spell words in capitals they do not know ("NASA" read as one word, "nasa").
      return matched.map((word) => core(word).toLowerCase());
    case 'ipa_transcription':
      // Pico and RHVoice take no phonemes from text: their voices say the words as written.
      if (speaker.engine === 'pico' || speaker.engine === 'rhvoice') return matched.map(core);
      // Kokoro's phonemes are espeak-ng's IPA too, as Piper's are: both take the transcription the same way.
      return whitespaceTokens(phonemeMarkup(speaker.engine === 'espeak-ng' ? ipaToEspeak(rule.replacement!) : ipaForPiper(rule.replacement!)));
  }
}

/**
 * The normalized text with every match of a rule said the rule's way: a match of k written tokens said as m spoken
 * words gives them to the written tokens in order (the first ones when m < k), and keeps the punctuation around
 * the match, which carries the pauses. Written tokens no rule matches keep their normalized words.
 */
export function applyRules(written: string, normalized: NormalizedText, scopeRules: readonly RuleFields[], speaker: Speaker): NormalizedText {
  const rules = scopeRules.filter((rule) => coversLanguage(rule.language, speaker.language.code));
  if (rules.length === 0) return normalized;
  // What is taken from the written text (a matched word, the punctuation around it) is taken from it as speakable:
  // the only brackets the engine is given are those of a rule's phoneme markup.
  const writtenTokens = whitespaceTokens(speakable(written));
  const byWritten = new Map<number, SpokenToken[]>();
  for (const token of normalized.tokens) byWritten.set(token.written, [...(byWritten.get(token.written) ?? []), token]);
  const tokens: SpokenToken[] = [];
  for (let at = 0; at < writtenTokens.length; ) {
    const rule = rules.find((candidate) => matches(candidate, writtenTokens, at, candidate.text.split(' ')));
    if (!rule) {
      tokens.push(...(byWritten.get(at) ?? []));
      at += 1;
      continue;
    }
    const k = rule.text.split(' ').length;
    const matched = writtenTokens.slice(at, at + k);
    const words = sayingOf(rule, matched, speaker);
    const ruleWords = rule.text.split(' ');
    words[0] = beyond(LEAD.exec(matched[0]!)?.[0], LEAD.exec(ruleWords[0]!)?.[0]) + words[0];
    words[words.length - 1] += beyond(TRAIL.exec(matched[k - 1]!)?.[0], TRAIL.exec(ruleWords[k - 1]!)?.[0]);
    words.forEach((text, j) => tokens.push({ text, written: at + Math.min(k - 1, Math.floor((j * k) / words.length)) }));
    at += k;
  }
  return { spoken: tokens.map((token) => token.text).join(' '), tokens };
}
