/**
 * McNemar's exact test on paired right/wrong outcomes: under "both models are equally
 * accurate", each discordant decision (right for one, wrong for the other) is a fair coin,
 * so the count won by the first model is Binomial(b + c, 1/2). The two-sided p-value is
 * twice the smaller tail, capped at 1. Computed in log space with a downward ratio
 * recurrence, so it stays exact to rounding for millions of discordant pairs.
 */
export interface McNemarResult {
  /** Decisions the first run got right and the second wrong. */
  readonly onlyFirstCorrect: number;
  /** Decisions the second run got right and the first wrong. */
  readonly onlySecondCorrect: number;
  /** Exact two-sided p-value. */
  readonly pValue: number;
}

export function mcnemarExact(onlyFirstCorrect: number, onlySecondCorrect: number): McNemarResult {
  return { onlyFirstCorrect, onlySecondCorrect, pValue: exactTwoSidedP(onlyFirstCorrect, onlySecondCorrect) };
}

/** Counts the discordant pairs of two aligned hit vectors (1/true = right). */
export function discordantPairs(
  first: ArrayLike<number | boolean>,
  second: ArrayLike<number | boolean>,
): { readonly onlyFirstCorrect: number; readonly onlySecondCorrect: number } {
  if (first.length !== second.length) throw new RangeError('discordantPairs: the two runs must be aligned');
  let b = 0;
  let c = 0;
  for (let i = 0; i < first.length; i++) {
    const x = Boolean(first[i]);
    const y = Boolean(second[i]);
    if (x && !y) b++;
    else if (y && !x) c++;
  }
  return { onlyFirstCorrect: b, onlySecondCorrect: c };
}

function exactTwoSidedP(b: number, c: number): number {
  const n = b + c;
  const k = Math.min(b, c);
  if (n === 0 || b === c) return 1;
  // log P(X = k) for X ~ Binomial(n, 1/2), then P(X <= k) = P(X = k) · Σ_j ratio_j, where going
  // down from k each term is the last times i / (n - i + 1) (< 1 below the mean).
  const logTop = logChoose(n, k) - n * Math.LN2;
  let sum = 1;
  let term = 1;
  for (let i = k; i > 0; i--) {
    term *= i / (n - i + 1);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  const logTail = logTop + Math.log(sum);
  return Math.min(1, 2 * Math.exp(logTail));
}

/** ln C(n, k). */
function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

const SMALL = 256;
const LOG_FACTORIALS = (() => {
  const t = new Float64Array(SMALL);
  for (let i = 2; i < SMALL; i++) t[i] = t[i - 1]! + Math.log(i);
  return t;
})();

/** ln n!: a table below 256, else Stirling's series (error below 1e-15 relative there). */
function logFactorial(n: number): number {
  if (n < SMALL) return LOG_FACTORIALS[n]!;
  const inv = 1 / n;
  const inv2 = inv * inv;
  return (
    n * Math.log(n) -
    n +
    0.5 * Math.log(2 * Math.PI * n) +
    inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 / 1680)))
  );
}
