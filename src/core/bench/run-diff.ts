import { optionMention, words, type MessageWords } from '../message-words.js';
import type { CaseResult, Decision, FailureKind } from '../typed-decisions/case-result.js';
import { appliedCalibrationOf, type ReportedRun } from './run.js';
import type { AppliedCalibration } from '../calibration-map.js';
import type { MetricGroup } from './summary.js';
import type { RunStatus } from '../run-status.js';
import type { QuestionType } from '../question.js';
import { DecidekitError } from '../errors.js';
import { isSameWork, workDifferences } from './run-work.js';
import { caseSampleOfRun } from './run-statistics.js';
import { pairedBootstrap, type PairedComparison, type StatMetric } from '../stats/bootstrap.js';
import type { CaseSample } from '../stats/case-sample.js';
import { DEFAULT_CONVENTIONS, type Conventions } from '../stats/conventions.js';
import { mcnemarExact, type McNemarResult } from '../stats/mcnemar.js';
import { benchResumeCommand } from '../command-hints.js';
import { ExactSum } from '../exact-sum.js';

/** A metric of run A and run B; `delta` = b - a, null when either side is absent. */
export interface MetricDelta {
  readonly a: number | null;
  readonly b: number | null;
  readonly delta: number | null;
}

export interface ComparedRun {
  readonly id: string;
  readonly createdAt: string;
  readonly label: string | null;
  readonly fingerprint: string;
  readonly model: string | null;
  readonly status: RunStatus;
  readonly decisions: number;
  /** Requests (cases) the run sent, and how many of them failed: over the whole run. */
  readonly requests: { readonly total: number; readonly failed: number };
  /** The calibration map the run's numbers were recalibrated with; absent when none was. */
  readonly recalibratedWith?: AppliedCalibration;
}

export interface HeadlineDeltas {
  readonly accuracy: MetricDelta;
  readonly kl: MetricDelta;
  readonly brier: MetricDelta;
  readonly logLoss: MetricDelta;
  readonly ece: MetricDelta;
  readonly meanConfidence: MetricDelta;
  /** Failed decisions. */
  readonly errors: MetricDelta;
  readonly latencyP50Ms: MetricDelta;
}

/** The one base of a comparison of runs over different cases: the cases both have. */
export interface SharedCases {
  /** Cases (distinct ids) both runs have. */
  readonly cases: number;
  /** Cases of one run the other lacks, left out of the headline metrics. */
  readonly onlyInA: number;
  readonly onlyInB: number;
}

export interface QuestionDelta {
  /** `workflow/question`. */
  readonly key: string;
  readonly total: MetricDelta;
  readonly accuracy: MetricDelta;
  readonly kl: MetricDelta;
  readonly brier: MetricDelta;
}

/** One side of a decision: what was predicted, or the failure. */
export interface DecisionView {
  /** Null when the request failed. */
  readonly predicted: string | null;
  readonly confidence: number | null;
  readonly correct: boolean;
  readonly error: FailureKind | null;
}

/** What a per-question row counts of a decision: right or not, and its KL and Brier (null when it failed). */
interface DecisionScores {
  readonly correct: boolean;
  readonly kl: number | null;
  readonly brier: number | null;
}

export interface ChangedDecision {
  readonly caseId: string;
  readonly workflow: string;
  readonly questionId: string;
  readonly type: QuestionType;
  /** Gold label of run A's copy of the case. */
  readonly gold: string;
  readonly before: DecisionView;
  readonly after: DecisionView;
}

