import { describe, expect, it } from 'vitest';
import { defaultVideoSettings, type VideoSettings } from '../../src/player/videoSettings.ts';
import { effectiveVideoSettings, videoRequestsOf, type ItemVideoSettings } from '../../src/generation/videoPlan.ts';

const landscape = { name: 'landscape', width: 1280, height: 720 };
const square = { name: 'square', width: 1080, height: 1080 };
const portrait = { name: 'portrait', width: 720, height: 1280 };
const enabled: VideoSettings = { ...defaultVideoSettings, enabled: true };

const requests = (settings: VideoSettings, hasSummary = false) =>
  videoRequestsOf(settings, hasSummary).map(({ variant, size }) => `${variant}:${size.name}:${size.width}x${size.height}`);

describe('which videos an item gets', () => {
  it.each<[string, VideoSettings, boolean, string[]]>([
    ['none while video is off', defaultVideoSettings, true, []],
    ['one per enabled default size', enabled, false, ['article:landscape:1280x720', 'article:square:1080x1080', 'article:portrait:720x1280']],
    ['the summary only when there is one', { ...enabled, variants: ['article', 'summary'], sizes: [{ ...square, enabled: true }] }, true, ['article:square:1080x1080', 'summary:square:1080x1080']],
    ['no summary video without a summary', { ...enabled, variants: ['summary'] }, false, []],
    ['none without variants', { ...enabled, variants: [] }, true, []],
    ['none without an enabled size', { ...enabled, sizes: [{ ...landscape, enabled: false }] }, true, []],
    ['disabled sizes left out', { ...enabled, sizes: [{ ...landscape, enabled: false }, { ...portrait, enabled: true }] }, false, ['article:portrait:720x1280']],
  ])('%s', (_name, settings, hasSummary, expected) => {
    expect(requests(settings, hasSummary)).toEqual(expected);
  });
});

describe('effective settings: project, then template, then item', () => {
  const project: VideoSettings = { ...defaultVideoSettings, textColor: '#111111', textAnimation: 'classic' };

  it('takes the template over the project, field by field, from wire names', () => {
    const settings = effectiveVideoSettings(project, { text_animation: 'karaoke', enabled: true }, null);
    expect(settings).toMatchObject({ textAnimation: 'karaoke', enabled: true, textColor: '#111111' });
  });

  it("takes the item's switch, variants and sizes over both, sizes without `enabled` being enabled", () => {
    const item: ItemVideoSettings = {
      enabled: true,
      variants: ['article', 'teaser'],
      sizes: [{ name: 'wide', width: 1920, height: 1080 }, { name: 'tall', width: 1080, height: 1920, enabled: false }],
    };
    const settings = effectiveVideoSettings(project, { enabled: false, text_animation: 'pop' }, item);
    expect(settings.enabled).toBe(true);
    expect(settings.textAnimation).toBe('pop');
    expect(settings.variants).toEqual(['article']);
    expect(requests(settings)).toEqual(['article:wide:1920x1080']);
  });

  it('lets an item turn video off for itself', () => {
    expect(requests(effectiveVideoSettings(enabled, null, { enabled: false }))).toEqual([]);
  });

  it('keeps the project settings when the item says nothing', () => {
    expect(effectiveVideoSettings(enabled, null, {})).toEqual(enabled);
  });
});
