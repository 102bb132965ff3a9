import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { DailySalt } from '../../../../functions/shared/domain/analytics/daily-salt';
import {
  addUpdate,
  decodeSketch,
  emptySketch,
  encodeSketch,
  estimate,
  isRegisterUpdate,
  mergeInto,
  registerUpdateOf,
  SKETCH_REGISTERS,
  SKETCH_STANDARD_ERROR,
  visitorUpdate,
} from '../../../../functions/shared/domain/analytics/visitor-sketch';
import type { VisitorSaltStore } from '../../../../functions/shared/domain/ports';

const sketchOf = (visitors: number, salt = 'salt of the day', from = 0) => {
  const sketch = emptySketch();
  for (let i = from; i < from + visitors; i += 1) addUpdate(sketch, visitorUpdate(salt, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `agent ${i % 7}`));
  return sketch;
};

describe('the unique-visitor sketch', () => {
  it('has precision 12: 4,096 registers, a standard error of 1.04/√4096 ≈ 1.6 %', () => {
    expect(SKETCH_REGISTERS).toBe(4096);
    expect(SKETCH_STANDARD_ERROR).toBeCloseTo(0.01625, 5);
  });

  it('estimates 100,000 distinct visitors within three standard errors', () => {
    const counted = estimate(sketchOf(100_000));
    expect(Math.abs(counted - 100_000)).toBeLessThanOrEqual(3 * SKETCH_STANDARD_ERROR * 100_000);
  });

  it('counts a visitor once however often they come, and a few visitors all but exactly', () => {
    const sketch = sketchOf(150);
    const again = Uint8Array.from(sketch);
    for (let round = 0; round < 3; round += 1) mergeInto(again, sketchOf(150));
    expect(again).toEqual(sketch);
    expect(Math.abs(estimate(sketch) - 150)).toBeLessThanOrEqual(Math.ceil(3 * SKETCH_STANDARD_ERROR * 150));
    expect(estimate(emptySketch())).toBe(0);
  });

  it('merges by taking each register\'s maximum: idempotent and in any order', () => {
    const a = sketchOf(2_000, 's', 0);
    const b = sketchOf(2_000, 's', 1_000);
    const ab = Uint8Array.from(a);
    mergeInto(ab, b);
    const ba = Uint8Array.from(b);
    mergeInto(ba, a);
    expect(ab).toEqual(ba);
    const twice = Uint8Array.from(ab);
    mergeInto(twice, b);
    expect(twice).toEqual(ab);
    expect(Math.abs(estimate(ab) - 3_000)).toBeLessThanOrEqual(3 * SKETCH_STANDARD_ERROR * 3_000);
  });

  it('cannot link a visitor across days: another salt puts the same visitor elsewhere', () => {
    const visitor = ['203.0.113.7', 'Mozilla/5.0 Firefox/140.0'] as const;
    expect(visitorUpdate('monday', ...visitor)).toEqual(visitorUpdate('monday', ...visitor));
    const elsewhere = Array.from({ length: 20 }, (_, i) => visitorUpdate(`day ${i}`, ...visitor)[0]);
    expect(new Set(elsewhere).size).toBeGreaterThan(15);
  });

  it('ranks a hash by its leading zeros after the register\'s 12 bits', () => {
    expect(registerUpdateOf(Buffer.from('fff8000000000000', 'hex'))).toEqual([4095, 1]);
    expect(registerUpdateOf(Buffer.from('0014000000000000', 'hex'))).toEqual([1, 2]);
    expect(registerUpdateOf(Buffer.alloc(8))).toEqual([0, 53]);
    for (let i = 0; i < 1000; i += 1) expect(isRegisterUpdate(registerUpdateOf(randomBytes(8)))).toBe(true);
  });

  it('ranks as the 64-bit reading does (its top 12 bits, the leading zeros of the other 52, plus one)', () => {
    const asBigInt = (hash: Buffer) => {
      const value = hash.readBigUInt64BE(0);
      const rest = value & ((1n << 52n) - 1n);
      return [Number(value >> 52n), rest === 0n ? 53 : 52 - rest.toString(2).length + 1];
    };
    fc.assert(fc.property(fc.uint8Array({ minLength: 8, maxLength: 8 }), (bytes) => expect(registerUpdateOf(Buffer.from(bytes))).toEqual(asBigInt(Buffer.from(bytes)))), { numRuns: 2_000 });
    for (const hex of ['000fffffffffffff', '0000000000000001', '0000000080000000', '0000000100000000']) expect(registerUpdateOf(Buffer.from(hex, 'hex'))).toEqual(asBigInt(Buffer.from(hex, 'hex')));
  });

  it('refuses anything but a register and a rank in range (a click line is not trusted)', () => {
    for (const value of [[4096, 1], [-1, 1], [0, 0], [0, 54], [1.5, 2], ['1', 2], [1], [1, 2, 3], null, 'x']) expect(isRegisterUpdate(value)).toBe(false);
  });

  it('is stored sparse while small and dense once that is smaller, and read back the same', () => {
    const small = sketchOf(10);
    expect(encodeSketch(small).length).toBeLessThanOrEqual(1 + 3 * 10);
    expect(decodeSketch(encodeSketch(small))).toEqual(small);
    const large = sketchOf(20_000);
    expect(encodeSketch(large).length).toBe(1 + SKETCH_REGISTERS);
    expect(decodeSketch(encodeSketch(large))).toEqual(large);
    expect(decodeSketch(undefined)).toEqual(emptySketch());
    expect(() => decodeSketch(Uint8Array.of(1, 255, 255, 3, 7))).not.toThrow();
  });
});

describe('the day\'s salt in a container', () => {
  function store() {
    const calls: string[] = [];
    let failNext = false;
    const salts: VisitorSaltStore = {
      saltOf: async (day) => {
        calls.push(`saltOf ${day}`);
        if (failNext) {
          failNext = false;
          throw new Error('throttled');
        }
        return `salt-${day}`;
      },
      forget: async (day) => {
        calls.push(`forget ${day}`);
      },
    };
    return { salts, calls, failOnce: () => (failNext = true) };
  }

  it('is read once a day, and the first read of a day removes the day before\'s salt', async () => {
    const { salts, calls } = store();
    const daily = new DailySalt(salts);
    const monday = Date.parse('2026-11-23T23:59:59.000Z');
    expect(await daily.saltFor(monday)).toBe('salt-2026-11-23');
    expect(await daily.saltFor(monday + 500)).toBe('salt-2026-11-23');
    expect(await daily.saltFor(monday + 1_000)).toBe('salt-2026-11-24');
    expect(calls).toEqual(['saltOf 2026-11-23', 'forget 2026-11-22', 'saltOf 2026-11-24', 'forget 2026-11-23']);
  });

  it('tries a failed read again on the next visit', async () => {
    const { salts, failOnce } = store();
    const daily = new DailySalt(salts);
    failOnce();
    const nowMs = Date.parse('2026-11-23T10:00:00.000Z');
    await expect(daily.saltFor(nowMs)).rejects.toThrow('throttled');
    expect(await daily.saltFor(nowMs)).toBe('salt-2026-11-23');
  });
});