export interface RunComparison {
  readonly a: ComparedRun;
  readonly b: ComparedRun;
  /** Same dataset, cases, questions, model and endpoint. */
  readonly sameFingerprint: boolean;
  /** Same dataset revision, cases and questions (models may differ); false only when forced. */
  readonly sameWork: boolean;
  /**
   * How the runs' work differs, one reason each, worded from A's side (`calibration map: A
   * none, B sha256 …`): empty when it is the same.
   */
  readonly workDifferences: readonly string[];
  /**
   * Accuracy, KL, Brier, log loss and ECE are over the cases both runs have when their case
   * sets differ (as their paired intervals and verdicts, and as `runs gate`), over each whole
   * run otherwise; mean confidence, errors and latency are always over each whole run.
   */
  readonly headline: HeadlineDeltas;
  /** The cases the headline metrics were taken over when the runs' case sets differ; null when they are the same. */
  readonly sharedCases: SharedCases | null;
  /**
   * Union of both runs' questions, keys sorted: over the cases both runs have when their case
   * sets differ (`sharedCases`, the base of the headline), over each whole run otherwise.
   */
  readonly byQuestion: readonly QuestionDelta[];
  /** Decisions present in both runs whose correctness changed, in run A's order. */
  readonly changed: readonly ChangedDecision[];
  /** Wrong (or failed) in A, right in B. */
  readonly fixed: number;
  /** Right in A, wrong (or failed) in B. */
  readonly broken: number;
  /** Decisions in both runs whose prediction (or failure) differs, correctness changed or not. */
  readonly predictionsChanged: number;
  /** Decisions present in both runs. */
  readonly shared: number;
  readonly onlyInA: number;
  readonly onlyInB: number;
  /** McNemar's exact test on the shared decisions' right/wrong outcomes (A first). */
  readonly mcnemar: McNemarResult;
  /**
   * Per headline metric, B - A with a paired case-level bootstrap interval and a verdict at
   * 95% (better, worse, within noise); null when intervals were turned off.
   */
  readonly paired: PairedComparison | null;
  /** The conventions both runs' numbers were computed under. */
  readonly conventions: Conventions;
}

export interface CompareRunsOptions {
  /** Compare runs that measured different work (another dataset revision, cases or questions). Default false. */
  readonly force?: boolean;
  /** The conventions both runs' numbers use (their summaries must be computed under them). Default: the defaults. */
  readonly conventions?: Conventions;
  /** Paired bootstrap intervals and verdicts. Default true. */
  readonly intervals?: boolean;
  /** The metrics given paired intervals and verdicts (the others get neither). Default: all five. */
  readonly intervalsOf?: readonly StatMetric[];
}

function delta(a: number | null, b: number | null): MetricDelta {
  return { a, b, delta: a === null || b === null ? null : b - a };
}

function scoresOf(d: Decision): DecisionScores {
  const o = d.outcome;
  return o.status === 'answered'
    ? { correct: o.correct, kl: o.kl, brier: o.brier }
    : { correct: false, kl: null, brier: null };
}

/** How run B's work differs from run A's, one reason each (empty when the same). */
export function workDifferencesAB(a: ReportedRun['config'], b: ReportedRun['config']): string[] {
  return workDifferences(a, b, { was: 'A', now: 'B', onlyInWas: 'only in A', onlyInNow: 'only in B' });
}

/**
 * Refuses (`not_comparable`) two runs of different work, naming each difference, or a run
 * stopped before all its cases, unless `force`; says whether their fingerprints and work
 * are the same. Reads no case. `resumeCommand` gives the command that finishes a run (with
 * its store), for the hint; without it the hint names `decidekit bench --resume RUN`. `anyway`
 * says how to compare them anyway (by default, with the force option).
 */
