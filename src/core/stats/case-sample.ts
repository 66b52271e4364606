/**
 * Per-case sufficient statistics: what the bootstrap, the paired comparison and the ECE
 * noise floor need from a run, kept in compact typed arrays (a few bytes a decision), so a
 * million offline decisions cost tens of megabytes, not a million objects.
 *
 * A *case* is the unit that is resampled: the decisions of one case (the five questions of a
 * Typed Decisions case) share a state and are correlated, so they stay together. Offline files
 * have one decision per case. Cases added twice under one id are one case.
 */

/** What one case adds up to. Sums run over the case's answered decisions. */
export interface CaseStats {
  /** Decisions of the case: accuracy's denominator (failed decisions count, as misses). */
  readonly decisions: number;
  /** Decisions that were correct. */
  readonly correct: number;
  /** Answered decisions: the denominator of the means below. */
  readonly answered: number;
  /** Sum of KL over the answered decisions; leave out when the run has no KL. */
  readonly kl?: number;
  /** Sum of Brier over the answered decisions. */
  readonly brier?: number;
  /** Sum of log loss over the answered decisions. */
  readonly logLoss?: number;
}

/** A built, read-only sample. Build one with `CaseSampleBuilder`. */
export interface CaseSample {
  readonly nCases: number;
  readonly ids: readonly string[];
  /** Per case, aligned with `ids`. */
  readonly decisions: Float64Array;
  readonly correct: Float64Array;
  readonly answered: Float64Array;
  readonly kl: Float64Array;
  readonly brier: Float64Array;
  readonly logLoss: Float64Array;
  /** Whether any case gave the metric (a metric no case gave is absent, not 0). */
  readonly has: { readonly kl: boolean; readonly brier: boolean; readonly logLoss: boolean };
  /** Calibration decisions (answered decisions with a confidence). */
  readonly nDecisions: number;
  /** Per calibration decision: the case it belongs to (index into `ids`). */
  readonly caseOf: Int32Array;
  readonly confidence: Float64Array;
  /** 1 when the decision was correct. */
  readonly hit: Uint8Array;
  /** Index into `questions`. */
  readonly question: Int32Array;
  /** Question keys in sorted order (only per-question ECE uses them). */
  readonly questions: readonly string[];
}

/**
 * Collects a sample case by case: `addCase`, then `addDecision` for each of that case's
 * answered decisions (its confidence, whether it was right, and its question key).
 */
export class CaseSampleBuilder {
  private ids: string[] = [];
  private decisions: Float64Array;
  private correct: Float64Array;
  private answered: Float64Array;
  private kl: Float64Array;
  private brier: Float64Array;
  private logLoss: Float64Array;
  private readonly has = { kl: false, brier: false, logLoss: false };
  private n = 0;
  private d = 0;
  private caseOf: Int32Array;
  private confidence: Float64Array;
  private hit: Uint8Array;
  private question: Int32Array;
  private readonly questionIndex = new Map<string, number>();
  // Consecutive decisions usually share a question (or have none): skip the map then.
  private lastQuestion: string | null = null;
  private lastQuestionIndex = -1;

  /**
   * `expected`: how many cases and decisions are coming, when known (a benchmark run knows
   * its case set): the columns are made that long at once, instead of doubling as they fill
   * (which leaves up to half of each unused, and holds the old and new copy while it grows).
   * More still fit; the columns then grow.
   */
  constructor(expected: { readonly cases?: number; readonly decisions?: number } = {}) {
    const cases = Math.max(16, expected.cases ?? 1024);
    const decisions = Math.max(16, expected.decisions ?? 1024);
    this.decisions = new Float64Array(cases);
    this.correct = new Float64Array(cases);
    this.answered = new Float64Array(cases);
    this.kl = new Float64Array(cases);
    this.brier = new Float64Array(cases);
    this.logLoss = new Float64Array(cases);
    this.caseOf = new Int32Array(decisions);
    this.confidence = new Float64Array(decisions);
    this.hit = new Uint8Array(decisions);
    this.question = new Int32Array(decisions);
  }

  addCase(id: string, stats: CaseStats): void {
    const n = this.n;
    if (n === this.decisions.length) {
      this.decisions = grow(this.decisions);
      this.correct = grow(this.correct);
      this.answered = grow(this.answered);
      this.kl = grow(this.kl);
      this.brier = grow(this.brier);
      this.logLoss = grow(this.logLoss);
    }
    this.ids.push(id);
    this.decisions[n] = stats.decisions;
    this.correct[n] = stats.correct;
    this.answered[n] = stats.answered;
    if (stats.kl !== undefined) {
      this.kl[n] = stats.kl;
      this.has.kl = true;
    }
    if (stats.brier !== undefined) {
      this.brier[n] = stats.brier;
      this.has.brier = true;
    }
    if (stats.logLoss !== undefined) {
      this.logLoss[n] = stats.logLoss;
      this.has.logLoss = true;
    }
    this.n = n + 1;
  }

  /** A calibration decision of the case added last. */
  addDecision(confidence: number, hit: boolean, question = ''): void {
    if (this.n === 0) throw new TypeError('addDecision before any addCase');
    const d = this.d;
    if (d === this.confidence.length) {
      this.caseOf = grow(this.caseOf);
      this.confidence = grow(this.confidence);
      this.hit = grow(this.hit);
      this.question = grow(this.question);
    }
    let q = this.lastQuestionIndex;
    if (question !== this.lastQuestion) {
      q = this.questionIndex.get(question) ?? -1;
      if (q === -1) {
        q = this.questionIndex.size;
        this.questionIndex.set(question, q);
      }
      this.lastQuestion = question;
      this.lastQuestionIndex = q;
    }
    this.caseOf[d] = this.n - 1;
    this.confidence[d] = confidence;
    this.hit[d] = hit ? 1 : 0;
    this.question[d] = q;
    this.d = d + 1;
  }

  /**
   * The sample of the cases added so far; build it once adding is over. Its columns are
   * views of the builder's own, so a large run's numbers are not copied at its end.
   */
  build(): CaseSample {
    // Question indices follow the sorted keys, so they do not depend on arrival order.
    const keys = [...this.questionIndex.keys()];
    const sorted = [...keys].sort();
    const rank = new Map(sorted.map((k, i) => [k, i]));
    const remap = Int32Array.from(keys, (k) => rank.get(k)!);
    const question = this.question.slice(0, this.d);
    for (let i = 0; i < question.length; i++) question[i] = remap[question[i]!]!;
    const n = this.n;
    return {
      nCases: n,
      ids: this.ids,
      decisions: this.decisions.subarray(0, n),
      correct: this.correct.subarray(0, n),
      answered: this.answered.subarray(0, n),
      kl: this.kl.subarray(0, n),
      brier: this.brier.subarray(0, n),
      logLoss: this.logLoss.subarray(0, n),
      has: { ...this.has },
      nDecisions: this.d,
      caseOf: this.caseOf.subarray(0, this.d),
      confidence: this.confidence.subarray(0, this.d),
      hit: this.hit.subarray(0, this.d),
      question,
      questions: sorted,
    };
  }
}

function grow<T extends Float64Array | Int32Array | Uint8Array>(a: T): T {
  const next = new (a.constructor as new (n: number) => T)(a.length * 2);
  next.set(a);
  return next;
}
