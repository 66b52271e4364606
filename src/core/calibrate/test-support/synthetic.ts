/**
 * Synthetic decisions with a known truth, for the calibration tests: true probabilities
 * drawn from a seeded source, outcomes drawn from them, and the model's answers the truth
 * sharpened or flattened by a known temperature.
 */
import { createSeededRandom } from '../../seeded-random.js';
import { withTemperature } from '../../calibration-map.js';
import type { CalibrationExample } from '../examples.js';

export interface SyntheticOptions {
  readonly cases: number;
  /** Answers per question (2 = yes/no). */
  readonly answers: number;
  /** The model reports softmax(log truth / temperature): 0.5 sharpens, 1 is calibrated. */
  readonly temperature: number;
  readonly seed: number;
  /** Decisions per case (default 1). */
  readonly perCase?: number;
}

export function syntheticExamples(o: SyntheticOptions): CalibrationExample[] {
  const random = createSeededRandom(o.seed);
  const out: CalibrationExample[] = [];
  for (let c = 0; c < o.cases; c++) {
    for (let d = 0; d < (o.perCase ?? 1); d++) {
      const logits = Array.from({ length: o.answers }, () => 2.5 * (random() * 2 - 1));
      const truth = withTemperature(logits.map(Math.exp), 1);
      let u = random();
      let label = truth.length - 1;
      for (let k = 0; k < truth.length; k++) {
        u -= truth[k]!;
        if (u < 0) {
          label = k;
          break;
        }
      }
      out.push({
        caseId: `c${String(c).padStart(5, '0')}`,
        decisionKey: `q${d}`,
        group: 'all',
        p: withTemperature(truth, o.temperature),
        target: truth.map((_, k) => (k === label ? 1 : 0)),
        labelIndex: label,
      });
    }
  }
  return out;
}
