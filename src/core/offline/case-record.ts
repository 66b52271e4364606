/**
 * Per-case numbers of one model's offline run, indexed by the dataset's case index: what
 * intervals, the noise floor, paired comparisons, the ranking metrics of yes/no decisions and
 * the ECE conventions beyond the streaming default need. Kept only when asked for, in typed
 * arrays (36 bytes a case), so a million cases cost about 36 MB and no object per result.
 */
import type { CalibrationOptions } from '../calibration.js';
import { CalibrationAccumulator, type Calibration } from '../calibration.js';
import type { CaseSample } from '../stats/case-sample.js';
import type { RankedDecisions } from '../stats/ranking.js';

export class OfflineCaseRecord {
  /** 1 when the case has a yes_no or choice result (the decisions accuracy counts). */
  readonly decided: Uint8Array;
  readonly hit: Uint8Array;
  readonly confidence: Float64Array;
  readonly brier: Float64Array;
  readonly logLoss: Float64Array;
  /** 1 when the case has a yes_no result; its P(yes) and whether the correct answer is yes. */
  readonly yesNo: Uint8Array;
  readonly yesProbability: Float64Array;
  readonly correctYes: Uint8Array;

  constructor(readonly nCases: number) {
    this.decided = new Uint8Array(nCases);
    this.hit = new Uint8Array(nCases);
    this.confidence = new Float64Array(nCases);
    this.brier = new Float64Array(nCases);
    this.logLoss = new Float64Array(nCases);
    this.yesNo = new Uint8Array(nCases);
    this.yesProbability = new Float64Array(nCases);
    this.correctYes = new Uint8Array(nCases);
  }

  record(caseIndex: number, hit: boolean, confidence: number, brier: number, logLoss: number): void {
    this.decided[caseIndex] = 1;
    this.hit[caseIndex] = hit ? 1 : 0;
    this.confidence[caseIndex] = confidence;
    this.brier[caseIndex] = brier;
    this.logLoss[caseIndex] = logLoss;
  }

  /** What ranking needs of a yes_no decision, beside `record`. */
  recordYesNo(caseIndex: number, probability: number, correctYes: boolean): void {
    this.yesNo[caseIndex] = 1;
    this.yesProbability[caseIndex] = probability;
    this.correctYes[caseIndex] = correctYes ? 1 : 0;
  }
}

/**
 * The yes_no decisions of the record, in case order, as ranking input (`core/stats/ranking.ts`);
 * only the cases `alsoIn` decided as yes_no too when given (a paired comparison).
 */
export function offlineRankedDecisions(
  record: OfflineCaseRecord,
  ids: readonly string[],
  alsoIn?: OfflineCaseRecord,
): RankedDecisions {
  const keep = (i: number) => record.yesNo[i] === 1 && (alsoIn === undefined || alsoIn.yesNo[i] === 1);
  const kept: number[] = [];
  for (let i = 0; i < record.nCases; i++) if (keep(i)) kept.push(i);
  return {
    ids: kept.map((i) => ids[i]!),
    scores: Float64Array.from(kept, (i) => record.yesProbability[i]!),
    positive: Uint8Array.from(kept, (i) => record.correctYes[i]!),
  };
}

/** Where a case's id and question (its prompt; '' without one) come from. */
export interface OfflineCaseKeys {
  /** Every case id, by case index. */
  readonly ids: readonly string[];
  questionOf(caseIndex: number): string;
}

/**
 * The decided cases as a bootstrap sample: one decision per case, in case order. Built
 * straight from the typed arrays; questions are looked up only for per-question ECE.
 */
export function offlineCaseSample(record: OfflineCaseRecord, keys: OfflineCaseKeys, perQuestion = false): CaseSample {
  let n = 0;
  for (let i = 0; i < record.nCases; i++) n += record.decided[i]!;
  const ids = new Array<string>(n);
  const hit = new Uint8Array(n);
  const correct = new Float64Array(n);
  const confidence = new Float64Array(n);
  const brier = new Float64Array(n);
  const logLoss = new Float64Array(n);
  const caseOf = new Int32Array(n);
  const question = new Int32Array(n);
  const questionIndex = new Map<string, number>();
  let k = 0;
  for (let i = 0; i < record.nCases; i++) {
    if (record.decided[i] === 0) continue;
    ids[k] = keys.ids[i]!;
    hit[k] = record.hit[i]!;
    correct[k] = record.hit[i]!;
    confidence[k] = record.confidence[i]!;
    brier[k] = record.brier[i]!;
    logLoss[k] = record.logLoss[i]!;
    caseOf[k] = k;
    if (perQuestion) {
      const q = keys.questionOf(i);
      let g = questionIndex.get(q);
      if (g === undefined) questionIndex.set(q, (g = questionIndex.size));
      question[k] = g;
    }
    k++;
  }
  // Question indices in sorted order, so they do not depend on the dataset's order.
  const keysSorted = [...questionIndex.keys()].sort();
  const rank = new Map(keysSorted.map((q, r) => [q, r]));
  const remap = Int32Array.from(questionIndex.keys(), (q) => rank.get(q)!);
  if (perQuestion) for (let j = 0; j < n; j++) question[j] = remap[question[j]!]!;
  const ones = new Float64Array(n).fill(1);
  return {
    nCases: n,
    ids,
    decisions: ones,
    correct,
    answered: ones,
    kl: new Float64Array(n),
    brier,
    logLoss,
    has: { kl: false, brier: n > 0, logLoss: n > 0 },
    nDecisions: n,
    caseOf,
    confidence,
    hit,
    question,
    questions: perQuestion ? keysSorted : [''],
  };
}

/** Calibration of the recorded decisions under any convention (the prompt is the question). */
export function offlineCalibration(
  record: OfflineCaseRecord,
  keys: Pick<OfflineCaseKeys, 'questionOf'>,
  options: CalibrationOptions,
): Calibration {
  const acc = new CalibrationAccumulator(options);
  const perQuestion = options.average === 'per-question';
  for (let i = 0; i < record.nCases; i++)
    if (record.decided[i] === 1)
      acc.add(record.confidence[i]!, record.hit[i] === 1, perQuestion ? keys.questionOf(i) : '');
  return acc.summarize();
}

/**
 * Whether ECE averaged per question is degenerate on this record: more than one decided case
 * and no question (prompt) holding two of them. Each question's ECE is then |hit − confidence|
 * of its one decision, whatever the bins, and their mean says nothing about calibration.
 */
export function perQuestionEceDegenerate(
  record: OfflineCaseRecord,
  keys: Pick<OfflineCaseKeys, 'questionOf'>,
): boolean {
  const seen = new Set<string>();
  for (let i = 0; i < record.nCases; i++) {
    if (record.decided[i] !== 1) continue;
    const q = keys.questionOf(i);
    if (seen.has(q)) return false;
    seen.add(q);
  }
  return seen.size > 1;
}
