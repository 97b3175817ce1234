// Distinct listeners as a HyperLogLog sketch: 1,024 registers (a standard error of 1.04/√1024 ≈ 3.25 %), kept
// sparse (only the registers set) while few are set, so a cell with a handful of listeners costs a few bytes.
// Sketches merge by taking each register's largest value, so hours add up to days and devices to totals.
const P = 10;
const M = 1 << P;
/** Past this many registers set, the dense form (M bytes) is smaller than the sparse one (3 bytes a register). */
const SPARSE_MOST = Math.floor(M / 3);
const ALPHA = 0.7213 / (1 + 1.079 / M);

export type Registers = Uint8Array;

export const emptySketch = (): Registers => new Uint8Array(M);

/**
 * A 53-bit hash of the id (cyrb53: two 32-bit multiply-xorshift lanes mixed together). Not for secrets: a register
 * and a rank need well spread bits, which it gives at a tenth of an MD5's cost (a rebuild hashes every listen).
 */
function hash53(id: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < id.length; i += 1) {
    const code = id.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The register a listener's id falls in, and its rank there: the position of the first 1 bit in the next 32 bits (1-based), at most 33. */
function placeOf(id: string): { index: number; rank: number } {
  const hash = hash53(id);
  const rest = Math.floor(hash / M) % 4294967296;
  return { index: hash % M, rank: rest === 0 ? 33 : Math.clz32(rest) + 1 };
}

export function mergeInto(target: Registers, source: Registers): void {
  for (let i = 0; i < M; i += 1) if (source[i]! > target[i]!) target[i] = source[i]!;
}

/** 2^-rank for every rank a register holds (0 to 33, and any byte a stored sketch may carry): no power taken per register. */
const INVERSE_POWERS = Float64Array.from({ length: 256 }, (_, rank) => 2 ** -rank);

/** The estimated count, rounded; small counts by linear counting, which is exact while no two listeners share a register. */
export function estimate(registers: Registers): number {
  let sum = 0;
  let zeros = 0;
  for (let i = 0; i < M; i += 1) {
    const rank = registers[i]!;
    sum += INVERSE_POWERS[rank]!;
    if (rank === 0) zeros += 1;
  }
  const raw = (ALPHA * M * M) / sum;
  if (raw <= 2.5 * M && zeros > 0) return Math.round(M * Math.log(M / zeros));
  return Math.round(raw);
}

/** As stored: base64 of `s` + (index, rank) triples while sparse, `d` + the M registers once dense; '' when empty. */
export function encodeSketch(registers: Registers): string {
  let set = 0;
  for (let i = 0; i < M; i += 1) if (registers[i] !== 0) set += 1;
  if (set === 0) return '';
  if (set > SPARSE_MOST) return `d${Buffer.from(registers).toString('base64')}`;
  const pairs: [number, number][] = [];
  for (let i = 0; i < M; i += 1) if (registers[i] !== 0) pairs.push([i, registers[i]!]);
  return sparseText(pairs);
}

/** Sparse (index, rank) pairs as stored, in index order. */
function sparseText(pairs: [number, number][]): string {
  const bytes = Buffer.alloc(pairs.length * 3);
  pairs.forEach(([index, rank], at) => {
    bytes.writeUInt16BE(index, at * 3);
    bytes[at * 3 + 2] = rank;
  });
  return `s${bytes.toString('base64')}`;
}

/** Pairs a sketch being built holds before it takes the M registers. */
const FEW_PAIRS = 64;

/**
 * A sketch being built in memory (a rebuild builds hundreds of thousands): a few (index, rank) pairs while few
 * listeners are in it, the registers past that. Stored as `encodeSketch` stores the same registers.
 */
export class Sketch {
  private pairs: [number, number][] | null = [];
  private registers: Registers | null = null;

  add(id: string): void {
    const { index, rank } = placeOf(id);
    this.raise(index, rank);
  }

  /** Adds the listeners of another sketch: the registers of both merged, as if each had been added here. */
  addAll(other: Sketch): void {
    if (other.registers) {
      this.registers ??= this.densePairs();
      mergeInto(this.registers, other.registers);
    } else for (const [index, rank] of other.pairs!) this.raise(index, rank);
  }

  /** Adds the listeners of a stored sketch (its text). */
  addEncoded(text: string): void {
    forEachRegister(text, (index, rank) => {
      if (rank > 0) this.raise(index, rank);
    });
  }

  private raise(index: number, rank: number): void {
    if (this.registers) {
      if (rank > this.registers[index]!) this.registers[index] = rank;
      return;
    }
    const pairs = this.pairs!;
    const pair = pairs.find(([at]) => at === index);
    if (pair) pair[1] = Math.max(pair[1], rank);
    else if (pairs.length < FEW_PAIRS) pairs.push([index, rank]);
    else {
      this.registers = this.densePairs();
      this.raise(index, rank);
    }
  }

  /** The registers of the pairs held, which this sketch keeps from then on. */
  private densePairs(): Registers {
    const registers = emptySketch();
    for (const [at, atRank] of this.pairs ?? []) registers[at] = atRank;
    this.pairs = null;
    return registers;
  }

  /** The stored text of this sketch merged with `stored` (a stored sketch's text). */
  encodedWith(stored: string): string {
    if (stored === '' && this.pairs) return this.pairs.length === 0 ? '' : sparseText([...this.pairs].sort((a, b) => a[0] - b[0]));
    const registers = decodeSketch(stored);
    if (this.registers) mergeInto(registers, this.registers);
    for (const [index, rank] of this.pairs ?? []) if (rank > registers[index]!) registers[index] = rank;
    return encodeSketch(registers);
  }
}

/** Each (index, rank) a stored sketch holds, as `visit(index, rank)`; ranks of 0 too where it is dense. */
function forEachRegister(text: string, visit: (index: number, rank: number) => void): void {
  if (text === '') return;
  const bytes = Buffer.from(text.slice(1), 'base64');
  if (text[0] === 'd') for (let i = 0; i < M && i < bytes.length; i += 1) visit(i, bytes[i]!);
  else for (let at = 0; at + 2 < bytes.length; at += 3) visit(((bytes[at]! << 8) | bytes[at + 1]!) & (M - 1), bytes[at + 2]!);
}

export function decodeSketch(text: string, into: Registers = emptySketch()): Registers {
  forEachRegister(text, (index, rank) => {
    if (rank > into[index]!) into[index] = rank;
  });
  return into;
}

/** Registers reused by `countMerged`, and which of them it set (to clear them after). */
const scratch = emptySketch();
const touched = new Uint16Array(M);

/**
 * The distinct listeners of stored sketches (their texts) merged: a query merges hundreds of small sketches, a
 * day's summary tens. Merged in one reused set of registers, and counted from how many are set while few are (linear
 * counting, which `estimate` uses for them too) without a pass over all M.
 */
export function countMerged(texts: Iterable<string>): number {
  let set = 0;
  const raise = (index: number, rank: number) => {
    const held = scratch[index]!;
    if (rank <= held) return;
    if (held === 0) touched[set++] = index;
    scratch[index] = rank;
  };
  for (const text of texts) forEachRegister(text, raise);
  // So few set that `estimate` counts them linearly: its raw estimate stays under 2.5 M while a third are set.
  const count = set === 0 ? 0 : set <= SPARSE_MOST ? Math.round(M * Math.log(M / (M - set))) : estimate(scratch);
  for (let k = 0; k < set; k += 1) scratch[touched[k]!] = 0;
  return count;
}
