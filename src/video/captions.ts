// Writes the captions of a video as an ASS subtitle script that libass draws: one event per scene (classic) or per
// word being read (reveal, karaoke, pop), under it the caption and highlight backgrounds: libass's per-glyph boxes, or
// rounded boxes drawn as vector shapes when a radius is set.
import { isCssColor } from '../player/colors.ts';
import type { VideoSettings } from '../player/videoSettings.ts';
import { drawing, type Rect, type TextMeasure } from './boxes.ts';
import { captionScenes, type CaptionWord, type Scene } from './layout.ts';
import { assAlpha, assColor, assStyleColor, parseColor, type Rgba } from './paint.ts';
import type { TimedSegment } from './port.ts';

export interface CaptionRequest {
  segments: readonly TimedSegment[];
  settings: VideoSettings;
  width: number;
  height: number;
  language: string;
  durationMs: number;
  /** The family libass is asked for first; glyphs it lacks fall back to fonts that cover them. */
  fontFamily: string;
  /** The family of a word in a script the caption family lacks, if any. */
  fontFor?: (word: string) => string | null;
  /** Word widths as libass lays them out: given, the caption and highlight boxes are drawn with rounded corners. */
  measure?: TextMeasure;
}

/** How long entrance and exit animations last. */
const ANIMATION_MS = 250;
/** Lines are broken at about this share of the font size per character (Latin average; full-width counts double). */
const CHAR_WIDTH = 0.52;
const RIGHT_TO_LEFT = /^(ar|he|fa|ur|ps|yi|dv|ug|ckb)(_|-|$)/i;
const WITHOUT_SPACES = /^(ja|zh|th|lo|km|my)(_|-|$)/i;

/** Whether a box the captions show has rounded corners, and so is drawn from measured words rather than by libass. */
export function roundedBoxes(settings: VideoSettings): boolean {
  const highlight = settings.textAnimation === 'karaoke' && parseColor(settings.textHighlightBackgroundColor).a > 0 && settings.textHighlightBackgroundRadius > 0;
  return highlight || (parseColor(settings.textBackgroundColor).a > 0 && settings.textBackgroundRadius > 0);
}

/** Defaults of `text_lines` by frame shape: four lines fit a landscape frame, five the others. */
export const defaultLines = (width: number, height: number) => (width > height ? 4 : 5);

interface Look {
  color: Rgba;
  stroke: { width: number; color: Rgba };
  /** `blur` is the CSS blur radius, in the frame's pixels. */
  shadow: { x: number; y: number; blur: number; color: Rgba };
}

/**
 * libass's `\blur` value for a CSS blur radius. CSS blurs a shadow with a Gaussian of σ = radius / 2; libass's `\blur b`
 * is a Gaussian of σ = 2b / √ln 256 (measured on its edges: σ ≈ 0.84 b).
 */
const BLUR_PER_RADIUS = Math.sqrt(Math.log(256)) / 4;
const blurred = (look: Look) => look.shadow.blur > 0 && look.shadow.color.a > 0;

export function captionScript(request: CaptionRequest): string {
  const { settings, width, height } = request;
  const scale = Math.min(width, height) / 720;
  const fontSize = Math.round(settings.textFontSize * scale);
  const blockWidth = (width * settings.textWidth) / 100;
  const scenes = captionScenes(request.segments, {
    lines: settings.textLines ?? defaultLines(width, height),
    words: settings.textWords,
    blockWidth,
    charWidth: fontSize * CHAR_WIDTH,
    separator: WITHOUT_SPACES.test(request.language) ? '' : ' ',
    durationMs: request.durationMs,
    transform: transformer(settings.textTransform, request.language.replace('_', '-')),
  });
  const writer = new SceneWriter(request, scale, fontSize, blockWidth);
  const events = scenes.flatMap((scene, index) => writer.events(scene, index));
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    writer.style('Text', 1),
    writer.style('Box', 3),
    writer.style('Shape', 1),
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events,
    '',
  ].join('\n');
}

function transformer(transform: VideoSettings['textTransform'], locale: string): (text: string) => string {
  const tag = Intl.getCanonicalLocales(locale).length > 0 ? locale : 'en';
  if (transform === 'uppercase') return (text) => text.toLocaleUpperCase(tag);
  if (transform === 'lowercase') return (text) => text.toLocaleLowerCase(tag);
  if (transform === 'titlecase') return (text) => text.replace(/^\p{Ll}/u, (first) => first.toLocaleUpperCase(tag));
  return (text) => text;
}

