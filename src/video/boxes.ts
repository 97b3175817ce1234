// Rounded caption boxes: libass's own boxes are square, so a rounded box is an ASS vector drawing (`\p1`) laid under
// the words. Drawing one needs the words' widths, measured here with the font files libass will draw with.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { runTool } from '../media/tool.ts';

/** The width in pixels of a text set in a family at a font size, as libass lays it out. */
export type TextMeasure = (text: string, family: string, fontSize: number) => number;

const FONT_FILE = /\.(ttf|otf|ttc)$/i;

function firstFont(file: string, family: string): fontkit.Font | null {
  const opened = fontkit.openSync(file);
  const fonts = 'fonts' in opened ? opened.fonts : [opened];
  return fonts.find((font) => font.familyName === family) ?? fonts[0] ?? null;
}

/**
 * Opens each family's font file: first among the fetched fonts of `fontsDir` (by family name), else the installed
 * font fontconfig matches, as libass finds them.
 */
export async function textMeasure(families: readonly string[], fontsDir: string): Promise<TextMeasure> {
  const fetched = (await readdir(fontsDir).catch(() => [] as string[])).filter((name) => FONT_FILE.test(name)).map((name) => path.join(fontsDir, name));
  const fonts = new Map<string, fontkit.Font | null>();
  for (const family of new Set(families)) {
    let font: fontkit.Font | null = null;
    for (const file of fetched) {
      const candidate = firstFont(file, family);
      if (candidate?.familyName === family) font = candidate;
    }
    if (!font) {
      const match = await runTool('fc-match', ['-f', '%{file}', family], { timeoutMs: 10_000 });
      const file = match.stdout.toString().trim();
      if (match.code === 0 && FONT_FILE.test(file)) font = firstFont(file, family);
    }
    fonts.set(family, font);
  }
  return (text, family, fontSize) => {
    const font = fonts.get(family);
    if (!font) return text.length * fontSize * 0.52;
    // libass sizes a font so that its OS/2 Windows ascent plus descent (hhea's when absent) is the font size.
    const os2 = font['OS/2'];
    const height = os2 && os2.winAscent + os2.winDescent > 0 ? os2.winAscent + os2.winDescent : font.hhea.ascent - font.hhea.descent;
    return (font.layout(text).advanceWidth * fontSize) / height;
  };
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const n = (value: number) => String(Math.round(value * 10) / 10);

/** A rectangle with corners of `radius` (at most half its shorter side) as ASS drawing commands, clockwise. */
export function roundedRect({ x, y, width, height }: Rect, radius: number): string {
  const r = Math.max(0, Math.min(radius, width / 2, height / 2));
  const [right, bottom] = [x + width, y + height];
  if (r < 0.5) return `m ${n(x)} ${n(y)} l ${n(right)} ${n(y)} ${n(right)} ${n(bottom)} ${n(x)} ${n(bottom)}`;
  // A quarter circle as one cubic curve: control points at 0.5523 of the radius from the ends.
  const k = r * (1 - 0.5523);
  return [
    `m ${n(x + r)} ${n(y)}`,
    `l ${n(right - r)} ${n(y)}`,
    `b ${n(right - k)} ${n(y)} ${n(right)} ${n(y + k)} ${n(right)} ${n(y + r)}`,
    `l ${n(right)} ${n(bottom - r)}`,
    `b ${n(right)} ${n(bottom - k)} ${n(right - k)} ${n(bottom)} ${n(right - r)} ${n(bottom)}`,
    `l ${n(x + r)} ${n(bottom)}`,
    `b ${n(x + k)} ${n(bottom)} ${n(x)} ${n(bottom - k)} ${n(x)} ${n(bottom - r)}`,
    `l ${n(x)} ${n(y + r)}`,
    `b ${n(x)} ${n(y + k)} ${n(x + k)} ${n(y)} ${n(x + r)} ${n(y)}`,
  ].join(' ');
}

/**
 * Rectangles as one drawing placed by its top-left corner: the drawing's own coordinates start at 0,0 (libass aligns
 * a drawing by its bounds), and the returned offset says where that corner is relative to the rectangles' origin.
 */
export function drawing(rects: readonly Rect[], radius: number): { commands: string; left: number; top: number } {
  const left = Math.min(...rects.map((rect) => rect.x));
  const top = Math.min(...rects.map((rect) => rect.y));
  const commands = rects.map((rect) => roundedRect({ ...rect, x: rect.x - left, y: rect.y - top }, radius)).join(' ');
  return { commands, left, top };
}
