// ffmpeg expressions of the time `t` that say whether a frame falls inside any of many intervals (an image's slots,
// the videos that hide images): a long video cycling two images has hundreds of them.

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** Overlapping or touching intervals become one; the rest are sorted. */
function merged(intervals: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  for (const [start, end] of [...intervals].filter(([start, end]) => end >= start).sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/**
 * 1 while `t` is inside one of the intervals (milliseconds, from its start to before its end), 0 outside: a search tree of `if`s on the
 * starts, so a frame evaluates about log2(n) comparisons. (A sum of `between` terms evaluates all of them at every
 * frame, and past about a hundred terms ffmpeg's expression parser refuses it.) `0` for no interval.
 */
export function during(intervals: readonly (readonly [number, number])[]): string {
  const sorted = merged(intervals);
  const tree = (from: number, to: number): string => {
    if (to - from === 1) return `gte(t,${seconds(sorted[from]![0])})*lt(t,${seconds(sorted[from]![1])})`;
    const middle = Math.floor((from + to) / 2);
    return `if(lt(t,${seconds(sorted[middle]![0])}),${tree(from, middle)},${tree(middle, to)})`;
  };
  return sorted.length === 0 ? '0' : tree(0, sorted.length);
}
