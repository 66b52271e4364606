import { createBinner, type CalibrationOptions } from '../calibration.js';
import type { CaseSample } from './case-sample.js';

/**
 * The ECE cell of each calibration decision: question × bin, binned once over the decisions
 * kept (per question with its own bins when averaging per question, else one pooled binning).
 * The bootstrap and the noise floor reuse these cells, so every resample and every
 * simulation is binned like the measured run (for equal-mass bins the edges come from the
 * measured confidences and stay fixed).
 */
export interface DecisionCells {
  readonly bins: number;
  /** Questions (1 when pooled). */
  readonly groups: number;
  /** Cell of each calibration decision (group · bins + bin), -1 for a decision not kept. */
  readonly cellOf: Int32Array;
  /** Group of each decision (0 when pooled), -1 for a decision not kept. */
  readonly groupOf: Int32Array;
}

export function decisionCells(
  sample: CaseSample,
  options: CalibrationOptions,
  keepCase: (caseIndex: number) => boolean = () => true,
): DecisionCells {
  const perQuestion = options.average === 'per-question';
  const groups = perQuestion ? Math.max(1, sample.questions.length) : 1;
  const n = sample.nDecisions;
  const groupOf = new Int32Array(n).fill(-1);
  const sizes = new Int32Array(groups);
  for (let i = 0; i < n; i++) {
    if (!keepCase(sample.caseOf[i]!)) continue;
    const g = perQuestion ? sample.question[i]! : 0;
    groupOf[i] = g;
    sizes[g]!++;
  }
  // Each group's confidences, sorted, for equal-mass edges.
  const binners = [];
  if (options.binning === 'equal-mass') {
    const conf: Float64Array[] = Array.from(sizes, (s) => new Float64Array(s));
    const fill = new Int32Array(groups);
    for (let i = 0; i < n; i++) {
      const g = groupOf[i]!;
      if (g >= 0) conf[g]![fill[g]!++] = sample.confidence[i]!;
    }
    for (const c of conf) binners.push(createBinner(options, c.sort()));
  } else {
    const one = createBinner(options);
    for (let g = 0; g < groups; g++) binners.push(one);
  }
  const cellOf = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const g = groupOf[i]!;
    if (g >= 0) cellOf[i] = g * options.bins + binners[g]!.binOf(sample.confidence[i]!);
  }
  return { bins: options.bins, groups, cellOf, groupOf };
}
