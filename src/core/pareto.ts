/** Pareto fronts for cost/latency-versus-accuracy plots. */

export interface TradeOffPoint {
  /** Lower is better (latency, cost). */
  readonly x: number;
  /** Higher is better (accuracy). */
  readonly y: number;
}

/**
 * Indexes of the points no other point dominates (another is at least as good on both
 * axes and better on one), ordered by x then y. Equal points are all kept.
 */
export function paretoFront(points: readonly TradeOffPoint[]): number[] {
  const front: number[] = [];
  points.forEach((p, i) => {
    const dominated = points.some((q) => q.x <= p.x && q.y >= p.y && (q.x < p.x || q.y > p.y));
    if (!dominated) front.push(i);
  });
  return front.sort((a, b) => points[a]!.x - points[b]!.x || points[a]!.y - points[b]!.y);
}