/** `2px 2px 4px rgba(...)`: the first shadow's offsets, blur radius and colour. */
function cssShadow(css: string | null, scale: number): Look['shadow'] | null {
  if (css === null) return null;
  if (css.trim() === 'none' || css.trim() === '') return { x: 0, y: 0, blur: 0, color: { r: 0, g: 0, b: 0, a: 0 } };
  const first = css.split(/,(?![^(]*\))/)[0]!.trim();
  const color = /(#[0-9a-f]+|(?:rgba?|hsla?)\([^)]*\)|[a-z]+)\s*$/i.exec(first)?.[1];
  const named = color !== undefined && isCssColor(color);
  const lengths = (named ? first.replace(color, '') : first).trim().split(/\s+/).map(parseFloat).filter(Number.isFinite);
  const blur = Math.max(0, lengths[2] ?? 0) * scale;
  return { x: (lengths[0] ?? 0) * scale, y: (lengths[1] ?? 0) * scale, blur, color: parseColor(named ? color : 'black') };
}

/** `2px #000` (as `-webkit-text-stroke`): an outline of that width and colour. */
function cssStroke(css: string | null, scale: number): Look['stroke'] | null {
  if (css === null) return null;
  if (css.trim() === 'none' || css.trim() === '') return { width: 0, color: { r: 0, g: 0, b: 0, a: 0 } };
  const width = parseFloat(css) || 0;
  const color = css.replace(/^\s*[\d.]+(px)?\s*/, '').replace(/^solid\s+/, '').trim();
  return { width: width * scale, color: parseColor(isCssColor(color) ? color : 'black') };
}

/**
 * A look's tags: the text with its shadow, or, when a shadow is blurred, the text alone and the shadow alone in two
 * events. libass's `\blur` blurs the glyphs too when there is no outline, so a blurred shadow is drawn by an event of
 * its own, under the text: its fill nearly transparent (`&HFE&`: a fully transparent fill makes libass drop the shadow,
 * this one adds at most one level), its outline transparent but kept wide, as the shadow's shape includes it.
 */
const override = (look: Look, part: 'both' | 'text' | 'shadow' = 'both') => {
  const stroke = `\\bord${look.stroke.width.toFixed(1)}\\3c${assColor(look.stroke.color)}\\3a${part === 'shadow' ? '&HFF&' : assAlpha(look.stroke.color)}`;
  const fill = `\\1c${assColor(look.color)}\\1a${part === 'shadow' ? '&HFE&' : assAlpha(look.color)}`;
  const { shadow } = look;
  if (part === 'text') return `${fill}${stroke}\\shad0`;
  const shadowTags = `\\xshad${shadow.x.toFixed(1)}\\yshad${shadow.y.toFixed(1)}\\4c${assColor(shadow.color)}\\4a${assAlpha(shadow.color)}`;
  return `${fill}${stroke}${shadowTags}` + (part === 'shadow' ? `\\blur${(shadow.blur * BLUR_PER_RADIUS).toFixed(2)}` : '');
};

const time = (ms: number) => {
  const centiseconds = Math.max(0, Math.round(ms / 10));
  const h = Math.floor(centiseconds / 360_000);
  const m = Math.floor(centiseconds / 6000) % 60;
  const s = Math.floor(centiseconds / 100) % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(centiseconds % 100).padStart(2, '0')}`;
};

/** Braces and backslashes would start ASS override tags: they are shown as look-alikes. */
const escape = (text: string) => text.replace(/\{/g, '⦃').replace(/\}/g, '⦄').replace(/\\/g, '⧵');

/** What an event of a step draws: the words' boxes, their shadows alone, or the words (with their shadows, if not apart). */
type Layer = 'box' | 'shadow' | 'text';
const part = (layer: Layer, shadowApart: boolean) => (layer === 'shadow' ? 'shadow' : shadowApart ? 'text' : 'both');

class SceneWriter {
  private readonly normal: Look[];
  private readonly highlight: Look[];
  private readonly box: Rgba;
  private readonly highlightBox: Rgba;
  private readonly padding: number;
  /** Corner radii of the caption and highlight boxes, in the frame's pixels. */
  private readonly radius: number;
  private readonly highlightRadius: number;
  private readonly anchor: { an: number; x: number; y: number };

  constructor(
    private readonly request: CaptionRequest,
    scale: number,
    private readonly fontSize: number,
    blockWidth: number,
  ) {
    const { settings, width, height } = request;
    const stroke = cssStroke(settings.textStroke, scale)!;
    const shadow = cssShadow(settings.textShadow, scale)!;
    const primary = parseColor(settings.textColor);
    const secondary = settings.textSecondaryColor ? parseColor(settings.textSecondaryColor) : primary;
    this.normal = [primary, secondary].map((color) => ({ color, stroke, shadow }));
    const highlight = settings.textHighlightColor ? parseColor(settings.textHighlightColor) : null;
    const highlightSecondary = settings.textHighlightSecondaryColor ? parseColor(settings.textHighlightSecondaryColor) : highlight;
    this.highlight = [highlight, highlightSecondary].map((color, parity) => ({
      color: color ?? this.normal[parity]!.color,
      stroke: cssStroke(settings.textHighlightStroke, scale) ?? stroke,
      shadow: cssShadow(settings.textHighlightShadow, scale) ?? shadow,
    }));
    this.box = parseColor(settings.textBackgroundColor);
    // A transparent highlight background keeps the caption's box behind the word, not a hole in it.
    const highlightBox = parseColor(settings.textHighlightBackgroundColor);
    this.highlightBox = highlightBox.a > 0 ? highlightBox : this.box;
    // Boxes of adjacent lines overlap by twice this: kept small so the overlap stays a thin seam.
    this.padding = Math.max(2, Math.round(fontSize * 0.12));
    this.radius = settings.textBackgroundRadius * scale;
    this.highlightRadius = settings.textHighlightBackgroundRadius * scale;
    this.anchor = anchorOf(settings, width, height, blockWidth, RIGHT_TO_LEFT.test(request.language));
  }

  style(name: string, borderStyle: 1 | 3): string {
    const base = this.normal[0]!;
    const transparent = '&HFF000000';
    const fields =
      borderStyle === 3
        ? [transparent, transparent, assStyleColor(this.box), transparent, 0, 0, 3, this.padding, 0]
        : [assStyleColor(base.color), assStyleColor(base.color), assStyleColor(base.stroke.color), assStyleColor(base.shadow.color), 0, 0, 1, base.stroke.width.toFixed(1), 0];
    const [primary, secondary, outline, back, bold, italic, border, outlineWidth, shadow] = fields;
    return `Style: ${name},${this.request.fontFamily},${this.fontSize},${primary},${secondary},${outline},${back},${bold},${italic},0,0,100,100,0,0,${border},${outlineWidth},${shadow},${this.anchor.an},0,0,0,${RIGHT_TO_LEFT.test(this.request.language) ? -1 : 1}`;
  }

  /**
   * The scene's events: one for classic, one per word otherwise; boxes on layer 0 under the text on layer 1. A step whose
   * shadow is blurred has its shadows in an event of their own, on layer 1 before the text (libass draws the events of a
   * layer in the script's order).
   */
  events(scene: Scene, index: number): string[] {
    const animation = this.request.settings.textAnimation;
    const words = scene.lines.flat();
    const steps = animation === 'classic' ? [{ current: -1, start: scene.start, end: scene.end }] : wordSteps(words, scene.end);
    const showBoxes = this.box.a > 0 || (animation === 'karaoke' && this.highlightBox.a > 0);
    return steps.flatMap((step, at) => {
      const head = this.motion(at === 0, at === steps.length - 1, step.end - step.start);
      const looks = [this.normal[index % 2]!, ...(animation === 'karaoke' && step.current >= 0 ? [this.highlight[index % 2]!] : [])];
      const shadowApart = looks.some(blurred);
      // Tags are written only where they change: a long scene would otherwise repeat them at every word of every step.
      const text = (layer: Layer) => {
        let previous = '';
        return scene.lines
          .map((line) =>
            line
              .map((word) => {
                const tags = this.tags(word, words.indexOf(word), step.current, index % 2, layer, shadowApart);
                const written = (tags === previous ? '' : `{${tags}}`) + escape(word.text);
                previous = tags;
                return written;
              })
              .join(this.separator),
          )
          .join('\\N');
      };
      const event = (layer: number, style: string, body: string) => `Dialogue: ${layer},${time(step.start)},${time(step.end)},${style},,0,0,0,,{${head}}${body}`;
      const layers: Layer[] = shadowApart ? ['shadow', 'text'] : ['text'];
      const texts = layers.map((layer) => event(1, 'Text', `{${override(this.normal[index % 2]!, part(layer, shadowApart))}}${text(layer)}`));
      if (!showBoxes) return texts;
      if (!this.request.measure) return [event(0, 'Box', text('box')), ...texts];
      // Rounded boxes: the caption's line boxes, then the highlight box over them, each a drawing moved as the words are.
      const { lines, highlight } = this.boxes(scene, step.current);
      const shape = (rects: Rect[], radius: number, color: Rgba) => {
        const drawn = drawing(rects, radius);
        const head = this.motion(at === 0, at === steps.length - 1, step.end - step.start, drawn);
        return `Dialogue: 0,${time(step.start)},${time(step.end)},Shape,,0,0,0,,{${head}\\1c${assColor(color)}\\1a${assAlpha(color)}\\bord0\\shad0\\p1}${drawn.commands}`;
      };
      const shapes = [];
      if (this.box.a > 0 && lines.length > 0) shapes.push(shape(lines, this.radius, this.box));
      if (highlight && animation === 'karaoke' && this.highlightBox !== this.box) shapes.push(shape([highlight], this.highlightRadius, this.highlightBox));
      return [...shapes, ...texts];
    });
  }

  /**
   * Where the boxes of a scene's step are, relative to the anchor: one per line around its shown words (the unread
   * words of reveal and pop have none) and one around the word being read, with the caption box's padding.
   */
  private boxes(scene: Scene, current: number): { lines: Rect[]; highlight: Rect | null } {
    const measure = this.request.measure!;
    const { fontSize, padding: pad } = this;
    const family = this.request.fontFamily;
    const animation = this.request.settings.textAnimation;
    const rightToLeft = RIGHT_TO_LEFT.test(this.request.language);
    const space = this.separator === '' ? 0 : measure(this.separator, family, fontSize);
    const { an } = this.anchor;
    const count = scene.lines.length;
    // libass sets lines a font size apart and aligns the block on the anchor by its row, each line by its column.
    const blockTop = an <= 3 ? -count * fontSize : an <= 6 ? (-count * fontSize) / 2 : 0;
    const column = ((an - 1) % 3) + 1;
    const lines: Rect[] = [];
    let highlight: Rect | null = null;
    let at = 0;
    scene.lines.forEach((line, row) => {
      const widths = line.map((word) => measure(word.text, this.request.fontFor?.(word.text) ?? family, fontSize));
      const width = widths.reduce((sum, each) => sum + each, 0) + space * (line.length - 1);
      const left = column === 1 ? 0 : column === 2 ? -width / 2 : -width;
      const top = blockTop + row * fontSize - pad;
      let offset = 0;
      const spans = widths.map((each) => {
        const start = rightToLeft ? width - offset - each : offset;
        offset += each + space;
        return { x: left + start - pad, end: left + start + each + pad };
      });
      const shown = spans.filter((_, index) => !((animation === 'reveal' || animation === 'pop') && current >= 0 && at + index > current));
      if (shown.length > 0) {
        const x = Math.min(...shown.map((span) => span.x));
        lines.push({ x, y: top, width: Math.max(...shown.map((span) => span.end)) - x, height: fontSize + 2 * pad });
      }
      if (current >= at && current < at + line.length) {
        const span = spans[current - at]!;
        highlight = { x: span.x, y: top, width: span.end - span.x, height: fontSize + 2 * pad };
      }
      at += line.length;
    });
    return { lines, highlight };
  }

  private get separator() {
    return WITHOUT_SPACES.test(this.request.language) ? '' : ' ';
  }

  /** One word's tags: hidden until read (reveal, pop), highlighted while read (karaoke), scaled in (pop). */
  private tags(word: CaptionWord, at: number, current: number, parity: number, layer: Layer, shadowApart: boolean): string {
    const animation = this.request.settings.textAnimation;
    const hidden = (animation === 'reveal' || animation === 'pop') && current >= 0 && at > current;
    const reading = at === current;
    const tags: string[] = [];
    if (layer === 'box') {
      const box = animation === 'karaoke' && reading ? this.highlightBox : this.box;
      tags.push(`\\3c${assColor(box)}\\3a${hidden ? '&HFF&' : assAlpha(box)}`);
    } else if (hidden) tags.push('\\alpha&HFF&');
    else tags.push(override((animation === 'karaoke' && reading ? this.highlight : this.normal)[parity]!, part(layer, shadowApart)));
    if (animation === 'pop' && reading) tags.push('\\fscx40\\fscy40\\t(0,120,\\fscx112\\fscy112)\\t(120,200,\\fscx100\\fscy100)');
    else if (animation === 'pop') tags.push('\\fscx100\\fscy100');
    if (layer === 'box' && !hidden) tags.push('\\1a&HFF&');
    if (this.request.fontFor) tags.push(`\\fn${this.request.fontFor(word.text) ?? this.request.fontFamily}`);
    return tags.join('');
  }

  /** Position, and the scene's entrance on its first event and exit on its last. */
  private motion(first: boolean, last: boolean, length: number, shape?: { left: number; top: number }): string {
    const { entranceAnimation: entrance, exitAnimation: exit } = this.request.settings;
    const span = Math.min(ANIMATION_MS, Math.floor(length / 2));
    // A drawing is placed by its top-left corner, its offset from the anchor added.
    const an = shape ? 7 : this.anchor.an;
    const [x, y] = shape ? [Math.round(this.anchor.x + shape.left), Math.round(this.anchor.y + shape.top)] : [this.anchor.x, this.anchor.y];
    const shift = Math.round(this.request.height * 0.05);
    const offsets: Record<string, [number, number]> = { 'slide-up': [0, shift], 'slide-down': [0, -shift], 'slide-left': [shift, 0], 'slide-right': [-shift, 0] };
    const tags = [`\\an${an}`];
    const slideIn = first ? offsets[entrance] : undefined;
    const slideOut = last && !slideIn ? offsets[exit] : undefined;
    if (slideIn) tags.push(`\\move(${x + slideIn[0]},${y + slideIn[1]},${x},${y},0,${span})`);
    else if (slideOut) tags.push(`\\move(${x},${y},${x - slideOut[0]},${y - slideOut[1]},${length - span},${length})`);
    else tags.push(`\\pos(${x},${y})`);
    const fadeIn = first && (entrance === 'fade' || entrance.startsWith('slide')) ? span : 0;
    const fadeOut = last && (exit === 'fade' || exit.startsWith('slide')) ? span : 0;
    if (fadeIn || fadeOut) tags.push(`\\fad(${fadeIn},${fadeOut})`);
    const scaleIn: Record<string, string> = {
      'zoom-in': `\\fscx80\\fscy80\\t(0,${span},\\fscx100\\fscy100)`,
      'zoom-out': `\\fscx125\\fscy125\\t(0,${span},\\fscx100\\fscy100)`,
      pop: `\\fscx30\\fscy30\\t(0,${Math.round(span * 0.7)},\\fscx110\\fscy110)\\t(${Math.round(span * 0.7)},${span},\\fscx100\\fscy100)`,
    };
    const scaleOut: Record<string, string> = {
      'zoom-in': `\\t(${length - span},${length},\\fscx125\\fscy125\\alpha&HFF&)`,
      'zoom-out': `\\t(${length - span},${length},\\fscx80\\fscy80\\alpha&HFF&)`,
      pop: `\\t(${length - span},${length - Math.round(span * 0.7)},\\fscx110\\fscy110)\\t(${length - Math.round(span * 0.7)},${length},\\fscx0\\fscy0)`,
    };
    if (first && scaleIn[entrance]) tags.push(scaleIn[entrance]);
    if (last && scaleOut[exit]) tags.push(scaleOut[exit]);
    return tags.join('');
  }
}

/** Reveal, karaoke and pop change at every word: a step from each word's start to the next's. */
function wordSteps(words: CaptionWord[], sceneEnd: number) {
  return words.map((word, at) => ({ current: at, start: at === 0 ? Math.min(word.start, sceneEnd) : word.start, end: words[at + 1]?.start ?? sceneEnd }));
}

/** Where the caption block is anchored: the block (text_width wide) sits centred, aligned inside by the settings, then offset. */
function anchorOf(settings: VideoSettings, width: number, height: number, blockWidth: number, rightToLeft: boolean) {
  const flip = { start: 'end', center: 'center', end: 'start' } as const;
  const horizontal = rightToLeft ? flip[settings.textHorizontalAlign] : settings.textHorizontalAlign;
  const left = (width - blockWidth) / 2;
  const x = { start: left, center: width / 2, end: left + blockWidth }[horizontal];
  const margin = height * 0.07;
  const y = { start: margin, center: height / 2, end: height - margin }[settings.textVerticalAlign];
  const column = { start: 1, center: 2, end: 3 }[horizontal];
  const row = { start: 6, center: 3, end: 0 }[settings.textVerticalAlign];
  return {
    an: row + column,
    x: Math.round(x + (width * settings.textHorizontalOffset) / 100),
    y: Math.round(y + (height * settings.textVerticalOffset) / 100),
  };
}
