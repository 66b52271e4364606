/**
 * `calibrate`'s whole computation (docs/calibrate.md): group the decisions, deal their cases
 * into seeded folds, fit each group on the other folds and apply the fit to the held-out
 * fold, then measure the held-out answers before and after (intervals, paired verdicts, the
 * ECE noise floor) and fit the map on all the data. Every number the report shows comes from
 * here.
 */
import { applyCalibration, type CalibrationGrouping, type CalibrationMethod } from '../calibration-map.js';
import type { CalibrationMap, CalibrationMapGroup, CalibrationSource } from '../calibration-map.js';
import type { Calibration } from '../calibration.js';
import { argmaxFirst } from '../decision-score.js';
import { DecidekitError } from '../errors.js';
import {
  bootstrapIntervals,
  pairedBootstrap,
  type BootstrapResult,
  type PairedComparison,
} from '../stats/bootstrap.js';
import { calibrationOptionsOf, withConventions, type Conventions } from '../stats/conventions.js';
import { eceNoiseFloor, eceNoiseOf, type EceNoise } from '../stats/noise-floor.js';
import { canonicalOrder, type CalibrationExample } from './examples.js';
import { fitGroup, unchangedText, type GroupFit } from './fit-group.js';
import { assignFolds } from './folds.js';
import { predictionSample } from './prediction-sample.js';

export const DEFAULT_FOLDS = 5;

export interface CrossValidateOptions {
  readonly method: CalibrationMethod;
  readonly by: CalibrationGrouping;
  readonly source: CalibrationSource;
  /** Folds wanted (default 5); fewer when there are fewer cases. */
  readonly folds?: number;
  /** Seeds the folds, the bootstrap and the noise floor. */
  readonly conventions: Conventions;
}

/** Held-out answers measured before and after: each side's numbers and intervals, their paired difference. */
export interface HeldOutMetrics {
  readonly before: BootstrapResult;
  readonly after: BootstrapResult;
  /** after - before, paired on the cases. */
  readonly paired: PairedComparison;
  readonly noiseBefore: EceNoise | null;
  readonly noiseAfter: EceNoise | null;
  readonly reliabilityBefore: Calibration;
  readonly reliabilityAfter: Calibration;
}

export interface GroupCalibration {
  readonly key: string;
  readonly decisions: number;
  readonly cases: number;
  /** The fit on all of the group's decisions: what the map holds. */
  readonly fit: GroupFit;
  /** How many folds' fits were left unchanged (their held-out answers stay as they were). */
  readonly unchangedFolds: number;
  readonly heldOut: HeldOutMetrics;
  /** The map applied to all of the group's decisions it was fitted on (in-sample, no intervals). */
  readonly fitted: BootstrapResult;
}

export interface CalibrationResult {
  readonly method: CalibrationMethod;
  readonly by: CalibrationGrouping;
  readonly source: CalibrationSource;
  readonly folds: number;
  readonly seed: number;
  readonly conventions: Conventions;
  /** Cases the decisions belong to (the fold units). */
  readonly cases: number;
  readonly groups: readonly GroupCalibration[];
  /** Every group's held-out answers together (the same as the one group with `all`). */
  readonly overall: HeldOutMetrics;
  readonly overallFitted: BootstrapResult;
  readonly mapGroups: readonly CalibrationMapGroup[];
}

/** What `calibrate` shows and writes. */
export interface CalibrationRun {
  /** The files or the stored run fitted on, in words. */
  readonly fittedOn: string;
  readonly model: string | null;
  readonly result: CalibrationResult;
  readonly map: CalibrationMap;
  /** Decisions not calibrated: `score` cases offline. */
  readonly skipped: number;
}

