import { hash } from 'node:crypto';

/**
 * Unique visitors without identity (issue 30): a HyperLogLog sketch per link and UTC day. Precision 12: 4,096
 * registers, a standard error of 1.04/√4096 ≈ 1.6 %. A visitor is a keyed hash of (the address as counted, the
 * User-Agent) under the day's salt; the redirect writes out only the register the hash falls in and the register's
 * candidate value, and the salt is gone once its day is (visitor-salts.ts), so no one can link two days' visitors
 * or test a guessed address against what is stored.
 */
export const SKETCH_PRECISION = 12;
export const SKETCH_REGISTERS = 2 ** SKETCH_PRECISION;
/** 1.04/√m: the relative standard error of the estimate. */
export const SKETCH_STANDARD_ERROR = 1.04 / Math.sqrt(SKETCH_REGISTERS);

/** What one visit adds to a sketch: register `register` takes at least `rank`. */
export type RegisterUpdate = readonly [register: number, rank: number];

/** The bits of the hash that rank a visit: 64 minus the register's 12, so ranks run from 1 to 53. */
const RANK_BITS = 64 - SKETCH_PRECISION;

/**
 * The register update of a 64-bit hash: its top 12 bits choose the register, the rest's leading zeros (+1) rank it.
 * Read as two 32-bit words (every visit computes one: no BigInt on the redirect's path).
 */
export function registerUpdateOf(digest: Buffer): RegisterUpdate {
  const high = digest.readUInt32BE(0);
  const low = digest.readUInt32BE(4);
  const register = high >>> (32 - SKETCH_PRECISION);
  // The rest's first 20 bits are the high word's low ones, which Math.clz32 sees behind the register's 12.
  const restOfHigh = high & (2 ** (32 - SKETCH_PRECISION) - 1);
  if (restOfHigh !== 0) return [register, Math.clz32(restOfHigh) - SKETCH_PRECISION + 1];
  if (low !== 0) return [register, 32 - SKETCH_PRECISION + Math.clz32(low) + 1];
  return [register, RANK_BITS + 1];
}

/**
 * The visitor's register update: SHA-256 of the day's salt (43 characters, always first) followed by the counted
 * network and the User-Agent, in one call. Not HMAC: its second pass guards a digest that is shown against being
 * extended, and this digest is never shown (12 bits and a rank leave the function); one pass is half of HMAC's 3 µs
 * on every visit (issue 28). Plausible counts its visitors the same way.
 */
export function visitorUpdate(salt: string, network: string, userAgent: string | undefined): RegisterUpdate {
  return registerUpdateOf(hash('sha256', `${salt}\nvisitor\n${network}\n${userAgent ?? ''}`, 'buffer'));
}

export function isRegisterUpdate(value: unknown): value is RegisterUpdate {
  if (!Array.isArray(value) || value.length !== 2) return false;
  const [register, rank] = value as unknown[];
  return Number.isInteger(register) && Number.isInteger(rank) && (register as number) >= 0 && (register as number) < SKETCH_REGISTERS && (rank as number) >= 1 && (rank as number) <= RANK_BITS + 1;
}

export const emptySketch = (): Uint8Array => new Uint8Array(SKETCH_REGISTERS);

/** Registers take the maximum: merging is idempotent and order-free, so a replayed delivery changes nothing. */
export function mergeInto(into: Uint8Array, from: Uint8Array): void {
  for (let register = 0; register < SKETCH_REGISTERS; register += 1) if ((from[register] ?? 0) > (into[register] ?? 0)) into[register] = from[register] ?? 0;
}

export function addUpdate(sketch: Uint8Array, [register, rank]: RegisterUpdate): void {
  if (rank > (sketch[register] ?? 0)) sketch[register] = rank;
}

/** HyperLogLog's estimate (Flajolet et al.), with linear counting while registers are still empty (few visitors). */
export function estimate(sketch: Uint8Array): number {
  let sum = 0;
  let zeros = 0;
  for (const rank of sketch) {
    sum += 2 ** -rank;
    if (rank === 0) zeros += 1;
  }
  const m = SKETCH_REGISTERS;
  const raw = ((0.7213 / (1 + 1.079 / m)) * m * m) / sum;
  if (raw <= 2.5 * m && zeros > 0) return Math.round(m * Math.log(m / zeros));
  return Math.round(raw);
}

const SPARSE = 1;
const DENSE = 2;

/**
 * A sketch as stored: sparse (a tag, then 3 bytes per register set) while that is smaller than dense (a tag, then a
 * byte per register). A link with a few visitors a day stores a few bytes, not 4 KB.
 */
export function encodeSketch(sketch: Uint8Array): Uint8Array {
  const set: number[] = [];
  for (let register = 0; register < SKETCH_REGISTERS; register += 1) if (sketch[register]) set.push(register);
  if (set.length * 3 >= SKETCH_REGISTERS) return Uint8Array.of(DENSE, ...sketch);
  const encoded = new Uint8Array(1 + set.length * 3);
  encoded[0] = SPARSE;
  set.forEach((register, index) => {
    encoded.set([register >> 8, register & 0xff, sketch[register] ?? 0], 1 + index * 3);
  });
  return encoded;
}

/** The stored form back; anything malformed reads as far as it is well formed (never throws). */
export function decodeSketch(encoded: Uint8Array | undefined): Uint8Array {
  const sketch = emptySketch();
  if (!encoded || encoded.length === 0) return sketch;
  if (encoded[0] === DENSE) {
    sketch.set(encoded.subarray(1, 1 + SKETCH_REGISTERS));
    return sketch;
  }
  for (let offset = 1; offset + 2 < encoded.length; offset += 3) {
    const register = ((encoded[offset] ?? 0) << 8) | (encoded[offset + 1] ?? 0);
    if (register < SKETCH_REGISTERS) addUpdate(sketch, [register, encoded[offset + 2] ?? 0]);
  }
  return sketch;
}
