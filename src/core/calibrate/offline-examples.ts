/**
 * Offline answers as calibration examples: a `yes_no` decision is the distribution
 * {yes: p, no: 1 - p}, a `choice` its options' probabilities, each against its one correct
 * answer; `score` cases are not calibrated. The fold unit is the case, or its item when
 * cases share a `group` (an item's fields are about one thing).
 */
import { calibrationGroupOf } from '../calibration-map-file.js';
import type { CalibrationGrouping } from '../calibration-map.js';
import type { OfflineCase, OfflineDecision } from '../offline/case.js';
import type { CalibrationExample } from './examples.js';

/** The example of one saved decision, or null for a `score` case. */
export function offlineExample(
  c: OfflineCase,
  decision: OfflineDecision,
  by: CalibrationGrouping,
): CalibrationExample | null {
  const base = {
    caseId: c.group ?? c.id,
    decisionKey: c.id,
    group: calibrationGroupOf(by, c.kind, c.prompt ?? ''),
  };
  if (c.kind === 'yes_no' && decision.kind === 'yes_no') {
    const p = decision.probability;
    return { ...base, p: [p, 1 - p], target: c.correct ? [1, 0] : [0, 1], labelIndex: c.correct ? 0 : 1 };
  }
  if (c.kind === 'choice' && decision.kind === 'choice') {
    return {
      ...base,
      p: decision.probabilities,
      target: c.options.map((_, k) => (k === c.correctIndex ? 1 : 0)),
      labelIndex: c.correctIndex,
      ...(decision.pickedIndex === undefined ? {} : { pickedIndex: decision.pickedIndex }),
    };
  }
  return null;
}
