/**
 * `calibrate --dataset FILE --results FILE`: one model's saved offline answers, fitted and
 * checked on held-out folds (core/calibrate/cross-validate.ts), with the map to write.
 */
import { createHash } from 'node:crypto';
import type { CalibrationGrouping, CalibrationMethod } from '../../core/calibration-map.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { crossValidateCalibration, type CalibrationRun } from '../../core/calibrate/cross-validate.js';
import { canonicalOrder, type CalibrationExample } from '../../core/calibrate/examples.js';
import { calibrationMapOf } from '../../core/calibrate/map-of-result.js';
import { offlineExample } from '../../core/calibrate/offline-examples.js';
import { DEFAULT_CONVENTIONS, type Conventions } from '../../core/stats/conventions.js';
import { loadOfflineDataset } from '../../datasets/offline/dataset.js';
import { loadResults } from '../../datasets/offline/results.js';

export interface CalibrateOfflineOptions {
  readonly datasetPath: string;
  readonly resultsPath: string;
  /** Default temperature. */
  readonly method?: CalibrationMethod;
  /** Default all. */
  readonly by?: CalibrationGrouping;
  /** Default 5. */
  readonly folds?: number;
  /** Seed (folds, bootstrap, noise floor) and resamples; default DEFAULT_CONVENTIONS. */
  readonly conventions?: Conventions;
}

export async function calibrateOffline(options: CalibrateOfflineOptions): Promise<CalibrationRun> {
  const method = options.method ?? 'temperature';
  const by = options.by ?? 'all';
  const dataset = await loadOfflineDataset(options.datasetPath);
  const { model, results } = await loadResults(options.resultsPath, dataset);
  const examples: CalibrationExample[] = [];
  let skipped = 0;
  for (const r of results) {
    const e = offlineExample(dataset.byId.get(r.caseId)!, r.decision, by);
    if (e === null) skipped++;
    else examples.push(e);
  }
  const result = crossValidateCalibration(examples, {
    method,
    by,
    source: 'offline',
    ...(options.folds === undefined ? {} : { folds: options.folds }),
    conventions: options.conventions ?? DEFAULT_CONVENTIONS,
  });
  return {
    fittedOn: `${options.resultsPath} against ${options.datasetPath}`,
    model,
    result,
    map: calibrationMapOf(result, examplesSha256(examples)),
    skipped,
  };
}

/** sha256 of the fitted decisions' canonical text: the same decisions in any order give the same hash. */
export function examplesSha256(examples: readonly CalibrationExample[]): string {
  const hash = createHash('sha256');
  for (const e of canonicalOrder(examples))
    hash.update(
      `${canonicalJson([e.caseId, e.decisionKey, e.group, e.p, e.target, e.labelIndex, e.pickedIndex ?? null])}\n`,
    );
  return hash.digest('hex');
}
