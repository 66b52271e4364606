/** FNV-1a's 32-bit offset basis: `hashString`'s default start. */
const FNV_OFFSET_BASIS = 0x811c9dc5;

/** FNV-1a 32-bit hash of a string's UTF-16 code units: a cheap, stable seed mixer. */
export function hashString(text: string, seed = FNV_OFFSET_BASIS): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * A seeded 32-bit hash of a string: FNV-1a over UTF-16 code units, started from the
 * offset basis mixed with the seed, then the murmur3 finaliser so that nearby ids and seeds
 * spread over the whole range.
 */
export function seededHash32(text: string, seed: number): number {
  let h = hashString(text, FNV_OFFSET_BASIS ^ seed);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A seeded PRNG (mulberry32): the same seed gives the same sequence, values in [0, 1). */
export function createSeededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Standard normal draws made from `random`'s uniforms (Box–Muller, two uniforms a draw, the
 * first taken as 1 - u so that its logarithm stays finite).
 */
export function standardNormalOf(random: () => number): () => number {
  return () => {
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

/** The draws of `createSeededRandom(seed)`, in the same order, with a way to count many at once. */
export interface SeededDraws {
  /** The next value in [0, 1). */
  next(): number;
  /**
   * Adds `draws` draws of `floor(next() * counts.length)` to `counts` (a multinomial
   * weighting of `counts.length` units): the same values as that many `next()` calls, made
   * in one loop without a call or a boxed number a draw.
   */
  countInto(counts: Int32Array, draws: number): void;
  /**
   * `countInto(block, units)` on each block of `units` counts of `counts` in turn (several
   * weightings drawn at once), the same values, in one call: a loop this long is compiled
   * while it runs, where many short calls wait for it longer in a cold process.
   */
  countEachInto(counts: Int32Array, units: number): void;
}

/** `createSeededRandom`'s mulberry32 stream, for loops that draw millions of times. */
export function createSeededDraws(seed: number): SeededDraws {
  let a = seed >>> 0;
  return {
    next() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
    countInto(counts, draws) {
      const units = counts.length;
      // The state as a signed 32-bit integer (the same bits) stays a small integer in the
      // loop; the unit is floor(x / 2^32 * units) computed as trunc(x * units / 2^32), the
      // same number: both round the same real value, scaled by a power of two, to a double.
      let s = a | 0;
      for (let k = 0; k < draws; k++) {
        s = (s + 0x6d2b79f5) | 0;
        let t = s;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        counts[((((t ^ (t >>> 14)) >>> 0) * units) / 4294967296) | 0]!++;
      }
      a = s >>> 0;
    },
    countEachInto(counts, units) {
      let s = a | 0;
      for (let o = 0; o + units <= counts.length; o += units)
        for (let k = 0; k < units; k++) {
          s = (s + 0x6d2b79f5) | 0;
          let t = s;
          t = Math.imul(t ^ (t >>> 15), t | 1);
          t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
          counts[o + (((((t ^ (t >>> 14)) >>> 0) * units) / 4294967296) | 0)]!++;
        }
      a = s >>> 0;
    },
  };
}
