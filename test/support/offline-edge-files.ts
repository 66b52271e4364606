/**
 * A seeded offline dataset and results file full of edge cases for engine parity tests:
 * yes/no probabilities on the threshold, at 0 and 1 and on and next to bin edges; choice ties,
 * hard zeros, sums off by up to the tolerance, numeric-looking option names, objects and
 * lists, `picked` that is not the argmax; score cases with and without confidence; missing
 * results; cost and latency present, null or absent.
 */
import { createSeededRandom } from '../../src/core/seeded-random.js';

export interface EdgeFiles {
  readonly dataset: string;
  readonly results: string;
  /** The results as rows, for writing other formats. */
  readonly rows: readonly Record<string, unknown>[];
}

function nextDouble(x: number, up: boolean): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigInt64(0, view.getBigInt64(0) + (up === x >= 0 ? 1n : -1n));
  return view.getFloat64(0);
}

const OPTION_SETS = [
  ['allow', 'flag', 'remove'],
  ['10', '2', '1'],
  ['yes', 'no'],
  ['a', 'b', 'c', 'd'],
];

export function createEdgeFiles(cases: number, seed: number, threshold = 0.5): EdgeFiles {
  const random = createSeededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const edges = [0, 1, 0.5, threshold, nextDouble(threshold, false), nextDouble(threshold, true)];
  for (let k = 1; k < 10; k++) edges.push(k / 10, nextDouble(k / 10, false), nextDouble(k / 10, true));
  const dataset: string[] = [];
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < cases; i++) {
    const id = `case-${i}`;
    const roll = random();
    let decision: Record<string, unknown>;
    if (roll < 0.4) {
      const correct = random() < 0.5;
      dataset.push(JSON.stringify({ id, kind: 'yes_no', prompt: 'Is it?', correct }));
      decision = { probability: random() < 0.6 ? pick(edges) : random() };
    } else if (roll < 0.8) {
      const options = pick(OPTION_SETS);
      const correct = pick(options);
      dataset.push(JSON.stringify({ id, kind: 'choice', options, correct, group: `g-${i % 7}` }));
      const n = options.length;
      const shape = random();
      let probs: number[];
      if (shape < 0.2) probs = options.map((_, k) => (k < 2 ? 0.5 : 0)).map((p) => (n === 2 ? 0.5 : p));
      else if (shape < 0.35) probs = options.map((_, k) => (k === n - 1 ? 1 : 0));
      else if (shape < 0.45) probs = options.map(() => 1 / n);
      else {
        const w = options.map(() => random());
        const total = w.reduce((a, b) => a + b, 0);
        probs = w.map((x) => x / total);
        // Off by up to the tolerance (0.01) sometimes: still valid.
        if (random() < 0.2) probs[0] = probs[0]! + 0.009;
        if (random() < 0.3) probs = probs.map((p) => Math.round(p * 10) / 10);
      }
      const asObject = random() < 0.5;
      decision = { probabilities: asObject ? Object.fromEntries(options.map((o, k) => [o, probs[k]])) : probs };
      if (random() < 0.15) decision['picked'] = pick(options);
      // A rounded list may no longer sum to 1 within the tolerance: renormalise that one exactly.
      const sum = probs.reduce((a, b) => a + b, 0);
      if (!(Math.abs(sum - 1) <= 0.01)) {
        const fixed = options.map((_, k) => (k === 0 ? 1 : 0));
        decision['probabilities'] = asObject ? Object.fromEntries(options.map((o, k) => [o, fixed[k]])) : fixed;
      }
    } else {
      const [min, max] = pick([
        [0, 10],
        [-5, 5],
        [0, 1],
      ] as const);
      const correct = min + Math.round(random() * (max - min) * 4) / 4;
      dataset.push(JSON.stringify({ id, kind: 'score', score_min: min, score_max: max, correct }));
      decision = { value: min + random() * (max - min) };
      if (random() < 0.3) decision['confidence'] = random();
    }
    if (random() < 0.05) continue; // missing: counted, not scored
    const row: Record<string, unknown> = { case_id: id, model: 'edge-1', decision };
    const c = random();
    if (c < 0.6) row['cost_usd'] = Math.round(random() * 1e6) / 1e9;
    else if (c < 0.7) row['cost_usd'] = null;
    const l = random();
    if (l < 0.7) row['latency_ms'] = Math.round(random() * 5e5) / 100;
    else if (l < 0.75) row['latency_ms'] = null;
    rows.push(row);
  }
  // Results in another order than the dataset: neither engine may depend on it.
  const shuffled = [...rows].reverse();
  return {
    dataset: dataset.map((l) => `${l}\n`).join(''),
    results: shuffled.map((r) => `${JSON.stringify(r)}\n`).join(''),
    rows: shuffled,
  };
}
