import { createSeededRandom } from './seeded-random.js';

/**
 * A seeded sample of `n` items stratified by group: each group gets its share of `n` by
 * largest remainder (so every group of the dataset keeps its weight), items within a group
 * are drawn by a seeded shuffle, and the result keeps the input order. The same items, seed
 * and `n` always give the same sample.
 */
export function stratifiedSample<T>(items: readonly T[], n: number, seed: number, groupOf: (item: T) => string): T[] {
  if (n >= items.length) return [...items];
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => {
    const key = groupOf(item);
    const list = groups.get(key);
    if (list) list.push(i);
    else groups.set(key, [i]);
  });
  const entries = [...groups.entries()];
  const quotas = entries.map(([, idx]) => (idx.length * n) / items.length);
  const counts = quotas.map(Math.floor);
  let left = n - counts.reduce((a, b) => a + b, 0);
  // Largest remainders first; ties go to the group seen first.
  const order = quotas.map((q, i) => ({ i, r: q - Math.floor(q) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    counts[i]!++;
    left--;
  }
  const random = createSeededRandom(seed);
  const chosen: number[] = [];
  entries.forEach(([, idx], g) => {
    const pool = [...idx];
    // Partial Fisher–Yates: the first counts[g] places are the draw.
    for (let k = 0; k < counts[g]!; k++) {
      const j = k + Math.floor(random() * (pool.length - k));
      [pool[k], pool[j]] = [pool[j]!, pool[k]!];
      chosen.push(pool[k]!);
    }
  });
  return chosen.sort((a, b) => a - b).map((i) => items[i]!);
}
