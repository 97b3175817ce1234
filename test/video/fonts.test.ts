// The font of each run of caption text: a script the first of `text_fonts` lacks is set in the next listed font
// that covers it (an installed family, or a fetched file, whose character set is read from the file), else in the
// Noto family installed for that script.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { scriptFonts } from '../../src/video/fonts.ts';

const fileOf = (family: string) => execFileSync('fc-list', [`${family}:style=Regular`, 'file'], { encoding: 'utf8' }).split(':')[0]!.trim();
const ARABIC = 'مرحبا';

describe('caption fonts per script', () => {
  it('takes the next listed font that covers the script, installed or fetched', async () => {
    expect((await scriptFonts([{ family: 'Noto Sans' }, { family: 'Noto Naskh Arabic' }], ['Hello', ARABIC], 'ar_SA'))(ARABIC)).toBe('Noto Naskh Arabic');
    const fetched = [{ family: 'Noto Sans' }, { family: 'Naskh From A File', file: fileOf('Noto Naskh Arabic') }];
    const fontFor = await scriptFonts(fetched, ['Hello', ARABIC], 'ar_SA');
    expect(fontFor(ARABIC)).toBe('Naskh From A File');
    expect(fontFor('Hello')).toBeNull();
  });

  it("falls back to the script's Noto font when no listed font covers it, and leaves covered scripts alone", async () => {
    const uncovering = [{ family: 'Noto Sans' }, { family: 'Latin Only', file: fileOf('Noto Sans') }];
    expect((await scriptFonts(uncovering, [ARABIC], 'ar_SA'))(ARABIC)).toBe('Noto Sans Arabic');
    expect((await scriptFonts([{ family: 'Noto Sans CJK JP' }], ['日本語'], 'ja_JP'))('日本語')).toBeNull();
    expect((await scriptFonts([{ family: 'Noto Sans' }], ['日本語'], 'ja_JP'))('日本語')).toBe('Noto Sans CJK JP');
  });
});
