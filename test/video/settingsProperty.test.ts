// Every value of every video-settings field the preview accepts renders: generated settings through
// POST /projects/{p}/video_settings/preview answer 200 or 422 at a field, never a 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let projectId: number;
beforeAll(async () => {
  server = await startServer();
  projectId = (await server.request('POST', '/v1/projects', { body: { name: 'Property desk' } })).body.id;
});
afterAll(() => server.stop());

const sign = fc.constantFrom('', '+', '-');
const digits = fc.oneof(fc.integer({ min: 0, max: 400 }).map(String), fc.double({ min: 0, max: 1000, noNaN: true }).map((value) => value.toFixed(3)), fc.constantFrom('.5', '1.', '0', '00', '1e3', '99999999999999999999'));
const number = fc.tuple(sign, digits).map(([s, d]) => `${s}${d}`);
const unit = fc.constantFrom('deg', 'rad', 'grad', 'turn', 'DEG', '', '%', 'px');
const angle = fc.tuple(number, unit).map(([n, u]) => `${n}${u}`);
const side = fc.constantFrom('left', 'right', 'top', 'bottom', 'middle');
const direction = fc.oneof(angle, fc.constant('0'), fc.tuple(side, fc.option(side, { nil: undefined })).map(([a, b]) => `to ${a}${b ? ` ${b}` : ''}`));
const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFg'), minLength: 0, maxLength: 9 }).map((h) => `#${h}`);
const named = fc.constantFrom('red', 'RebeccaPurple', 'transparent', 'blu', 'currentColor', 'white');
const rgb = fc
  .tuple(fc.constantFrom('rgb', 'rgba', 'RGB', 'hsl', 'hsla'), fc.array(fc.oneof(number, angle, number.map((n) => `${n}%`)), { minLength: 2, maxLength: 5 }), fc.constantFrom(', ', ' ', ',', ' / '))
  .map(([name, parts, separator]) => `${name}(${parts.join(separator)})`);
const color = fc.oneof(hex, named, rgb);
const position = fc.oneof(number.map((n) => `${n}%`), number.map((n) => `${n}px`), fc.constant('0'), number);
const stop = fc.tuple(color, fc.array(position, { maxLength: 3 })).map(([c, p]) => [c, ...p].join(' '));
const gradient = fc
  .tuple(fc.option(direction, { nil: undefined }), fc.array(stop, { minLength: 1, maxLength: 10 }))
  .map(([d, stops]) => `linear-gradient(${[...(d === undefined ? [] : [d]), ...stops].join(', ')})`);
const junk = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.constant(null), fc.boolean());
const background = fc.oneof(color, gradient, junk);
const colorField = fc.oneof({ weight: 4, arbitrary: color }, { weight: 1, arbitrary: gradient }, { weight: 1, arbitrary: junk });
const length = fc.tuple(number, fc.constantFrom('px', '', 'em')).map(([n, u]) => `${n}${u}`);
const shadow = fc.oneof(fc.constantFrom('none', ''), fc.tuple(fc.array(length, { minLength: 1, maxLength: 4 }), fc.option(color, { nil: undefined })).map(([ls, c]) => [...ls, ...(c ? [c] : [])].join(' ')), junk);
const stroke = fc.oneof(fc.constantFrom('none', ''), fc.tuple(length, fc.constantFrom('', 'solid '), color).map(([l, s, c]) => `${l} ${s}${c}`), junk);
const between = (min: number, max: number) => fc.oneof(fc.integer({ min, max }), fc.double({ min: min - 100, max: max + 100, noNaN: true, noDefaultInfinity: true }), junk);
const oneOf = (...values: unknown[]) => fc.oneof(fc.constantFrom(...values), junk);
const animations = ['none', 'fade', 'zoom-in', 'zoom-out', 'slide-up', 'slide-down', 'slide-left', 'slide-right', 'pop'];
/** Small frames keep a run's renders quick; sides outside 16 to 3840 are refused before any rendering. */
const side16 = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 16, max: 96 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 1, 15, 17, 95, 3841, 7680, 16.5, -16) });
const size = fc.record({ name: fc.constantFrom('a', 'b', ''), width: side16, height: side16, enabled: fc.boolean() });