export function refuseIncomparable(
  a: Pick<ReportedRun, 'id' | 'fingerprint' | 'config' | 'cases'>,
  b: Pick<ReportedRun, 'id' | 'fingerprint' | 'config' | 'cases'>,
  force = false,
  resumeCommand: (runId: string) => string = (id) => benchResumeCommand(id),
  anyway: (a: string, b: string) => MessageWords = () => words`with ${optionMention('force')}`,
): { readonly sameFingerprint: boolean; readonly sameWork: boolean } {
  const sameFingerprint = a.fingerprint === b.fingerprint;
  // The fingerprint decides "same work" through its dataset, case and question parts; the
  // model and endpoint are what a comparison is for, so they may differ.
  const sameWork = sameFingerprint || isSameWork(a.config, b.config);
  if (!sameWork && force !== true) {
    const reasons = workDifferencesAB(a.config, b.config);
    throw new DecidekitError(
      'not_comparable',
      words`cannot compare runs ${a.id} and ${b.id}: they measured different work (${reasons.join('; ') || 'fingerprint parts differ'}) (compare anyway ${anyway(a.id, b.id)})`,
      { context: { a: a.id, b: b.id } },
    );
  }
  // A run that was stopped early answered another set of decisions: its averages are not
  // comparable with a whole run's even under the same fingerprint.
  const partial = [a, b].filter((r) => r.cases.length < r.config.caseIds.length);
  if (partial.length > 0 && force !== true) {
    throw new DecidekitError(
      'not_comparable',
      words`cannot compare runs ${a.id} and ${b.id}: ${partial.map((r) => `${r.id} has ${r.cases.length} of ${r.config.caseIds.length} cases`).join('; ')} (finish ${partial.length === 1 ? 'it' : 'each'} with: ${partial.map((r) => resumeCommand(r.id)).join(' and ')}; or compare anyway ${anyway(a.id, b.id)})`,
      { context: { a: a.id, b: b.id } },
    );
  }
  return { sameFingerprint, sameWork };
}

/**
 * Run B against run A: headline metrics and per-question metrics side by side with deltas
 * (b - a), and every decision whose correctness changed. Every number is taken from the
 * runs' summaries or decisions; nothing is rescored. Runs of different models on the same
 * work compare; runs of different work are refused, naming each difference, unless `force`.
 * The cases are read in passes (run B's decisions kept as compact views), never held whole.
 */
export function compareRuns(a: ReportedRun, b: ReportedRun, options: CompareRunsOptions = {}): RunComparison {
  return compareReadRuns(a, b, options, {
    samples: () => [caseSampleOfRun(a.cases), caseSampleOfRun(b.cases)],
    changes: () => {
      const sharedByQuestion = caseSetsMayDiffer(a, b, refuseIncomparable(a, b, options.force).sameWork);
      const inB = new DecisionViews({ scores: sharedByQuestion });
      for (const c of b.cases) inB.add(c);
      const changes = new DecisionChanges(inB, { sharedByQuestion });
      for (const c of a.cases) changes.add(c);
      return changes.done();
    },
  });
}

/**
 * What a comparison takes from the runs' cases, gathered by the caller (in the one pass
 * over each run that also gathers its numbers): both runs' case samples, and run A's cases
 * against run B's decisions. Asked for only when needed.
 */
export interface ComparedCases {
  samples(): readonly [CaseSample, CaseSample];
  changes(): DecisionChanges;
}

