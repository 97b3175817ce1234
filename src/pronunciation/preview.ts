// Makes the preview of each pronunciation rule: a short mp3 of the rule said in a sentence, by the default voice
// of its language, recorded on the organization's stream once made. Runs where the generation reactor runs.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { EventStore, RecordedEvent } from '../infrastructure/eventStore/port.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import type { Synthesizer } from '../media/synthesizer.ts';
import { runTool, tail } from '../media/tool.ts';
import { foldStream } from '../shared/decider.ts';
import { normalizeForSpeech } from '../speech/normalize.ts';
import type { VoiceCatalogue } from '../voices/catalogue.ts';
import { applyRules } from './apply.ts';
import { pronunciationDecider } from './decider.ts';
import { PRONUNCIATION_STREAM_PREFIX, pronunciationStream, type PronunciationEvent, type RuleFields } from './events.ts';
import { createRuleHandlers, type PreviewOutcome } from './handlers.ts';
import { rulesAwaitingPreview } from './readModel.ts';

export interface PreviewReactor {
  /** Called for every event the projections applied; ignored until `resume` has run. */
  onEvent(event: RecordedEvent): void;
  /** Makes every preview the read model shows as pending, then follows new events. */
  resume(read: ReadStore): Promise<void>;
}

export interface PreviewDeps {
  events: EventStore;
  synthesizer: Synthesizer;
  voices: VoiceCatalogue;
  /** Served under /media/: previews go to `pronunciation/<rule id>/<version>.mp3` in it. */
  mediaDir: string;
  now: () => Date;
  log: (message: string) => void;
}

/** What a preview says: the rule's text in a short sentence, so its sound is heard in context. */
export const previewSentence = (rule: RuleFields) => `Here is how it sounds: ${rule.text}.`;

export function createPreviewReactor(deps: PreviewDeps): PreviewReactor {
  const handlers = createRuleHandlers(deps.events);
  const underway = new Set<string>();
  let live = false;
  // One preview at a time: they are short, and generation needs the synthesizer more.
  let queue = Promise.resolve();

  const speak = async (ruleId: number, version: number, rule: RuleFields): Promise<PreviewOutcome> => {
    // A rule of a language without a voice is not previewed with another language's.
    const voice = deps.voices.defaultFor(rule.language ?? 'en');
    if (!voice) return { status: 'error', reason: `no voice speaks ${rule.language}` };
    const name = `pronunciation/${ruleId}/${version}`;
    const wavPath = path.join(deps.mediaDir, `${name}.wav`);
    // Earlier versions' previews are no longer pointed at.
    await rm(path.dirname(wavPath), { recursive: true, force: true });
    await mkdir(path.dirname(wavPath), { recursive: true });
    const sentence = previewSentence(rule);
    const spoken = applyRules(sentence, normalizeForSpeech(sentence, voice.language.code), [rule], voice);
    try {
      await deps.synthesizer.speak(spoken.spoken, voice, wavPath);
      const mp3 = await runTool('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wavPath, '-codec:a', 'libmp3lame', '-b:a', '64k', path.join(deps.mediaDir, `${name}.mp3`)], { timeoutMs: 30_000 });
      if (mp3.code !== 0) return { status: 'error', reason: `ffmpeg could not encode the preview: ${mp3.startError?.message ?? tail(mp3.stderr)}` };
      return { status: 'ready', audioUrl: `/media/${name}.mp3` };
    } finally {
      await rm(wavPath, { force: true });
    }
  };

  const make = async (organizationId: number, ruleId: number) => {
    const { rules } = foldStream(pronunciationDecider, await deps.events.readStream(pronunciationStream(organizationId)));
    const rule = rules[ruleId];
    const key = `${ruleId}:${rule?.version}`;
    if (!rule || rule.previewed === rule.version || underway.has(key)) return;
    underway.add(key);
    try {
      const outcome = await speak(ruleId, rule.version, rule.fields).catch((error: unknown): PreviewOutcome => ({ status: 'error', reason: String(error) }));
      await handlers.recordPreview(organizationId, ruleId, rule.version, outcome, deps.now());
    } finally {
      underway.delete(key);
    }
  };

  const request = (organizationId: number, ruleId: number) => {
    queue = queue.then(() => make(organizationId, ruleId)).catch((error: unknown) => deps.log(`could not make the preview of pronunciation rule ${ruleId}: ${String(error)}`));
  };

  return {
    onEvent(recorded) {
      if (!live || !recorded.stream.startsWith(PRONUNCIATION_STREAM_PREFIX)) return;
      const event = recorded as unknown as PronunciationEvent;
      if (event.type === 'PronunciationRuleCreated' || event.type === 'PronunciationRuleUpdated') {
        request(Number(recorded.stream.slice(PRONUNCIATION_STREAM_PREFIX.length)), event.data.ruleId);
      }
    },
    async resume(read) {
      live = true;
      for (const rule of await rulesAwaitingPreview(read)) request(rule.organizationId, rule.id);
    },
  };
}