/** Cross-validates and fits; examples of one case must share its fold, so they share `caseId`. */
export function crossValidateCalibration(
  input: readonly CalibrationExample[],
  options: CrossValidateOptions,
): CalibrationResult {
  const examples = canonicalOrder(input);
  const cases = casesOf(examples);
  if (cases.length < 2)
    throw new DecidekitError(
      'too_few_cases',
      `calibration needs the decisions of at least 2 cases to hold some out, got ${cases.length}`,
    );
  const k = Math.max(2, Math.min(options.folds ?? DEFAULT_FOLDS, cases.length));
  const folds = assignFolds(cases, k, options.conventions.seed);
  const after = new Array<readonly number[]>(examples.length);
  const groups: GroupCalibration[] = [];
  const mapGroups: CalibrationMapGroup[] = [];
  const fittedAll = new Array<readonly number[]>(examples.length);
  for (const [key, indices] of groupIndices(examples)) {
    const own = indices.map((i) => examples[i]!);
    let unchangedFolds = 0;
    for (let f = 0; f < k; f++) {
      const train = own.filter((e) => folds.get(e.caseId) !== f);
      const fit = fitGroup(options.method, train);
      if (fit.status === 'unchanged') unchangedFolds++;
      for (const i of indices) if (folds.get(examples[i]!.caseId) === f) after[i] = applied(fit, examples[i]!.p);
    }
    const fit = fitGroup(options.method, own);
    for (const i of indices) fittedAll[i] = applied(fit, examples[i]!.p);
    groups.push({
      key,
      decisions: own.length,
      cases: new Set(own.map((e) => e.caseId)).size,
      fit,
      unchangedFolds,
      heldOut: heldOutMetrics(
        own,
        indices.map((i) => after[i]!),
        options,
      ),
      fitted: fittedMetrics(
        own,
        indices.map((i) => fittedAll[i]!),
        options,
      ),
    });
    mapGroups.push({
      key,
      decisions: own.length,
      parameters: fit.status === 'fitted' ? fit.parameters : null,
      ...(fit.status === 'unchanged' ? { unchanged: unchangedText(fit.reason) } : {}),
    });
  }
  return {
    method: options.method,
    by: options.by,
    source: options.source,
    folds: k,
    seed: options.conventions.seed,
    cases: cases.length,
    conventions: options.conventions,
    groups,
    overall: heldOutMetrics(examples, after, options),
    overallFitted: fittedMetrics(examples, fittedAll, options),
    mapGroups,
  };
}

function applied(fit: GroupFit, p: readonly number[]): readonly number[] {
  return fit.status === 'fitted' ? applyCalibration(fit.parameters, p) : p;
}

/**
 * Each case once, with its stratum: how many of its decisions the model got right. What a
 * calibration learns is how often the model is right, so folds that share the error rate
 * give each fold's fit the same picture.
 */
function casesOf(examples: readonly CalibrationExample[]): { id: string; stratum: string }[] {
  const hits = new Map<string, number>();
  for (const e of examples) {
    const hit = (e.pickedIndex ?? argmaxFirst(e.p)) === e.labelIndex ? 1 : 0;
    hits.set(e.caseId, (hits.get(e.caseId) ?? 0) + hit);
  }
  return [...hits].map(([id, n]) => ({ id, stratum: String(n).padStart(6, '0') }));
}

/** Example indices by group, groups in sorted order. */
function groupIndices(examples: readonly CalibrationExample[]): [string, number[]][] {
  const byGroup = new Map<string, number[]>();
  examples.forEach((e, i) => {
    const list = byGroup.get(e.group) ?? [];
    list.push(i);
    byGroup.set(e.group, list);
  });
  return [...byGroup].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function heldOutMetrics(
  examples: readonly CalibrationExample[],
  after: readonly (readonly number[])[],
  options: CrossValidateOptions,
): HeldOutMetrics {
  const kl = options.source === 'bench';
  const before = predictionSample(
    examples,
    examples.map((e) => e.p),
    kl,
  );
  const next = predictionSample(examples, after, kl);
  const conventions = options.conventions;
  const cal = calibrationOptionsOf(conventions);
  const noise = (s: typeof before): EceNoise | null => {
    const floor = eceNoiseFloor(s.sample, cal, { seed: conventions.seed });
    const ece = s.calibration.ece;
    return floor === null || ece === null ? null : eceNoiseOf(ece, floor);
  };
  return {
    before: bootstrapIntervals(before.sample, conventions),
    after: bootstrapIntervals(next.sample, conventions),
    paired: pairedBootstrap(before.sample, next.sample, conventions),
    noiseBefore: noise(before),
    noiseAfter: noise(next),
    reliabilityBefore: before.calibration,
    reliabilityAfter: next.calibration,
  };
}

function fittedMetrics(
  examples: readonly CalibrationExample[],
  fitted: readonly (readonly number[])[],
  options: CrossValidateOptions,
): BootstrapResult {
  const s = predictionSample(examples, fitted, options.source === 'bench');
  return bootstrapIntervals(s.sample, withConventions({ bootstrapResamples: 0 }, options.conventions));
}
