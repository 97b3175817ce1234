import { describe, expect, it } from 'vitest';
import { isCssColor, isLinearGradient } from '../../src/player/colors.ts';

describe('CSS colours', () => {
  it.each([
    '#fff', '#FFFA', '#1a2b3c', '#1a2b3c80', 'red', 'RebeccaPurple', 'transparent',
    'rgb(0, 128, 255)', 'rgba(0,128,255,0.5)', 'rgba(0 128 255 / 50%)', 'rgb(10% 20% 30%)',
    'hsl(210, 40%, 20%)', 'hsla(210deg, 40%, 20%, .3)', 'hsl(0.5turn 40% 20% / 0.3)',
  ])('accepts %s', (value) => expect(isCssColor(value)).toBe(true));

  it.each([
    '', '#ff', '#fffff', '#ggg', 'blu', 'rgb(256, 0, 0)', 'rgb(-1, 0, 0)', 'rgb(1, 2)', 'rgb(1 2 3 4)',
    'rgba(1, 2, 3, 1.5)', 'hsl(10, 20, 30)', 'hsl(10, 120%, 30%)', 'red;', 'url(x.png)', 'var(--x)', 'currentColor',
  ])('refuses %j', (value) => expect(isCssColor(value)).toBe(false));
});

describe('linear gradients', () => {
  it.each([
    'linear-gradient(to right, #fcf, #fcc)',
    'linear-gradient(to top left, red 10%, rgba(0, 0, 255, 0.5) 50% 80%)',
    'linear-gradient(90deg, hsl(0 100% 50%), transparent)',
    'linear-gradient(red, blue, green)',
    'linear-gradient(0.25turn, red, blue)', 'linear-gradient(1.2rad, red, blue)', 'linear-gradient(+90deg, red, blue)',
    'linear-gradient(0, red, blue)', 'linear-gradient(-0.5turn, red, blue)', 'linear-gradient(100grad, red 0, blue)',
    'linear-gradient(to right top, red, blue)', 'LINEAR-GRADIENT(To Bottom, Red, #00F)',
  ])('accepts %s', (value) => expect(isLinearGradient(value)).toBe(true));

  it.each([
    'linear-gradient(to right, #fcf)', 'linear-gradient(to right, red, nope)', 'linear-gradient(to right, red, blue',
    'radial-gradient(red, blue)', 'linear-gradient(90, red, blue)', 'linear-gradient(to middle, red, blue)',
    'linear-gradient(to left right, red, blue)', 'linear-gradient(to, red, blue)', 'linear-gradient(90 deg, red, blue)',
    'linear-gradient(1e3deg, red, blue)', 'linear-gradient(red 10, blue)', 'linear-gradient(, red, blue)',
  ])('refuses %s', (value) => expect(isLinearGradient(value)).toBe(false));
});
