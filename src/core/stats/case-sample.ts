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
  private cols = { decisions: [] as number[], correct: [] as number[], answered: [] as number[] };
  private kl = new Float64Array(1024);
  private brier = new Float64Array(1024);
  private logLoss = new Float64Array(1024);
  private readonly has = { kl: false, brier: false, logLoss: false };
  private n = 0;
  private d = 0;
  private caseOf = new Int32Array(1024);
  private confidence = new Float64Array(1024);
  private hit = new Uint8Array(1024);
  private question = new Int32Array(1024);
  private readonly questionIndex = new Map<string, number>();

  addCase(id: string, stats: CaseStats): void {
    if (this.n === this.kl.length) {
      this.kl = grow(this.kl);
      this.brier = grow(this.brier);
      this.logLoss = grow(this.logLoss);
    }
    this.ids.push(id);
    this.cols.decisions.push(stats.decisions);
    this.cols.correct.push(stats.correct);
    this.cols.answered.push(stats.answered);
    if (stats.kl !== undefined) {
      this.kl[this.n] = stats.kl;
      this.has.kl = true;
    }
    if (stats.brier !== undefined) {
      this.brier[this.n] = stats.brier;
      this.has.brier = true;
    }
    if (stats.logLoss !== undefined) {
      this.logLoss[this.n] = stats.logLoss;
      this.has.logLoss = true;
    }
    this.n++;
  }

  /** A calibration decision of the case added last. */
  addDecision(confidence: number, hit: boolean, question = ''): void {
    if (this.n === 0) throw new TypeError('addDecision before any addCase');
    if (this.d === this.confidence.length) {
      this.caseOf = grow(this.caseOf);
      this.confidence = grow(this.confidence);
      this.hit = grow(this.hit);
      this.question = grow(this.question);
    }
    let q = this.questionIndex.get(question);
    if (q === undefined) {
      q = this.questionIndex.size;
      this.questionIndex.set(question, q);
    }
    this.caseOf[this.d] = this.n - 1;
    this.confidence[this.d] = confidence;
    this.hit[this.d] = hit ? 1 : 0;
    this.question[this.d] = q;
    this.d++;
  }

  build(): CaseSample {
    // Question indices follow the sorted keys, so they do not depend on arrival order.
    const keys = [...this.questionIndex.keys()];
    const sorted = [...keys].sort();
    const rank = new Map(sorted.map((k, i) => [k, i]));
    const remap = Int32Array.from(keys, (k) => rank.get(k)!);
    const question = this.question.slice(0, this.d).map((q) => remap[q]!);
    return {
      nCases: this.n,
      ids: this.ids,
      decisions: Float64Array.from(this.cols.decisions),
      correct: Float64Array.from(this.cols.correct),
      answered: Float64Array.from(this.cols.answered),
      kl: this.kl.slice(0, this.n),
      brier: this.brier.slice(0, this.n),
      logLoss: this.logLoss.slice(0, this.n),
      has: { ...this.has },
      nDecisions: this.d,
      caseOf: this.caseOf.slice(0, this.d),
      confidence: this.confidence.slice(0, this.d),
      hit: this.hit.slice(0, this.d),
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
