// CSS colour values as players and video renderers accept them, as zod schemas with plain-word errors.
import { z } from 'zod';

const NAMED_COLORS = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood ' +
    'cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray ' +
    'darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen ' +
    'darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue ' +
    'firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew ' +
    'hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan ' +
    'lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray ' +
    'lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid ' +
    'mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream ' +
    'mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen ' +
    'paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown ' +
    'royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow ' +
    'springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen transparent'
  ).split(' '),
);

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)`;
const PLAIN = new RegExp(`^${NUMBER}$`);
const PERCENT = new RegExp(`^(${NUMBER})%$`);
const ANGLE = new RegExp(`^${NUMBER}(?:deg|rad|grad|turn)?$`, 'i');
const LENGTH = new RegExp(`^(?:${NUMBER}(?:%|px|em|rem)|0)$`, 'i');

const within = (text: string, pattern: RegExp, max: number) => {
  const match = pattern.exec(text);
  return match !== null && Number(match[1] ?? match[0]) >= 0 && Number(match[1] ?? match[0]) <= max;
};
const channel = (part: string) => within(part, PLAIN, 255) || within(part, PERCENT, 100);
const alpha = (part: string) => within(part, PLAIN, 1) || within(part, PERCENT, 100);
const lightness = (part: string, modern: boolean) => within(part, PERCENT, 100) || (modern && within(part, PLAIN, 100));

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

/** `rgb()`, `rgba()`, `hsl()` and `hsla()`, in the comma syntax and the space syntax with `/ alpha`. */
function isColorFunction(value: string): boolean {
  const match = /^(rgba?|hsla?)\(([^()]*)\)$/i.exec(value);
  if (!match) return false;
  const name = match[1]!.toLowerCase();
  const inner = match[2]!.trim();
  const modern = !inner.includes(',');
  let parts: string[];
  if (modern) {
    const [channels = '', opacity, ...rest] = inner.split('/').map((part) => part.trim());
    if (rest.length > 0) return false;
    parts = [...channels.split(/\s+/), ...(opacity === undefined ? [] : [opacity])];
    if (channels.split(/\s+/).length !== 3) return false;
  } else {
    parts = inner.split(',').map((part) => part.trim());
    if (parts.length !== 3 && parts.length !== 4) return false;
  }
  const [first = '', second = '', third = '', opacity] = parts;
  if (opacity !== undefined && !alpha(opacity)) return false;
  return name.startsWith('rgb')
    ? channel(first) && channel(second) && channel(third)
    : ANGLE.test(first) && lightness(second, modern) && lightness(third, modern);
}

export function isCssColor(value: string): boolean {
  const text = value.trim();
  return HEX.test(text) || NAMED_COLORS.has(text.toLowerCase()) || isColorFunction(text);
}

/** `linear-gradient([to <side> [<side>] | <angle>,] <color> [<stop>], <color> [<stop>], ...)`. */
export function isLinearGradient(value: string): boolean {
  const match = /^linear-gradient\((.*)\)$/is.exec(value.trim());
  if (!match) return false;
  const parts = splitTopLevel(match[1]!, /,/);
  const direction = parts[0] ?? '';
  const sides = /^to\s+(left|right|top|bottom)(\s+(left|right|top|bottom))?$/i.test(direction);
  const stops = sides || (ANGLE.test(direction) && !PLAIN.test(direction)) || direction === '0' ? parts.slice(1) : parts;
  return (
    stops.length >= 2 &&
    stops.every((stop) => {
      const [color = '', ...positions] = splitTopLevel(stop, /\s/).filter((token) => token !== '');
      return isCssColor(color) && positions.length <= 2 && positions.every((position) => LENGTH.test(position));
    })
  );
}

const COLOR_MESSAGE = 'must be a CSS colour: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(), hsla(), a colour name or transparent';

/** A CSS colour of at most 100 characters. */
export const cssColor = z.string().trim().max(100).refine(isCssColor, COLOR_MESSAGE);

/** A CSS colour, or a `linear-gradient(...)` of colours for backgrounds. */
export const cssBackground = z
  .string()
  .trim()
  .max(500)
  .refine((value) => isCssColor(value) || isLinearGradient(value), `${COLOR_MESSAGE}, or linear-gradient(to right, <colour>, <colour>, ...)`);
