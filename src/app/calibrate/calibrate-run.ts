/**
 * `calibrate RUN`: a stored benchmark run's answers, fitted against its soft gold and
 * checked on held-out folds of its cases (a case's questions share one state, so one fold).
 */
import type { CalibrationGrouping, CalibrationMethod } from '../../core/calibration-map.js';
import { benchExamples } from '../../core/calibrate/bench-examples.js';
import { crossValidateCalibration, type CalibrationRun } from '../../core/calibrate/cross-validate.js';
import { calibrationMapOf } from '../../core/calibrate/map-of-result.js';
import { DEFAULT_CONVENTIONS, type Conventions } from '../../core/stats/conventions.js';
import type { AskedBy } from '../../store/index.js';
import { openStoredRun } from '../runs/stored-runs.js';
import { examplesSha256 } from './calibrate-offline.js';

export interface CalibrateRunOptions {
  readonly storePath: string;
  /** A run id or its unique prefix. */
  readonly run: string;
  readonly askedBy: AskedBy;
  readonly method?: CalibrationMethod;
  readonly by?: CalibrationGrouping;
  readonly folds?: number;
  readonly conventions?: Conventions;
}

export function calibrateStoredRun(options: CalibrateRunOptions): CalibrationRun {
  const by = options.by ?? 'all';
  const opened = openStoredRun(options.storePath, options.run, options.askedBy);
  const { examples, failed } = benchExamples(opened.run.cases, by);
  const result = crossValidateCalibration(examples, {
    method: options.method ?? 'temperature',
    by,
    source: 'bench',
    ...(options.folds === undefined ? {} : { folds: options.folds }),
    conventions: options.conventions ?? DEFAULT_CONVENTIONS,
  });
  const model = opened.head.model;
  return {
    fittedOn: `run ${opened.head.id} of ${options.storePath}`,
    model: typeof model === 'string' ? model : null,
    result,
    map: calibrationMapOf(result, examplesSha256(examples)),
    skipped: failed,
  };
}