/** `compareRuns` with what it takes from the cases given: reads no case itself. */
export function compareReadRuns(
  a: ReportedRun,
  b: ReportedRun,
  options: CompareRunsOptions,
  read: ComparedCases,
): RunComparison {
  const { sameFingerprint, sameWork } = refuseIncomparable(a, b, options.force);
  const conventions = options.conventions ?? DEFAULT_CONVENTIONS;
  const sa = a.summary;
  const sb = b.summary;
  const wholeRuns: HeadlineDeltas = {
    accuracy: delta(sa.accuracy, sb.accuracy),
    kl: delta(sa.kl, sb.kl),
    brier: delta(sa.brier, sb.brier),
    logLoss: delta(sa.logLoss ?? null, sb.logLoss ?? null),
    ece: delta(sa.ece, sb.ece),
    meanConfidence: delta(sa.meanConfidence, sb.meanConfidence),
    errors: delta(sa.errors, sb.errors),
    latencyP50Ms: delta(sa.latencyMs.p50, sb.latencyMs.p50),
  };
  const intervals = options.intervals !== false && conventions.bootstrapResamples > 0;
  // Runs over different cases (forced) are compared on the cases both have, the base of the
  // paired intervals; without intervals that base is still worked out (no resample drawn).
  const mayDiffer = caseSetsMayDiffer(a, b, sameWork);
  const pairing =
    intervals || mayDiffer
      ? pairedBootstrap(...read.samples(), intervals ? conventions : { ...conventions, bootstrapResamples: 0 }, {
          ...(options.intervalsOf === undefined ? {} : { metrics: options.intervalsOf }),
        })
      : null;
  const sharedCases =
    mayDiffer && pairing !== null && pairing.onlyFirst + pairing.onlySecond > 0
      ? { cases: pairing.cases, onlyInA: pairing.onlyFirst, onlyInB: pairing.onlySecond }
      : null;
  const headline = sharedCases === null || pairing === null ? wholeRuns : overSharedCases(wholeRuns, pairing);

  const changes = read.changes();
  const { fixed, broken, predictionsChanged, shared, decisionsA, decisionsB } = changes;
  // One base for every number: the per-question rows too are over the shared cases when the
  // runs' case sets differ, else a question's delta could have the other sign than on them.
  const byQuestion =
    sharedCases === null
      ? questionDeltas(sa.byQuestion, sb.byQuestion)
      : questionDeltas(changes.sharedByQuestion('a'), changes.sharedByQuestion('b'));

  const side = (run: ReportedRun, decisions: number): ComparedRun => ({
    id: run.id,
    createdAt: run.createdAt,
    label: run.label,
    fingerprint: run.fingerprint,
    model: run.config.model,
    status: run.summary.status,
    decisions,
    requests: { total: run.summary.requests.total, failed: run.summary.requests.failed },
    ...recalibratedWithOf(run),
  });
  const comparison: RunComparison = {
    a: side(a, decisionsA),
    b: side(b, decisionsB),
    sameFingerprint,
    sameWork,
    workDifferences: sameWork ? [] : workDifferencesAB(a.config, b.config),
    headline,
    sharedCases,
    byQuestion,
    // Made when first read: `runs gate` and the text report (which lists the first few,
    // `firstChanged`) never make the other tens of thousands.
    get changed() {
      return changes.changed;
    },
    fixed,
    broken,
    predictionsChanged,
    shared,
    onlyInA: decisionsA - shared,
    onlyInB: decisionsB - shared,
    mcnemar: mcnemarExact(broken, fixed),
    paired: intervals ? pairing : null,
    conventions,
  };
  changesOf.set(comparison, changes);
  return comparison;
}

const changesOf = new WeakMap<RunComparison, DecisionChanges>();

/** How many decisions changed correctness in a comparison (`changed.length`): each was either fixed or broken. */
export function changedCount(c: RunComparison): number {
  return c.fixed + c.broken;
}

/** The first `count` decisions whose correctness changed (`changed.slice(0, count)`, the others not made when it can). */
export function firstChanged(c: RunComparison, count: number): readonly ChangedDecision[] {
  return changesOf.get(c)?.firstChanged(count) ?? c.changed.slice(0, Math.max(0, count));
}

/**
 * Whether two runs' case sets may differ, so that their numbers are taken over the cases both
 * have: runs of different work (compared by force), or a run without every case of its work.
 */
export function caseSetsMayDiffer(
  a: Pick<ReportedRun, 'cases' | 'config'>,
  b: Pick<ReportedRun, 'cases' | 'config'>,
  sameWork: boolean,
): boolean {
  return !sameWork || [a, b].some((r) => r.cases.length !== r.config.caseIds.length);
}

/** Per question key, A against B: decisions, accuracy, KL and Brier (`delta` = b - a). */
function questionDeltas(
  qa: Readonly<Record<string, QuestionNumbers>>,
  qb: Readonly<Record<string, QuestionNumbers>>,
): QuestionDelta[] {
  const keys = [...new Set([...Object.keys(qa), ...Object.keys(qb)])].sort();
  return keys.map((key): QuestionDelta => {
    const a = qa[key];
    const b = qb[key];
    return {
      key,
      total: delta(a?.total ?? null, b?.total ?? null),
      accuracy: delta(a?.accuracy ?? null, b?.accuracy ?? null),
      kl: delta(a?.kl ?? null, b?.kl ?? null),
      brier: delta(a?.brier ?? null, b?.brier ?? null),
    };
  });
}

