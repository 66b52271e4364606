/**
 * Grouped, stratified, seeded K-fold assignment. The unit is a case: a benchmark case's
 * questions share one state, so its decisions always go to one fold together. Cases are
 * ordered by stratum (how many of their decisions the model got right), then by a seeded
 * hash of their id (ties by id), and dealt round-robin, each stratum continuing where the
 * last stopped: folds differ in size by at most one case, each stratum is spread evenly
 * where it is large enough, and only the ids, the strata and the seed matter, never the
 * input order.
 */
import { seededHash32 } from '../seeded-random.js';

export interface FoldUnit {
  readonly id: string;
  /** Cases of one stratum are spread over the folds. */
  readonly stratum: string;
}

/** Fold (0..k-1) of every unit, by id; k must be at most the number of units. */
export function assignFolds(units: readonly FoldUnit[], k: number, seed: number): Map<string, number> {
  const keyed = units.map((u) => ({ ...u, hash: seededHash32(u.id, seed) }));
  keyed.sort((a, b) => compare(a.stratum, b.stratum) || a.hash - b.hash || compare(a.id, b.id));
  const folds = new Map<string, number>();
  keyed.forEach((u, i) => folds.set(u.id, i % k));
  return folds;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
