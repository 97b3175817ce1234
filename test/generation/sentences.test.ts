// Where a text segment is cut into the sentences a neural engine is given one at a time.
import { describe, expect, it } from 'vitest';
import { sentencesOf } from '../../src/generation/sentences.ts';
import { normalizeForSpeech } from '../../src/speech/normalize.ts';

const sentences = (text: string, language: string) => sentencesOf(normalizeForSpeech(text, language).tokens);

describe('sentences', () => {
  it('cuts English where espeak-ng ends a sentence, not before a small letter', () => {
    expect(sentences('The ferry left at 6 p.m. on Monday. It came back! Did it? yes.', 'en_US')).toEqual([
      'The ferry left at six p.m. on Monday.',
      'It came back!',
      'Did it? yes.',
    ]);
  });

  it('cuts Japanese and Chinese after each full-width stop, though they have no spaces, and keeps every character', () => {
    const japanese = '東京都は3月14日、計画を発表しました。工事は5月に始まり、2年かかる見込みです！「本当？」と聞かれた。';
    expect(sentences(japanese, 'ja_JP')).toEqual(['東京都は3月14日、計画を発表しました。', '工事は5月に始まり、2年かかる見込みです！', '「本当？」と聞かれた。']);
    const chinese = '北京市政府宣布，将在城市北部种3200棵树。工程将于5月开始？预计持续两年。';
    expect(sentences(chinese, 'zh_CN')).toEqual(['北京市政府宣布，将在城市北部种3200棵树。', '工程将于5月开始？', '预计持续两年。']);
    expect(sentences(chinese, 'zh_CN').join('')).toBe(normalizeForSpeech(chinese, 'zh_CN').spoken);
  });

  it('leaves phoneme markup whole', () => {
    const tokens = [{ text: '[[a.b。c]]', written: 0 }, { text: 'Next.', written: 1 }];
    expect(sentencesOf(tokens)).toEqual(['[[a.b。c]] Next.']);
  });
});
