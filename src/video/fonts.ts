// Caption fonts: `text_fonts` names are looked up by libass among the installed fonts; URLs are fetched once into a
// cache directory libass reads as its fonts directory, once the media intake found them to be ttf, otf, woff or woff2
// (kept under our name with that extension). Which font files libass drew with is read from its log.
import { createHash, randomUUID } from 'node:crypto';
import { access, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { admitFormat, allowedNames, FORMATS } from '../media/intake.ts';
import { runTool } from '../media/tool.ts';
import { admitted, download, type AssetLimits } from './assets.ts';

export type FontLimits = AssetLimits;

/** Installed by `npm run setup` (fonts-noto-core): covers Latin, Greek and Cyrillic; other scripts fall back by coverage. */
export const DEFAULT_FONT = 'Noto Sans';

const present = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/** One of `text_fonts`: an installed family, or the family of a fetched file (which fontconfig does not list). */
export interface CaptionFont {
  family: string;
  file?: string;
}

/**
 * `text_fonts` in order, a fetched file's own family name for a URL; `family` is the one the captions ask for first
 * (the default font when none is usable).
 */
export async function resolveFonts(textFonts: readonly string[], cacheDir: string, limits: FontLimits, signal?: AbortSignal): Promise<{ family: string; fonts: CaptionFont[] }> {
  const families: CaptionFont[] = [];
  for (const font of textFonts) {
    if (!/^https:\/\//i.test(font)) {
      families.push({ family: font });
      continue;
    }
    await mkdir(cacheDir, { recursive: true });
    const stem = path.join(cacheDir, createHash('sha256').update(font).digest('hex').slice(0, 32));
    const file = (await cachedFont(stem)) ?? (await fetchFont(font, stem, limits, signal));
    const scan = await runTool('fc-scan', ['--format', '%{family[0]}', file], { timeoutMs: 10_000 });
    const family = scan.stdout.toString().trim();
    if (scan.code === 0 && family !== '') families.push({ family, file });
  }
  return { family: families[0]?.family ?? DEFAULT_FONT, fonts: families.length > 0 ? families : [{ family: DEFAULT_FONT }] };
}

const FONT_EXTENSIONS = allowedNames('font').map((name) => FORMATS[name].extension);

async function cachedFont(stem: string): Promise<string | undefined> {
  for (const extension of FONT_EXTENSIONS) if (await present(`${stem}.${extension}`)) return `${stem}.${extension}`;
  return undefined;
}

/** Fetched under a name of its own (renders may fetch the same font at once), kept as `stem.<sniffed extension>`. */
async function fetchFont(url: string, stem: string, limits: FontLimits, signal?: AbortSignal): Promise<string> {
  const scratch = `${stem}.${randomUUID()}.download`;
  await download(url, scratch, limits, signal);
  const format = await admitted(url, scratch, () => admitFormat(scratch, 'font', url));
  const file = `${stem}.${format.extension}`;
  await rename(scratch, file);
  return file;
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

/** Whether a font file's character set (fc-scan's hexadecimal ranges, `600-604 61e-6ff`) holds a character. */
async function fileCovers(file: string, sample: string): Promise<boolean> {
  const run = await runTool('fc-scan', ['--format', '%{charset}', file], { timeoutMs: 10_000 });
  const code = parseInt(sample, 16);
  return run.stdout
    .toString()
    .trim()
    .split(/\s+/)
    .some((range) => {
      const [low, high = low] = range.split('-').map((hex) => parseInt(hex, 16));
      return low! <= code && code <= high!;
    });
}

const covers = (font: CaptionFont, sample: string) => (font.file ? fileCovers(font.file, sample) : hasFont(font.family, sample));

/** Picks a font per word: the family of a word in a script the caption family does not cover. */
export type FontForWord = (word: string) => string | null;

/**
 * For each script the words use that the first of `fonts` lacks: the next of `fonts` that covers it, else the Noto
 * family installed for that script.
 */
export async function scriptFonts(fonts: readonly CaptionFont[], words: readonly string[], language: string): Promise<FontForWord> {
  const [first, ...others] = fonts;
  const needed = SCRIPTS.filter(({ script }) => words.some((word) => script.test(word)));
  const chosen: { script: RegExp; family: string }[] = [];
  for (const entry of needed) {
    if (first && (await covers(first, entry.sample))) continue;
    let family: string | null = null;
    for (const other of others) {
      if (await covers(other, entry.sample)) {
        family = other.family;
        break;
      }
    }
    const fallback = entry.family(language);
    family ??= (await hasFont(fallback)) ? fallback : null;
    if (family) chosen.push({ script: entry.script, family });
  }
  return (word) => chosen.find(({ script }) => script.test(word))?.family ?? null;
}
