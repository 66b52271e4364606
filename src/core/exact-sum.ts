/**
 * Exactly rounded summation (Shewchuk's algorithm, as in Python's `math.fsum`).
 *
 * Every mean the core reports goes through this, so a summary does not depend on the
 * order in which results arrive: the sum of the same values is the same double, always.
 */
export class ExactSum {
  // Partials in a typed array with a length: no array resizing on the hot path of `add`.
  private partials = new Float64Array(4);
  private size = 0;
  private count = 0;
  /** ±Infinity after an overflow or an infinite input, NaN after a NaN input; else 0. */
  private special = 0;

  add(x: number): void {
    this.count++;
    if (this.special !== 0) {
      // Already infinite (or NaN): the partials are spent; only another special value matters.
      if (x - x !== 0) this.special += x;
      return;
    }
    let partials = this.partials;
    const size = this.size;
    let i = 0;
    for (let j = 0; j < size; j++) {
      let y = partials[j]!;
      if (Math.abs(x) < Math.abs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    // An infinite or NaN sum (an input that is, or a sum that overflowed) leaves partials
    // that would add up to NaN: remember it instead, so value() says Infinity, not NaN.
    if (x - x !== 0) {
      this.special = x;
      return;
    }
    if (i === partials.length) {
      const grown = new Float64Array(partials.length * 2);
      grown.set(partials);
      this.partials = partials = grown;
    }
    partials[i] = x;
    this.size = i + 1;
  }

  /** Empties the sum (its partials' room is kept): a scratch sum reused for many small sums allocates nothing. */
  reset(): void {
    this.size = 0;
    this.count = 0;
    this.special = 0;
  }

  /** Number of values added. */
  get n(): number {
    return this.count;
  }

  /** The sum, correctly rounded to the nearest double; ±Infinity when it overflows (never NaN from finite inputs). */
  value(): number {
    if (this.special !== 0) return this.special;
    const p = this.partials;
    let n = this.size;
    if (n === 0) return 0;
    let hi = p[--n]!;
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = p[--n]!;
      hi = x + y;
      const yr = hi - x;
      lo = y - yr;
      if (lo !== 0) break;
    }
    // Round half-even correction, as fsum does, when the remaining partials push past a tie.
    if (n > 0 && ((lo < 0 && p[n - 1]! < 0) || (lo > 0 && p[n - 1]! > 0))) {
      const y = lo * 2;
      const x = hi + y;
      const yr = x - hi;
      if (y === yr) hi = x;
    }
    return hi;
  }

  /** The mean, or null when nothing was added. */
  mean(): number | null {
    return this.count === 0 ? null : this.value() / this.count;
  }

  /** Merge another sum into this one. */
  merge(other: ExactSum): void {
    const count = this.count;
    if (other.special !== 0) this.add(other.special);
    else for (let j = 0; j < other.size; j++) this.add(other.partials[j]!);
    this.count = count + other.count;
  }
}

/** Exactly rounded sum of a list. */
export function exactSum(values: Iterable<number>): number {
  const s = new ExactSum();
  for (const v of values) s.add(v);
  return s.value();
}

/** Exactly rounded mean of a list, or null for an empty list. */
export function exactMean(values: Iterable<number>): number | null {
  const s = new ExactSum();
  for (const v of values) s.add(v);
  return s.mean();
}
