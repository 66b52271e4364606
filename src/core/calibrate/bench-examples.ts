/**
 * A stored benchmark run's answered decisions as calibration examples: the predicted
 * distribution against the gold distribution (soft gold: the fit minimises cross-entropy,
 * which differs from KL(gold ‖ predicted) by the gold's own entropy), the gold label the
 * one correct answer of accuracy and log loss. Failed decisions are not calibrated.
 */
import { calibrationGroupOf } from '../calibration-map-file.js';
import type { CalibrationGrouping } from '../calibration-map.js';
import type { CaseResult } from '../typed-decisions/case-result.js';
import type { CalibrationExample } from './examples.js';

export function benchExamples(
  cases: Iterable<CaseResult>,
  by: CalibrationGrouping,
): { readonly examples: CalibrationExample[]; readonly failed: number } {
  const examples: CalibrationExample[] = [];
  let failed = 0;
  for (const c of cases)
    for (const d of c.decisions) {
      if (d.outcome.status !== 'answered') {
        failed++;
        continue;
      }
      const key = `${c.workflow}/${d.questionId}`;
      examples.push({
        caseId: c.caseId,
        decisionKey: key,
        group: calibrationGroupOf(by, d.type, key),
        p: d.outcome.probabilities,
        target: d.gold.probabilities,
        labelIndex: d.answers.indexOf(d.gold.label),
      });
    }
  return { examples, failed };
}