/** What the per-question rows show of a question's decisions. */
type QuestionNumbers = Pick<MetricGroup, 'total' | 'accuracy' | 'kl' | 'brier'>;

/**
 * A question's decisions summed (exactly, so the order they come in changes nothing), with
 * the run summary's rules: accuracy over every decision, KL and Brier means over the answered.
 */
class QuestionTally {
  total = 0;
  correct = 0;
  readonly kl = new ExactSum();
  readonly brier = new ExactSum();

  add(v: DecisionScores): void {
    this.total++;
    if (v.correct) this.correct++;
    if (v.kl === null || v.brier === null) return;
    this.kl.add(v.kl);
    this.brier.add(v.brier);
  }

  numbers(): QuestionNumbers {
    return {
      total: this.total,
      accuracy: this.total === 0 ? null : this.correct / this.total,
      kl: this.kl.mean(),
      brier: this.brier.mean(),
    };
  }
}

/** Strings numbered in the order first seen, each kept once. */
class StringNumbers {
  readonly #numbers = new Map<string, number>();
  readonly strings: string[] = [];

  numberOf(s: string): number {
    let n = this.#numbers.get(s);
    if (n === undefined) {
      n = this.strings.length;
      this.#numbers.set(s, n);
      this.strings.push(s);
    }
    return n;
  }
}

const NONE = -1;

/**
 * Run B's decisions as compact columns, fed one case at a time, for the pass over run A
 * (`DecisionChanges`): a few numbers a decision, its question, prediction and failure kind
 * as numbers of strings kept once, instead of objects a decision (a 100,000-case run has
 * half a million). A case fed again replaces the decisions it repeats and adds the others.
 * `scores`: also keep each decision's KL and Brier, for the per-question numbers over the
 * cases both runs have.
 */
export class DecisionViews {
  /** Per case id, its first run of decisions (a case fed again may add another). */
  readonly #firstRun = new Map<string, number>();
  readonly #runWorkflow: number[] = [];
  readonly #runStart: number[] = [];
  readonly #runEnd: number[] = [];
  readonly #nextRun: number[] = [];
  readonly #strings = new StringNumbers();
  readonly #question: number[] = [];
  /** The predicted answer's string, or NONE when the decision failed. */
  readonly #predicted: number[] = [];
  /** The failure kind's string, or NONE when answered. */
  readonly #failure: number[] = [];
  readonly #confidence: number[] = [];
  readonly #correct: number[] = [];
  readonly #kl: number[] = [];
  readonly #brier: number[] = [];
  readonly #scores: boolean;

  constructor(options: { readonly scores?: boolean } = {}) {
    this.#scores = options.scores !== false;
  }

