/**
 * Per-case numbers of one model's offline run, indexed by the dataset's case index: what
 * intervals, the noise floor, paired comparisons and the ECE conventions beyond the
 * streaming default need. Kept only when asked for, in typed arrays (26 bytes a case), so a
 * million cases cost about 26 MB and no object per result.
 */
import type { CalibrationOptions } from '../calibration.js';
import { CalibrationAccumulator, type Calibration } from '../calibration.js';
import { CaseSampleBuilder, type CaseSample } from '../stats/case-sample.js';

export class OfflineCaseRecord {
  /** 1 when the case has a yes_no or choice result (the decisions accuracy counts). */
  readonly decided: Uint8Array;
  readonly hit: Uint8Array;
  readonly confidence: Float64Array;
  readonly brier: Float64Array;
  readonly logLoss: Float64Array;

  constructor(readonly nCases: number) {
    this.decided = new Uint8Array(nCases);
    this.hit = new Uint8Array(nCases);
    this.confidence = new Float64Array(nCases);
    this.brier = new Float64Array(nCases);
    this.logLoss = new Float64Array(nCases);
  }

  record(caseIndex: number, hit: boolean, confidence: number, brier: number, logLoss: number): void {
    this.decided[caseIndex] = 1;
    this.hit[caseIndex] = hit ? 1 : 0;
    this.confidence[caseIndex] = confidence;
    this.brier[caseIndex] = brier;
    this.logLoss[caseIndex] = logLoss;
  }
}

/** Where a case's id and question (its prompt; '' without one) come from. */
export interface OfflineCaseKeys {
  idOf(caseIndex: number): string;
  questionOf(caseIndex: number): string;
}

/** The decided cases as a bootstrap sample: one decision per case. */
export function offlineCaseSample(record: OfflineCaseRecord, keys: OfflineCaseKeys): CaseSample {
  const b = new CaseSampleBuilder();
  for (let i = 0; i < record.nCases; i++) {
    if (record.decided[i] === 0) continue;
    const hit = record.hit[i] === 1;
    b.addCase(keys.idOf(i), {
      decisions: 1,
      correct: hit ? 1 : 0,
      answered: 1,
      brier: record.brier[i]!,
      logLoss: record.logLoss[i]!,
    });
    b.addDecision(record.confidence[i]!, hit, keys.questionOf(i));
  }
  return b.build();
}

/** Calibration of the recorded decisions under any convention (the prompt is the question). */
export function offlineCalibration(
  record: OfflineCaseRecord,
  keys: OfflineCaseKeys,
  options: CalibrationOptions,
): Calibration {
  const acc = new CalibrationAccumulator(options);
  const perQuestion = options.average === 'per-question';
  for (let i = 0; i < record.nCases; i++)
    if (record.decided[i] === 1)
      acc.add(record.confidence[i]!, record.hit[i] === 1, perQuestion ? keys.questionOf(i) : '');
  return acc.summarize();
}
