/**
 * A benchmark case's answers with a calibration map applied (`bench --calibration`, `report
 * RUN --calibration`): each answered decision's distribution recalibrated by its group, then
 * scored again against its gold. The stored answers stay raw; every summary, interval and
 * listing of a recalibrated run is made from cases passed through here. Shared code: the
 * bench and runs rooms apply a map, the store recomputes a recalibrated run's summary.
 */
import { applyCalibration, type CalibrationParameters, type RunCalibration } from './calibration-map.js';
import { calibrationGroupOf, missingGroupsText } from './calibration-map-file.js';
import { scoreDecision } from './decision-score.js';
import type { CaseResult, Decision } from './typed-decisions/case-result.js';

/** What applying a map needs of it: how it groups and each group's parameters. */
export type CaseCalibration = Pick<RunCalibration, 'by' | 'groups'>;

/** A run's cases (an array, or a source read page by page): iterated, never held. */
export interface CaseList {
  readonly length: number;
  [Symbol.iterator](): Iterator<CaseResult>;
}

/** The key a benchmark decision's question has in a map by question (`workflow/question`). */
export function benchQuestionKey(workflow: string, questionId: string): string {
  return `${workflow}/${questionId}`;
}

/** Applies a map to one case: each answered decision recalibrated and scored again; failed ones as they were. */
export function recalibrateCase(c: CaseResult, calibration: CaseCalibration): CaseResult {
  const byKey = parametersByKey(calibration);
  return recalibrateWith(c, calibration, byKey);
}

/** The cases of a run with a map applied, read lazily (as many times as the source is iterated). */
export function recalibratedCases<S extends CaseList>(cases: S, calibration: CaseCalibration): CaseList {
  const byKey = parametersByKey(calibration);
  return {
    length: cases.length,
    *[Symbol.iterator]() {
      for (const c of cases) yield recalibrateWith(c, calibration, byKey);
    },
  };
}

/** The same for any iterable of cases. */
export function* recalibratedIterable(
  cases: Iterable<CaseResult>,
  calibration: CaseCalibration,
): Generator<CaseResult> {
  const byKey = parametersByKey(calibration);
  for (const c of cases) yield recalibrateWith(c, calibration, byKey);
}

/** One question of a run or dataset: its `workflow/question` key and its type. */
export interface RunQuestion {
  readonly key: string;
  readonly type: string;
}

/**
 * The groups a run's questions need that the map lacks, as one sentence (`it has no group for
 * question type "score" (its groups, by type: "choice", "noul")`); null when every question
 * has its group.
 */
export function missingRunGroupsText(
  calibration: Pick<RunCalibration, 'by' | 'groups'>,
  questions: readonly RunQuestion[],
): string | null {
  const needed = questions.map((q) => calibrationGroupOf(calibration.by, q.type, q.key));
  return missingGroupsText({ by: calibration.by, groups: calibration.groups }, needed, (k) =>
    calibration.by === 'type' ? `question type ${JSON.stringify(k)}` : `question ${JSON.stringify(k)}`,
  );
}

function parametersByKey(calibration: CaseCalibration): ReadonlyMap<string, CalibrationParameters | null> {
  return new Map(calibration.groups.map((g) => [g.key, g.parameters]));
}

function recalibrateWith(
  c: CaseResult,
  calibration: CaseCalibration,
  byKey: ReadonlyMap<string, CalibrationParameters | null>,
): CaseResult {
  return {
    ...c,
    decisions: c.decisions.map((d) => {
      if (d.outcome.status !== 'answered') return d;
      const parameters = byKey.get(
        calibrationGroupOf(calibration.by, d.type, benchQuestionKey(c.workflow, d.questionId)),
      );
      // A group left unchanged (or absent: checked before any work) passes its answers through.
      return parameters == null ? d : rescored(d, applyCalibration(parameters, d.outcome.probabilities));
    }),
  };
}

/** A decision with new probabilities, scored as `scoreCase` scores an answer. */
function rescored(d: Decision, probabilities: readonly number[]): Decision {
  const s = scoreDecision(
    { labelIndex: d.answers.indexOf(d.gold.label), probabilities: d.gold.probabilities },
    probabilities,
  );
  return {
    ...d,
    outcome: {
      status: 'answered',
      probabilities,
      predicted: d.answers[s.predictedIndex]!,
      confidence: s.confidence,
      correct: s.correct,
      kl: s.kl,
      brier: s.brier,
    },
  };
}