  add(c: CaseResult): void {
    const first = this.#firstRun.get(c.caseId);
    const run = this.#runStart.length;
    this.#runWorkflow.push(this.#strings.numberOf(c.workflow));
    this.#runStart.push(this.#question.length);
    this.#nextRun.push(NONE);
    if (first === undefined) this.#firstRun.set(c.caseId, run);
    else {
      let last = first;
      while (this.#nextRun[last]! !== NONE) last = this.#nextRun[last]!;
      this.#nextRun[last] = run;
    }
    this.#runEnd.push(this.#question.length);
    for (const d of c.decisions) {
      const question = this.#strings.numberOf(d.questionId);
      const known = first === undefined ? this.#slotIn(run, question) : this.#slotFrom(first, question, 0);
      const slot = known === NONE ? this.#question.length : known;
      this.#question[slot] = question;
      this.#set(slot, d);
      if (known === NONE) this.#runEnd[run] = slot + 1;
    }
  }

  #set(slot: number, d: Decision): void {
    const o = d.outcome;
    const answered = o.status === 'answered';
    this.#predicted[slot] = answered ? this.#strings.numberOf(o.predicted) : NONE;
    this.#failure[slot] = answered ? NONE : this.#strings.numberOf(o.failure.kind);
    this.#confidence[slot] = answered ? o.confidence : NaN;
    this.#correct[slot] = answered && o.correct ? 1 : 0;
    if (!this.#scores) return;
    this.#kl[slot] = answered ? o.kl : NaN;
    this.#brier[slot] = answered ? o.brier : NaN;
  }

  /** The slot of `question` in one run of decisions, NONE when absent. */
  #slotIn(run: number, question: number): number {
    const end = this.#runEnd[run]!;
    for (let slot = this.#runStart[run]!; slot < end; slot++) if (this.#question[slot] === question) return slot;
    return NONE;
  }

  /** The slot of `question` in a case's runs from `run` on, NONE when absent; `hint`: where to look first in the first run. */
  #slotFrom(run: number, question: number, hint: number): number {
    const guess = this.#runStart[run]! + hint;
    if (guess < this.#runEnd[run]! && this.#question[guess] === question) return guess;
    for (let r = run; r !== NONE; r = this.#nextRun[r]!) {
      const slot = this.#slotIn(r, question);
      if (slot !== NONE) return slot;
    }
    return NONE;
  }

  /** The case's first run of decisions, NONE when run B lacks it. */
  caseOf(caseId: string): number {
    return this.#firstRun.get(caseId) ?? NONE;
  }

  /** The slot of the case's decision on `questionId`, NONE when absent; `hint`: its place in the case, when it is likely the same. */
  slotOf(caseRun: number, questionId: string, hint: number): number {
    const guess = this.#runStart[caseRun]! + hint;
    if (guess < this.#runEnd[caseRun]! && this.#strings.strings[this.#question[guess]!] === questionId) return guess;
    for (let r = caseRun; r !== NONE; r = this.#nextRun[r]!) {
      const end = this.#runEnd[r]!;
      for (let slot = this.#runStart[r]!; slot < end; slot++)
        if (this.#strings.strings[this.#question[slot]!] === questionId) return slot;
    }
    return NONE;
  }

  /** Every decision of a case, its workflow and question with its scores, in the order first fed. */
  forEachOf(caseRun: number, visit: (workflow: string, questionId: string, scores: DecisionScores) => void): void {
    const workflow = this.#strings.strings[this.#runWorkflow[caseRun]!]!;
    for (let r = caseRun; r !== NONE; r = this.#nextRun[r]!) {
      const end = this.#runEnd[r]!;
      for (let slot = this.#runStart[r]!; slot < end; slot++)
        visit(workflow, this.#strings.strings[this.#question[slot]!]!, this.scoresAt(slot));
    }
  }

  predictedAt(slot: number): string | null {
    const n = this.#predicted[slot]!;
    return n === NONE ? null : this.#strings.strings[n]!;
  }

  failureAt(slot: number): FailureKind | null {
    const n = this.#failure[slot]!;
    return n === NONE ? null : (this.#strings.strings[n] as FailureKind);
  }

  correctAt(slot: number): boolean {
    return this.#correct[slot] === 1;
  }

  /** The confidence of an answered decision, NaN for a failed one. */
  confidenceAt(slot: number): number {
    return this.#confidence[slot]!;
  }

  scoresAt(slot: number): DecisionScores {
    const kl = this.#kl[slot];
    const brier = this.#brier[slot];
    return {
      correct: this.correctAt(slot),
      kl: kl === undefined || kl !== kl ? null : kl,
      brier: brier === undefined || brier !== brier ? null : brier,
    };
  }

  /** Decisions kept: one a case and question. */
  get size(): number {
    return this.#question.length;
  }
}

/** One side of a changed decision: its prediction or failure, and its confidence (NaN when it failed). */
interface ChangedSide {
  readonly predicted: string | null;
  readonly confidence: number;
  readonly failure: FailureKind | null;
}

/**
 * The decisions whose correctness changed, kept as columns while run A is read (a few
 * numbers each, strings numbered once, no objects for the collector to copy while the pass
 * goes on) and made into `ChangedDecision` objects when first asked for.
 */
class ChangedColumns {
  readonly #strings = new StringNumbers();
  readonly #caseId: string[] = [];
  /** Per decision: workflow, question, type, gold, then A's and B's prediction and failure (8 numbers). */
  readonly #numbers: number[] = [];
  /** Per decision: A's confidence, then B's (NaN when failed). */
  readonly #confidences: number[] = [];
  /** Per decision: whether A was right (B then was not, and the other way round). */
  readonly #rightInA: boolean[] = [];

  push(c: CaseResult, d: Decision, rightInA: boolean, a: ChangedSide, b: ChangedSide): void {
    const n = (text: string | null): number => (text === null ? NONE : this.#strings.numberOf(text));
    this.#caseId.push(c.caseId);
    this.#numbers.push(
      n(c.workflow),
      n(d.questionId),
      n(d.type),
      n(d.gold.label),
      n(a.predicted),
      n(a.failure),
      n(b.predicted),
      n(b.failure),
    );
    this.#confidences.push(a.confidence, b.confidence);
    this.#rightInA.push(rightInA);
  }

  /** Decisions kept. */
  get size(): number {
    return this.#caseId.length;
  }

  /** The first `count` decisions kept (default: every one), as objects, in the order pushed. */
  decisions(count = this.size): ChangedDecision[] {
    const strings = this.#strings.strings;
    const at = this.#numbers;
    const orNull = (n: number): string | null => (n === NONE ? null : strings[n]!);
    const confidence = (v: number): number | null => (v === v ? v : null);
    return this.#caseId.slice(0, Math.max(0, count)).map((caseId, i): ChangedDecision => {
      const o = i * 8;
      const right = this.#rightInA[i]!;
      return {
        caseId,
        workflow: strings[at[o]!]!,
        questionId: strings[at[o + 1]!]!,
        type: strings[at[o + 2]!] as QuestionType,
        gold: strings[at[o + 3]!]!,
        before: {
          predicted: orNull(at[o + 4]!),
          confidence: confidence(this.#confidences[2 * i]!),
          correct: right,
          error: orNull(at[o + 5]!) as FailureKind | null,
        },
        after: {
          predicted: orNull(at[o + 6]!),
          confidence: confidence(this.#confidences[2 * i + 1]!),
          correct: !right,
          error: orNull(at[o + 7]!) as FailureKind | null,
        },
      };
    });
  }
}

/**
 * Run A's decisions against run B's (`DecisionViews`, complete before the first case of A),
 * fed one case of A at a time in run order; `done` lets B's views go once A is read.
 * `sharedByQuestion`: also tally each question's numbers over the cases both runs have
 * (needed only when the runs' case sets may differ; B's views must keep their scores).
 */
export class DecisionChanges {
  readonly #changed = new ChangedColumns();
  #changedDecisions: ChangedDecision[] | null = null;
  fixed = 0;
  broken = 0;
  predictionsChanged = 0;
  shared = 0;
  decisionsA = 0;
  readonly decisionsB: number;
  #inB: DecisionViews | null;
  /** Per question key, the decisions of the cases both runs have, A's and B's; null when not tallied. */
  readonly #sharedA: Map<string, QuestionTally> | null;
  readonly #sharedB: Map<string, QuestionTally> | null;

  constructor(inB: DecisionViews, options: { readonly sharedByQuestion?: boolean } = {}) {
    this.#inB = inB;
    this.decisionsB = inB.size;
    const tally = options.sharedByQuestion !== false;
    this.#sharedA = tally ? new Map() : null;
    this.#sharedB = tally ? new Map() : null;
  }

  /** The decisions present in both runs whose correctness changed, in run A's order (made when first asked for). */
  get changed(): readonly ChangedDecision[] {
    return (this.#changedDecisions ??= this.#changed.decisions());
  }

  /** The first `count` of `changed`, made alone when `changed` has not been made. */
  firstChanged(count: number): readonly ChangedDecision[] {
    return this.#changedDecisions?.slice(0, Math.max(0, count)) ?? this.#changed.decisions(count);
  }

  /** Every case of A was fed: B's views are no longer needed. */
  done(): this {
    this.#inB = null;
    return this;
  }

  /** Per question key, the numbers of run `side`'s decisions over the cases both runs have. */
  sharedByQuestion(side: 'a' | 'b'): Record<string, QuestionNumbers> {
    const tallies = side === 'a' ? this.#sharedA : this.#sharedB;
    if (tallies === null) throw new Error('DecisionChanges: the shared cases were not tallied by question');
    return Object.fromEntries([...tallies].map(([key, t]) => [key, t.numbers()]));
  }

  add(c: CaseResult): void {
    const inB = this.#inB;
    if (inB === null) throw new Error('DecisionChanges: a case of A after done()');
    const caseInB = inB.caseOf(c.caseId);
    if (caseInB !== NONE) this.#tallyShared(c, inB, caseInB);
    const decisions = c.decisions;
    this.decisionsA += decisions.length;
    if (caseInB === NONE) return;
    for (let k = 0; k < decisions.length; k++) {
      const d = decisions[k]!;
      const slot = inB.slotOf(caseInB, d.questionId, k);
      if (slot === NONE) continue;
      this.shared++;
      const o = d.outcome;
      const answered = o.status === 'answered';
      const predicted = answered ? o.predicted : null;
      const failure = answered ? null : o.failure.kind;
      if (predicted !== inB.predictedAt(slot) || failure !== inB.failureAt(slot)) this.predictionsChanged++;
      const correct = answered && o.correct;
      const correctInB = inB.correctAt(slot);
      if (correct === correctInB) continue;
      if (correctInB) this.fixed++;
      else this.broken++;
      this.#changed.push(
        c,
        d,
        correct,
        { predicted, confidence: answered ? o.confidence : NaN, failure },
        { predicted: inB.predictedAt(slot), confidence: inB.confidenceAt(slot), failure: inB.failureAt(slot) },
      );
    }
  }

  #tallyShared(c: CaseResult, inB: DecisionViews, caseInB: number): void {
    const sharedA = this.#sharedA;
    const sharedB = this.#sharedB;
    if (sharedA === null || sharedB === null) return;
    const tally = (tallies: Map<string, QuestionTally>, key: string): QuestionTally => {
      let t = tallies.get(key);
      if (t === undefined) tallies.set(key, (t = new QuestionTally()));
      return t;
    };
    for (const d of c.decisions) tally(sharedA, `${c.workflow}/${d.questionId}`).add(scoresOf(d));
    inB.forEachOf(caseInB, (workflow, questionId, scores) => tally(sharedB, `${workflow}/${questionId}`).add(scores));
  }
}

/** The headline with its five statistics taken from the paired comparison (the cases both runs have). */
function overSharedCases(wholeRuns: HeadlineDeltas, p: PairedComparison): HeadlineDeltas {
  const of = (m: StatMetric): MetricDelta => ({
    a: p.metrics[m].first,
    b: p.metrics[m].second,
    delta: p.metrics[m].difference,
  });
  return {
    ...wholeRuns,
    accuracy: of('accuracy'),
    kl: of('kl'),
    brier: of('brier'),
    logLoss: of('logLoss'),
    ece: of('ece'),
  };
}

function recalibratedWithOf(run: ReportedRun): { recalibratedWith?: AppliedCalibration } {
  const applied = appliedCalibrationOf(run);
  return applied === null ? {} : { recalibratedWith: applied };
}
