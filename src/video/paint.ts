// CSS colours and backgrounds (already validated by src/player/colors.ts) turned into numbers for ASS and ffmpeg.
import { splitTopLevel } from '../player/colors.ts';
import { NAMED_HEX } from './namedColors.ts';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0 (transparent) to 1 (opaque). */
  a: number;
}

export type Background = { kind: 'color'; color: Rgba } | { kind: 'gradient'; vertical: boolean; reversed: boolean; stops: Rgba[] };

const clamp = (value: number, max: number) => Math.min(max, Math.max(0, value));
const fraction = (part: string, max: number) => (part.endsWith('%') ? (Number(part.slice(0, -1)) / 100) * max : Number(part));

function fromHex(hex: string): Rgba {
  const full = hex.length <= 4 ? [...hex].map((digit) => digit + digit).join('') : hex;
  const byte = (at: number) => parseInt(full.slice(at, at + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) / 255 : 1 };
}

function hue(part: string): number {
  const value = parseFloat(part);
  if (part.endsWith('turn')) return value * 360;
  if (part.endsWith('grad')) return value * 0.9;
  if (part.endsWith('rad')) return (value * 180) / Math.PI;
  return value;
}

function fromHsl(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

export function parseColor(css: string): Rgba {
  const text = css.trim().toLowerCase();
  if (text === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  if (text.startsWith('#')) return fromHex(text.slice(1));
  const named = NAMED_HEX.get(text);
  if (named) return fromHex(named);
  const match = /^(rgba?|hsla?)\((.*)\)$/.exec(text);
  if (!match) throw new RangeError(`not a CSS colour: ${css}`);
  const parts = match[2]!.split(/[\s,/]+/).filter((part) => part !== '');
  const a = parts[3] === undefined ? 1 : clamp(fraction(parts[3], 1), 1);
  if (match[1]!.startsWith('rgb')) {
    const [r, g, b] = parts.slice(0, 3).map((part) => Math.round(clamp(fraction(part, 255), 255)));
    return { r: r!, g: g!, b: b!, a };
  }
  const percent = (part: string) => clamp(parseFloat(part) / 100, 1);
  const [r, g, b] = fromHsl(((hue(parts[0]!) % 360) + 360) % 360, percent(parts[1]!), percent(parts[2]!));
  return { r: Math.round(r), g: Math.round(g), b: Math.round(b), a };
}

/** A colour or a `linear-gradient(...)`: its direction (to right by default in the renderer's terms) and its colours in order. */
export function parseBackground(css: string): Background {
  const match = /^linear-gradient\((.*)\)$/is.exec(css.trim());
  if (!match) return { kind: 'color', color: parseColor(css) };
  const parts = splitTopLevel(match[1]!, /,/);
  const first = parts[0]!.toLowerCase();
  const side = /^to\s+(left|right|top|bottom)/.exec(first)?.[1];
  const angle = /^(-?[\d.]+)deg$/.exec(first)?.[1];
  const stops = (side || angle ? parts.slice(1) : parts).map((stop) => parseColor(splitTopLevel(stop, /\s/)[0]!));
  // Angles are rounded to the nearest side: 90deg is to right, 180deg (CSS's default) to bottom.
  const degrees = angle === undefined ? (side ? { top: 0, right: 90, bottom: 180, left: 270 }[side]! : 180) : ((Number(angle) % 360) + 360) % 360;
  const quadrant = Math.round(degrees / 90) % 4;
  return { kind: 'gradient', vertical: quadrant % 2 === 0, reversed: quadrant === 0 || quadrant === 3, stops };
}

const hex2 = (value: number) => Math.round(value).toString(16).padStart(2, '0').toUpperCase();

/** ASS writes colours blue-green-red: `&HBBGGRR&`. */
export const assColor = ({ r, g, b }: Rgba) => `&H${hex2(b)}${hex2(g)}${hex2(r)}&`;
/** ASS alpha counts transparency: `&H00&` is opaque. */
export const assAlpha = ({ a }: Rgba) => `&H${hex2(255 - a * 255)}&`;
/** The `&HAABBGGRR` of ASS style lines. */
export const assStyleColor = (color: Rgba) => `&H${hex2(255 - color.a * 255)}${assColor(color).slice(2, -1)}`;
/** ffmpeg's `0xRRGGBB@alpha`. */
export const ffmpegColor = ({ r, g, b, a }: Rgba) => `0x${hex2(r)}${hex2(g)}${hex2(b)}@${a.toFixed(3)}`;
