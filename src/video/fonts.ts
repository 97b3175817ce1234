// Caption fonts: `text_fonts` names are looked up by libass among the installed fonts; URLs are fetched once into a
// cache directory libass reads as its fonts directory. Which font files libass drew with is read from its log.
import { createHash } from 'node:crypto';
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { runTool } from '../media/tool.ts';
import { download, type AssetLimits } from './assets.ts';

export type FontLimits = AssetLimits;

/** Installed by `npm run setup` (fonts-noto-core): covers Latin, Greek and Cyrillic; other scripts fall back by coverage. */
export const DEFAULT_FONT = 'Noto Sans';

const present = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/** The family the captions ask for first: the first of `text_fonts`, a fetched file's own family name for a URL. */
export async function resolveFonts(textFonts: readonly string[], cacheDir: string, limits: FontLimits, signal?: AbortSignal): Promise<{ family: string }> {
  const families: string[] = [];
  for (const font of textFonts) {
    if (!/^https:\/\//i.test(font)) {
      families.push(font);
      continue;
    }
    await mkdir(cacheDir, { recursive: true });
    const file = path.join(cacheDir, createHash('sha256').update(font).digest('hex').slice(0, 32) + path.extname(new URL(font).pathname).toLowerCase());
    if (!(await present(file))) await download(font, file, limits, signal);
    const scan = await runTool('fc-scan', ['--format', '%{family[0]}', file], { timeoutMs: 10_000 });
    const family = scan.stdout.toString().trim();
    if (scan.code === 0 && family !== '') families.push(family);
  }
  return { family: families[0] ?? DEFAULT_FONT };
}

/** libass at `-v verbose` logs `fontselect: (Family, weight, italic) -> /path/file.ttf, index, PostScriptName` per font it picks. */
export function chosenFonts(log: string): string[] {
  const files = [...log.matchAll(/fontselect: \(.*?\) -> (.+?), \d+, /g)].map((match) => match[1]!);
  return [...new Set(files)];
}

/** The installed Noto family for each script that Latin fonts lack, by a sample character; Han follows the language. */
const SCRIPTS: { script: RegExp; sample: string; family: (language: string) => string }[] = [
  { script: /\p{Script=Arabic}/u, sample: '0627', family: () => 'Noto Sans Arabic' },
  { script: /\p{Script=Hebrew}/u, sample: '05d0', family: () => 'Noto Sans Hebrew' },
  { script: /[\p{Script=Hiragana}\p{Script=Katakana}]/u, sample: '3042', family: () => 'Noto Sans CJK JP' },
  { script: /\p{Script=Hangul}/u, sample: 'ac00', family: () => 'Noto Sans CJK KR' },
  { script: /\p{Script=Han}/u, sample: '5b57', family: (language) => (/^zh/i.test(language) ? 'Noto Sans CJK SC' : /^ko/i.test(language) ? 'Noto Sans CJK KR' : 'Noto Sans CJK JP') },
  { script: /\p{Script=Devanagari}/u, sample: '0915', family: () => 'Noto Sans Devanagari' },
  { script: /\p{Script=Bengali}/u, sample: '0995', family: () => 'Noto Sans Bengali' },
  { script: /\p{Script=Tamil}/u, sample: '0b95', family: () => 'Noto Sans Tamil' },
  { script: /\p{Script=Thai}/u, sample: '0e01', family: () => 'Noto Sans Thai' },
];

/** fontconfig pattern syntax: `-`, `:`, `,` and `\` are escaped in family names. */
const pattern = (family: string, charset?: string) => family.replace(/[-:,\\]/g, (char) => `\\${char}`) + (charset ? `:charset=${charset}` : '');

async function hasFont(family: string, charset?: string): Promise<boolean> {
  const run = await runTool('fc-list', [pattern(family, charset), 'family'], { timeoutMs: 10_000 });
  return run.code === 0 && run.stdout.toString().trim() !== '';
}

/** Picks a font per word: a word in a script the caption family does not cover is set in the Noto family of that script. */
export type FontForWord = (word: string) => string | null;

export async function scriptFonts(family: string, words: readonly string[], language: string): Promise<FontForWord> {
  const needed = SCRIPTS.filter(({ script }) => words.some((word) => script.test(word)));
  const chosen: { script: RegExp; family: string }[] = [];
  for (const entry of needed) {
    const fallback = entry.family(language);
    if (!(await hasFont(family, entry.sample)) && (await hasFont(fallback))) chosen.push({ script: entry.script, family: fallback });
  }
  return (word) => chosen.find(({ script }) => script.test(word))?.family ?? null;
}
