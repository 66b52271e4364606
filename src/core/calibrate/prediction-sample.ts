/**
 * Decisions scored as `score` and `bench` score them (docs/scoring.md), into the per-case
 * sample the bootstrap, the paired comparison and the noise floor read: the prediction is
 * the most likely answer (ties to the first; an offline `picked` stays), Brier against the
 * target, log loss of the label floored at 1e-15, and on a benchmark KL(gold ‖ predicted).
 */
import { argmaxFirst, brierScore, klDivergence, logLoss } from '../decision-score.js';
import { calibrate, type Calibration } from '../calibration.js';
import { CaseSampleBuilder, type CaseSample } from '../stats/case-sample.js';
import type { CalibrationExample } from './examples.js';

export interface PredictionSample {
  readonly sample: CaseSample;
  readonly calibration: Calibration;
}

/** `examples` in canonical order (a case's decisions together), `predicted` aligned with them. */
export function predictionSample(
  examples: readonly CalibrationExample[],
  predicted: readonly (readonly number[])[],
  withKl: boolean,
): PredictionSample {
  const builder = new CaseSampleBuilder({ cases: examples.length, decisions: examples.length });
  const pairs: { confidence: number; hit: boolean }[] = [];
  let start = 0;
  while (start < examples.length) {
    let end = start;
    while (end < examples.length && examples[end]!.caseId === examples[start]!.caseId) end++;
    let correct = 0;
    let kl = 0;
    let brier = 0;
    let loss = 0;
    const decisions: { confidence: number; hit: boolean }[] = [];
    for (let i = start; i < end; i++) {
      const e = examples[i]!;
      const q = predicted[i]!;
      const index = e.pickedIndex ?? argmaxFirst(q);
      const hit = index === e.labelIndex;
      if (hit) correct++;
      if (withKl) kl += klDivergence(e.target, q);
      brier += brierScore(e.target, q);
      loss += logLoss(q[e.labelIndex] ?? 0);
      decisions.push({ confidence: q[index]!, hit });
    }
    const n = end - start;
    builder.addCase(examples[start]!.caseId, {
      decisions: n,
      correct,
      answered: n,
      ...(withKl ? { kl } : {}),
      brier,
      logLoss: loss,
    });
    for (const d of decisions) builder.addDecision(d.confidence, d.hit);
    pairs.push(...decisions);
    start = end;
  }
  return { sample: builder.build(), calibration: calibrate(pairs) };
}