/** Every field with values both in and outside what it accepts. */
const fields: Record<string, fc.Arbitrary<unknown>> = {
    enabled: fc.oneof(fc.boolean(), junk),
    logo_image_url: oneOf(null, 'http://127.0.0.1:1/logo.png', 'not a url'),
    logo_image_position: oneOf('top-left', 'top-right'),
    background_color: background,
    text_transform: oneOf('none', 'uppercase', 'lowercase', 'titlecase'),
    text_background_color: colorField,
    text_color: colorField,
    text_secondary_color: fc.oneof(colorField, fc.constant(null)),
    text_highlight_color: fc.oneof(colorField, fc.constant(null)),
    text_highlight_secondary_color: fc.oneof(colorField, fc.constant(null)),
    text_highlight_background_color: colorField,
    text_shadow: shadow,
    text_highlight_shadow: fc.oneof(shadow, fc.constant(null)),
    text_stroke: stroke,
    text_highlight_stroke: fc.oneof(stroke, fc.constant(null)),
    text_fonts: fc.oneof(fc.array(fc.constantFrom('Noto Sans', 'DejaVu Serif', 'No Such Font', 'https://127.0.0.1:1/font.ttf', ''), { maxLength: 3 }), junk),
    text_font_size: between(30, 90),
    text_lines: fc.oneof(between(1, 5), fc.constant(null)),
    text_words: fc.oneof(between(1, 100), fc.constant(null)),
    text_horizontal_align: oneOf('start', 'center', 'end'),
    text_vertical_align: oneOf('start', 'center', 'end'),
    text_animation: oneOf('classic', 'reveal', 'karaoke', 'pop'),
    entrance_animation: oneOf(...animations),
    exit_animation: oneOf(...animations),
    waveform_color: colorField,
    content_image_enabled: fc.boolean(),
    image_extraction_enabled: fc.boolean(),
    pan_and_zoom_enabled: fc.boolean(),
    audio_and_waveform_enabled: fc.boolean(),
    text_captions_enabled: fc.boolean(),
    playback_mode: oneOf('cycle', 'space-evenly', 'follow-article'),
    cycle_time: between(1000, 60_000),
    variants: fc.oneof(fc.array(fc.constantFrom('article', 'summary', 'other'), { maxLength: 3 }), junk),
    sizes: fc.array(size, { minLength: 1, maxLength: 2 }),
    template: oneOf(null, { id: 999_999 }, { id: 0 }, { id: 'x' }),
    text_background_radius: between(0, 200),
    text_highlight_background_radius: between(0, 200),
    text_width: between(10, 100),
    text_horizontal_offset: between(-50, 50),
    text_vertical_offset: between(-50, 50),
    sample_text: fc.oneof(fc.constant('Short and clear.'), fc.string({ maxLength: 40 }), fc.constantFrom('-', '…', '\u200b', '?!', '()')),
};

/** One to three fields over a small frame: a body with few fields reaches the renderer often enough to test it. */
const settings = fc
  .array(fc.oneof(...Object.entries(fields).map(([key, values]) => values.map((value) => ({ [key]: value })))), { minLength: 1, maxLength: 3 })
  .map((chosen) => Object.assign({ sizes: [{ name: 'small', width: 64, height: 48, enabled: true }] }, ...chosen) as Record<string, unknown>);

describe('video settings, generated', () => {
  it('preview as 200 or as a 422 naming fields, never a 5xx', async () => {
    let rendered = 0;
    await fc.assert(
      fc.asyncProperty(settings, async (body) => {
        const reply = await server.request('POST', `/v1/projects/${projectId}/video_settings/preview`, { body });
        expect([200, 422], `${reply.status} for ${JSON.stringify(body)}: ${JSON.stringify(reply.body)}`).toContain(reply.status);
        if (reply.status === 422) expect(reply.body.errors.length).toBeGreaterThan(0);
        else rendered += 1;
      }),
      { numRuns: 60 },
    );
    // The generators are meant to reach the renderer, not only the schema.
    expect(rendered).toBeGreaterThan(3);
  }, 240_000);
});
