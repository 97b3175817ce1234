// CSS colours and backgrounds (parsed by the grammar that validated them, src/player/colors.ts) turned into numbers
// for ASS and ffmpeg: colours, and the line a gradient is drawn along in a frame.
import { parseCssBackground, parseCssColor, type Background, type GradientDirection, type Rgba } from '../player/colors.ts';

export type { Background, Rgba };

/** A colour the schemas accepted; anything else is a bug of the caller, not bad input. */
export function parseColor(css: string): Rgba {
  const color = parseCssColor(css);
  if (!color) throw new RangeError(`not a CSS colour: ${css}`);
  return color;
}

/** A background the schemas accepted: a colour or a linear gradient. */
export function parseBackground(css: string): Background {
  const background = parseCssBackground(css);
  if (!background) throw new RangeError(`not a CSS colour or linear gradient: ${css}`);
  return background;
}

/** The gradient's direction in a frame as a unit vector, x to the right and y down; corners depend on the frame's shape. */
function unitVector(direction: GradientDirection, width: number, height: number): [number, number] {
  if (direction.kind === 'corner') {
    // CSS: the line is perpendicular to the diagonal between the two other corners.
    const [x, y] = [direction.x * height, direction.y * width];
    const length = Math.hypot(x, y);
    return [x / length, y / length];
  }
  const radians = (direction.degrees * Math.PI) / 180;
  return [Math.sin(radians), -Math.cos(radians)];
}

/**
 * How a gradient is drawn in a frame of `width` × `height`: a left-to-right gradient `length` long (CSS's gradient
 * line: the projections of the frame's corners on the direction) and `breadth` wide (the frame's extent across it),
 * turned clockwise by `rotation` radians about its centre, which is the frame's. ffmpeg's `gradients` source is only
 * used left to right: along other lines its colours come out uneven and different from one run to the next (5.1).
 */
export interface GradientGeometry {
  length: number;
  breadth: number;
  rotation: number;
}

export function gradientGeometry(direction: GradientDirection, width: number, height: number): GradientGeometry {
  const [dx, dy] = unitVector(direction, width, height);
  // Two pixels more each way, so that the turned picture covers the frame's corners.
  const length = Math.ceil(Math.abs(width * dx) + Math.abs(height * dy)) + 2;
  const breadth = Math.ceil(Math.abs(width * dy) + Math.abs(height * dx)) + 2;
  // 0 when the line points right (90deg); a clockwise turn on screen, where y points down.
  return { length, breadth, rotation: Math.atan2(dy, dx) };
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
