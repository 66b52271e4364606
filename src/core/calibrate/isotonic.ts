/**
 * Isotonic regression by pool adjacent violators: the non-decreasing fit closest (in
 * weighted squared error) to values in a given order. Used by the isotonic calibration on
 * (probability, outcome) pairs sorted by probability.
 */
import type { IsotonicStep } from '../calibration-map.js';

/** The non-decreasing sequence nearest `values` (weights default to 1): `[3,7,5,9,8,7,10]` -> `[3,6,6,8,8,8,10]`. */
export function isotonicRegression(values: readonly number[], weights?: readonly number[]): number[] {
  const blocks = poolAdjacentViolators(values, weights);
  const out: number[] = [];
  for (const b of blocks) for (let i = 0; i < b.count; i++) out.push(b.mean);
  return out;
}

interface Block {
  mean: number;
  weight: number;
  /** How many inputs the block pools. */
  count: number;
}

function poolAdjacentViolators(values: readonly number[], weights?: readonly number[]): Block[] {
  const blocks: Block[] = [];
  values.forEach((v, i) => {
    blocks.push({ mean: v, weight: weights?.[i] ?? 1, count: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.mean > blocks[blocks.length - 1]!.mean) {
      const top = blocks.pop()!;
      const below = blocks[blocks.length - 1]!;
      const weight = below.weight + top.weight;
      below.mean = (below.mean * below.weight + top.mean * top.weight) / weight;
      below.weight = weight;
      below.count += top.count;
    }
  });
  return blocks;
}

/**
 * The steps of an isotonic calibration fitted on (input probability, outcome) pairs: pairs
 * are sorted by input (equal inputs pooled first, so they share a value), pooled, and each
 * block becomes a step starting at its lowest input.
 */
export function fitIsotonicSteps(pairs: readonly { readonly x: number; readonly y: number }[]): IsotonicStep[] {
  const sorted = [...pairs].sort((a, b) => a.x - b.x || a.y - b.y);
  const xs: number[] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  for (const p of sorted) {
    const last = xs.length - 1;
    if (last >= 0 && xs[last] === p.x) {
      ys[last] = (ys[last]! * ws[last]! + p.y) / (ws[last]! + 1);
      ws[last] = ws[last]! + 1;
    } else {
      xs.push(p.x);
      ys.push(p.y);
      ws.push(1);
    }
  }
  const blocks = poolAdjacentViolators(ys, ws);
  const steps: IsotonicStep[] = [];
  let at = 0;
  for (const b of blocks) {
    // Neighbouring blocks of equal value are one step.
    if (steps.at(-1)?.y !== b.mean) steps.push({ x: xs[at]!, y: b.mean });
    at += b.count;
  }
  return steps;
}
