import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSeededDraws, createSeededRandom, hashString, seededHash32 } from './seeded-random.js';

/** FNV-1a 32-bit over UTF-16 code units, written out from the published constants. */
function fnv1a(text: string, basis: number): number {
  let h = basis >>> 0;
  for (const unit of Array.from({ length: text.length }, (_, i) => text.charCodeAt(i))) {
    h = Number((BigInt(h ^ unit) * 16777619n) & 0xffffffffn);
    h >>>= 0;
  }
  return h;
}

describe('hashString', () => {
  it('is FNV-1a from the offset basis by default', () => {
    fc.assert(
      fc.property(fc.string(), (s) => hashString(s) === fnv1a(s, 2166136261)),
      { seed: 9 },
    );
    expect(hashString('')).toBe(2166136261);
  });
});

describe('seededHash32', () => {
  it('depends on the seed and stays in 32 bits', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer(), (s, seed) => {
        const h = seededHash32(s, seed);
        return Number.isInteger(h) && h >= 0 && h < 2 ** 32;
      }),
      { seed: 9 },
    );
    expect(seededHash32('case-1', 1)).not.toBe(seededHash32('case-1', 2));
    expect(seededHash32('case-1', 1)).toBe(seededHash32('case-1', 1));
  });
});

describe('createSeededDraws', () => {
  it('counts the very draws createSeededRandom gives, in the same order', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 4 }),
        (seed, units, rounds) => {
          const random = createSeededRandom(seed);
          const draws = createSeededDraws(seed);
          const expected = new Int32Array(units);
          const counted = new Int32Array(units);
          for (let r = 0; r < rounds; r++) {
            expected.fill(0);
            for (let k = 0; k < units; k++) expected[Math.floor(random() * units)]!++;
            counted.fill(0);
            draws.countInto(counted, units);
            if (counted.join() !== expected.join()) return false;
          }
          return draws.next() === random();
        },
      ),
      { seed: 5 },
    );
  });

  it('counts block by block what countInto counts on each block in turn', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 9 }),
        (seed, units, blocks) => {
          const one = createSeededDraws(seed);
          const each = createSeededDraws(seed);
          const expected = new Int32Array(units * blocks);
          for (let b = 0; b < blocks; b++) one.countInto(expected.subarray(b * units, (b + 1) * units), units);
          const counted = new Int32Array(units * blocks);
          each.countEachInto(counted, units);
          return counted.join() === expected.join() && each.next() === one.next();
        },
      ),
      { seed: 6 },
    );
  });

  it('counts the same draws over more units than a draw times the units can hold exactly', () => {
    // Beyond 2^21 units, a 32-bit draw times the units needs more than a double's 53 bits.
    const units = 2 ** 21 + 12_345;
    const random = createSeededRandom(77);
    const draws = createSeededDraws(77);
    const expected = new Int32Array(units);
    for (let k = 0; k < units; k++) expected[Math.floor(random() * units)]!++;
    const counted = new Int32Array(units);
    draws.countInto(counted, units);
    expect(counted).toEqual(expected);
    expect(draws.next()).toBe(random());
  });
});
