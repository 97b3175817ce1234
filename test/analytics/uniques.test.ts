// Distinct listeners: sketches merged and counted the quick way (few registers set) give what the registers give.
import { describe, expect, it } from 'vitest';
import { countMerged, decodeSketch, emptySketch, estimate, Sketch } from '../../src/analytics/uniques.ts';

/** A stored sketch of `count` listeners named from `from`. */
function stored(from: number, count: number): string {
  const sketch = new Sketch();
  for (let n = from; n < from + count; n += 1) sketch.add(`listener-${n}`);
  return sketch.encodedWith('');
}

describe('countMerged', () => {
  it.each([0, 1, 3, 40, 200, 330, 400, 1_500, 40_000])('counts %i listeners over three overlapping sketches as their merged registers do', (count) => {
    const texts = [stored(0, count), stored(Math.floor(count / 2), count), stored(0, Math.floor(count / 3)), ''];
    const registers = emptySketch();
    for (const text of texts) decodeSketch(text, registers);
    const merged = countMerged(texts);
    expect(merged).toBe(estimate(registers));
    const distinct = count === 0 ? 0 : Math.floor(count / 2) + count;
    // Within four standard errors (3.25 % each), and exact while few.
    if (distinct <= 40) expect(merged).toBe(distinct);
    else expect(Math.abs(merged - distinct) / distinct).toBeLessThan(0.13);
    // The reused registers are cleared after each count.
    expect(countMerged([stored(0, 1)])).toBe(1);
  });
});

describe('Sketch.addAll', () => {
  // 3 and 40 stay pairs, 200 and 5,000 take the registers; mixed, one side of each.
  it.each([
    [3, 40],
    [40, 3],
    [40, 200],
    [200, 40],
    [5_000, 200],
  ])('merges a sketch of %i listeners with one of %i into the text of one sketch of them all', (left, right) => {
    const [a, b, all] = [new Sketch(), new Sketch(), new Sketch()];
    for (let n = 0; n < left; n += 1) a.add(`listener-${n}`);
    for (let n = left - 2; n < left - 2 + right; n += 1) b.add(`listener-${n}`);
    for (let n = 0; n < left - 2 + right; n += 1) all.add(`listener-${n}`);
    a.addAll(b);
    expect(a.encodedWith('')).toBe(all.encodedWith(''));
    expect(a.encodedWith(stored(9_000, 10))).toBe(all.encodedWith(stored(9_000, 10)));
    // The merged-in sketch is left as it was.
    expect(b.encodedWith('')).toBe(stored(left - 2, right));
  });
});

describe('Sketch.addEncoded', () => {
  // A rebuild's threads hand their projects' sketches over as stored text: taken back, they merge as the sketches did.
  it.each([0, 3, 40, 200, 5_000])('takes back a stored sketch of %i listeners, alone and merged with another', (count) => {
    const taken = new Sketch();
    taken.addEncoded(stored(0, count));
    expect(taken.encodedWith('')).toBe(stored(0, count));
    const merged = new Sketch();
    for (let n = 0; n < 30; n += 1) merged.add(`listener-${count + n - 10}`);
    merged.addEncoded(stored(0, count));
    const all = new Sketch();
    for (let n = 0; n < count; n += 1) all.add(`listener-${n}`);
    for (let n = 0; n < 30; n += 1) all.add(`listener-${count + n - 10}`);
    expect(merged.encodedWith('')).toBe(all.encodedWith(''));
  });
});
