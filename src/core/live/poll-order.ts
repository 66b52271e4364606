import { createSeededRandom } from '../seeded-random.js';

/** The fixed seed of the live monitor's poll order: the same order on every run. */
export const POLL_ORDER_SEED = 20_261_130;

/**
 * A seeded Fisher-Yates shuffle of `0..count-1`: the order the monitor cycles cases in, so
 * workflows mix and every session polls the same sequence.
 */
export function pollOrder(count: number, seed: number = POLL_ORDER_SEED): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  const random = createSeededRandom(seed);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
