// Distinct listeners as a HyperLogLog sketch: 1,024 registers (a standard error of 1.04/√1024 ≈ 3.25 %), kept
// sparse (only the registers set) while few are set, so a cell with a handful of listeners costs a few bytes.
// Sketches merge by taking each register's largest value, so hours add up to days and devices to totals.
import { createHash } from 'node:crypto';

const P = 10;
const M = 1 << P;
/** Past this many registers set, the dense form (M bytes) is smaller than the sparse one (3 bytes a register). */
const SPARSE_MOST = Math.floor(M / 3);
const ALPHA = 0.7213 / (1 + 1.079 / M);

export type Registers = Uint8Array;

export const emptySketch = (): Registers => new Uint8Array(M);

/** Sets the register the listener's id falls in; true when the sketch changed. */
export function addListener(registers: Registers, id: string): boolean {
  const hash = createHash('md5').update(id).digest();
  const index = hash.readUInt16BE(0) & (M - 1);
  // The rank: position of the first 1 bit in the next 32 bits (1-based), at most 33.
  const rest = hash.readUInt32BE(2);
  const rank = rest === 0 ? 33 : Math.clz32(rest) + 1;
  if (registers[index]! >= rank) return false;
  registers[index] = rank;
  return true;
}

export function mergeInto(target: Registers, source: Registers): void {
  for (let i = 0; i < M; i += 1) if (source[i]! > target[i]!) target[i] = source[i]!;
}

/** The estimated count, rounded; small counts by linear counting, which is exact while no two listeners share a register. */
export function estimate(registers: Registers): number {
  let sum = 0;
  let zeros = 0;
  for (let i = 0; i < M; i += 1) {
    sum += 2 ** -registers[i]!;
    if (registers[i] === 0) zeros += 1;
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
  const bytes = Buffer.alloc(set * 3);
  let at = 0;
  for (let i = 0; i < M; i += 1) {
    if (registers[i] === 0) continue;
    bytes.writeUInt16BE(i, at);
    bytes[at + 2] = registers[i]!;
    at += 3;
  }
  return `s${bytes.toString('base64')}`;
}

export function decodeSketch(text: string, into: Registers = emptySketch()): Registers {
  if (text === '') return into;
  const bytes = Buffer.from(text.slice(1), 'base64');
  if (text[0] === 'd') {
    for (let i = 0; i < M && i < bytes.length; i += 1) if (bytes[i]! > into[i]!) into[i] = bytes[i]!;
    return into;
  }
  for (let at = 0; at + 2 < bytes.length; at += 3) {
    const index = bytes.readUInt16BE(at) & (M - 1);
    if (bytes[at + 2]! > into[index]!) into[index] = bytes[at + 2]!;
  }
  return into;
}
