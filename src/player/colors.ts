// CSS colours and linear gradients: one grammar that validates (zod schemas with plain-word errors) and parses into
// numbers for the renderers, so that every value the schemas accept is one the video renderer can draw.
import { z } from 'zod';
import { NAMED_HEX } from './namedColors.ts';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0 (transparent) to 1 (opaque). */
  a: number;
}

/**
 * Where a gradient goes: a CSS angle (0deg towards the top, 90deg towards the right, clockwise), or a corner (`to top
 * right` is x 1, y -1), whose angle depends on the frame's shape.
 */
export type GradientDirection = { kind: 'angle'; degrees: number } | { kind: 'corner'; x: -1 | 1; y: -1 | 1 };
export interface LinearGradient {
  direction: GradientDirection;
  /** The colours in order; their positions are not kept (the renderer spreads colours evenly). */
  stops: Rgba[];
}
export type Background = { kind: 'color'; color: Rgba } | ({ kind: 'gradient' } & LinearGradient);

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)`;
const HEX = /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/;
const PLAIN = new RegExp(`^${NUMBER}$`);
const PERCENT = new RegExp(`^(${NUMBER})%$`);
const ANGLE = new RegExp(`^(${NUMBER})(deg|grad|rad|turn)$`);
const LENGTH = new RegExp(`^${NUMBER}(?:%|px|em|rem)$`);
const DEGREES_PER: Record<string, number> = { deg: 1, grad: 0.9, rad: 180 / Math.PI, turn: 360 };

/** A finite number of the text, when the whole text is one. */
const plain = (text: string) => (PLAIN.test(text) && Number.isFinite(Number(text)) ? Number(text) : null);
const isZero = (text: string) => plain(text) === 0;

/** An angle in degrees: a number with `deg`, `grad`, `rad` or `turn`, or a zero; hues also take a plain number of degrees. */
function angle(text: string, plainDegrees: boolean): number | null {
  const match = ANGLE.exec(text);
  if (match) {
    const degrees = Number(match[1]) * DEGREES_PER[match[2]!]!;
    return Number.isFinite(degrees) ? degrees : null;
  }
  const number = plain(text);
  return number !== null && (plainDegrees || number === 0) ? number : null;
}

/** A number from 0 to `max`, or a percentage of `max` (from 0 % to 100 %), as a number from 0 to `max`. */
function amount(text: string, max: number, numbers: boolean): number | null {
  const percent = PERCENT.exec(text);
  const value = percent ? (Number(percent[1]) / 100) * max : numbers ? plain(text) : null;
  return value !== null && value >= 0 && value <= max ? value : null;
}

function fromHex(hex: string): Rgba {
  const full = hex.length <= 4 ? [...hex].map((digit) => digit + digit).join('') : hex;
  const byte = (at: number) => parseInt(full.slice(at, at + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) / 255 : 1 };
}

function fromHsl(hue: number, s: number, l: number): [number, number, number] {
  const h = ((hue % 360) + 360) % 360;
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** `rgb()`, `rgba()`, `hsl()` and `hsla()`, in the comma syntax and the space syntax with `/ alpha` (lowercase text). */
function colorFunction(text: string): Rgba | null {
  const match = /^(rgba?|hsla?)\(([^()]*)\)$/.exec(text);
  if (!match) return null;
  const inner = match[2]!.trim();
  const modern = !inner.includes(',');
  let parts: string[];
  if (modern) {
    const [channels = '', opacity, ...rest] = inner.split('/').map((part) => part.trim());
    const values = channels.split(/\s+/);
    if (rest.length > 0 || values.length !== 3) return null;
    parts = opacity === undefined ? values : [...values, opacity];
  } else {
    parts = inner.split(',').map((part) => part.trim());
    if (parts.length !== 3 && parts.length !== 4) return null;
  }
  const [first = '', second = '', third = '', opacity] = parts;
  const a = opacity === undefined ? 1 : amount(opacity, 1, true);
  if (a === null) return null;
  if (match[1]!.startsWith('rgb')) {
    const [r, g, b] = [first, second, third].map((part) => amount(part, 255, true));
    return r == null || g == null || b == null ? null : { r: Math.round(r), g: Math.round(g), b: Math.round(b), a };
  }
  const [h, s, l] = [angle(first, true), amount(second, 1, modern), amount(third, 1, modern)];
  if (h === null || s === null || l === null) return null;
  const [r, g, b] = fromHsl(h, s, l);
  return { r: Math.round(r), g: Math.round(g), b: Math.round(b), a };
}

/** A CSS colour as numbers, or null when the text is none. */
export function parseCssColor(value: string): Rgba | null {
  const text = value.trim().toLowerCase();
  if (text === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const hex = HEX.exec(text);
  if (hex) return fromHex(hex[1]!);
  const named = NAMED_HEX.get(text);
  return named ? fromHex(named) : colorFunction(text);
}

/** Splits at a separator outside parentheses: `a(b, c), d` → [`a(b, c)`, `d`]; trimmed parts, none when unbalanced. */
export function splitTopLevel(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (depth < 0) return [];
    if (depth === 0 && separator.test(char)) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  return depth === 0 ? [...parts, current].map((part) => part.trim()) : [];
}

const SIDES: Record<string, { axis: 'x' | 'y'; sign: -1 | 1 }> = {
  left: { axis: 'x', sign: -1 },
  right: { axis: 'x', sign: 1 },
  top: { axis: 'y', sign: -1 },
  bottom: { axis: 'y', sign: 1 },
};
const SIDE_DEGREES = { x: { '-1': 270, '1': 90 }, y: { '-1': 0, '1': 180 } } as const;

/** `to <side>`, `to <side> <side>` (one of each axis, in either order), an angle, or a zero. */
function directionOf(text: string): GradientDirection | null {
  const words = text.split(/\s+/);
  if (words[0] !== 'to') {
    const degrees = words.length === 1 ? angle(text, false) : null;
    return degrees === null ? null : { kind: 'angle', degrees };
  }
  const sides = words.slice(1).map((word) => SIDES[word]);
  if (sides.length < 1 || sides.length > 2 || sides.some((side) => side === undefined)) return null;
  const [first, second] = sides as { axis: 'x' | 'y'; sign: -1 | 1 }[];
  if (!second) return { kind: 'angle', degrees: SIDE_DEGREES[first!.axis][first!.sign] };
  if (first!.axis === second.axis) return null;
  const [x, y] = first!.axis === 'x' ? [first!.sign, second.sign] : [second.sign, first!.sign];
  return { kind: 'corner', x, y };
}

/** A colour stop: a colour, then at most two positions (lengths, percentages or zeros). */
function stopOf(text: string): Rgba | null {
  const [color = '', ...positions] = splitTopLevel(text, /\s/).filter((token) => token !== '');
  const ok = positions.length <= 2 && positions.every((position) => LENGTH.test(position) || isZero(position));
  return ok ? parseCssColor(color) : null;
}

/** `linear-gradient([<angle> | to <side> [<side>],] <colour stop>, <colour stop>, ...)`, or null; `to bottom` by default. */
export function parseLinearGradient(value: string): LinearGradient | null {
  const match = /^linear-gradient\((.*)\)$/s.exec(value.trim().toLowerCase());
  if (!match) return null;
  const parts = splitTopLevel(match[1]!, /,/);
  const direction = directionOf(parts[0] ?? '');
  const stops = (direction ? parts.slice(1) : parts).map(stopOf);
  if (stops.length < 2 || stops.some((stop) => stop === null)) return null;
  return { direction: direction ?? { kind: 'angle', degrees: 180 }, stops: stops as Rgba[] };
}

/** A colour or a linear gradient, or null. */
export function parseCssBackground(value: string): Background | null {
  const color = parseCssColor(value);
  if (color) return { kind: 'color', color };
  const gradient = parseLinearGradient(value);
  return gradient ? { kind: 'gradient', ...gradient } : null;
}

export const isCssColor = (value: string) => parseCssColor(value) !== null;
export const isLinearGradient = (value: string) => parseLinearGradient(value) !== null;

const COLOR_MESSAGE = 'must be a CSS colour: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(), hsla(), a colour name or transparent';

/** A CSS colour of at most 100 characters. */
export const cssColor = z.string().trim().max(100).refine(isCssColor, COLOR_MESSAGE);

/** A CSS colour, or a `linear-gradient(...)` of colours for backgrounds. */
export const cssBackground = z
  .string()
  .trim()
  .max(500)
  .refine(
    (value) => parseCssBackground(value) !== null,
    `${COLOR_MESSAGE}, or linear-gradient([<angle> | to <side> [<side>],] <colour> [<position>], <colour> [<position>], ...) with angles in deg, grad, rad or turn`,
  );
