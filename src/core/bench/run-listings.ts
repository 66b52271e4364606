/**
 * What a benchmark report lists beside the summary, gathered one case at a time in bounded
 * memory: the models that answered, failures by cause, the first failed cases, the most
 * confident disagreements, each question's gold majority and confusion matrix, and the
 * answered requests' latencies, and where the trace's decisions start. Cases may arrive in any order (a parallel run finishes them
 * out of order): each carries its position in the run, and every list comes out in run order.
 */
import type { CaseResult, Decision, FailureKind } from '../typed-decisions/case-result.js';
import { questionKeysOf, type CaseFacts } from './case-facts.js';
import type { ConfusionMatrix, MajorityRate } from './question-detail.js';

/** Failed cases and disagreements a report lists at most (the rest are counted). */
export const LISTED_ROWS = 20;
/** Distinct failure causes kept; later ones are counted under the last kept row's kind as "other". */
export const LISTED_CAUSES = 50;

/** An answered decision that disagrees with gold, with its case. */
export interface Disagreement {
  readonly caseId: string;
  readonly decision: Decision;
  readonly outcome: Extract<Decision['outcome'], { status: 'answered' }>;
}

export interface FailureCause {
  readonly kind: FailureKind;
  readonly message: string;
  readonly count: number;
  /** The first case (in run order) that failed this way. */
  readonly firstCaseId: string;
}

export interface RunListings {
  /** Models the answered requests named, sorted. */
  readonly answeredModels: readonly string[];
  /** Failed cases grouped by kind and message, in run order of first appearance. */
  readonly failureCauses: readonly FailureCause[];
  /** The first `LISTED_ROWS` failed cases in run order. */
  readonly failedCases: readonly { readonly caseId: string; readonly kind: FailureKind; readonly message: string }[];
  readonly failedCount: number;
  /** The `LISTED_ROWS` most confident disagreements; equal confidence keeps run order. */
  readonly disagreements: readonly Disagreement[];
  readonly disagreementCount: number;
  /** `workflow/question` -> its most common gold label; keys sorted. */
  readonly majority: Readonly<Record<string, MajorityRate>>;
  /** One matrix per `choice`/`score` question with answered decisions; keys sorted. */
  readonly confusion: readonly ConfusionMatrix[];
  /** Latencies of answered requests (any order). */
  readonly latenciesMs: readonly number[];
  /** Where the trace's decisions start every few positions. */
  readonly traceIndex: TraceIndex;
}

/** Positions between two entries of a run's trace index (`TraceIndex`): a page of the trace reads at most these cases before it. */
export const TRACE_INDEX_EVERY = 32;

/**
 * Where the decisions of a run's trace start, every `every` positions: `decisionsBefore[i]`
 * decisions belong to the saved cases at positions below `i × every`. A page of the trace
 * starts reading at the nearest entry instead of at the run's first case.
 */
export interface TraceIndex {
  readonly every: number;
  readonly decisionsBefore: readonly number[];
}

/** Where to start reading the trace to reach its decision number `skip` (from 0): a position and the decisions before it. */
export function traceSeek(index: TraceIndex, skip: number): { position: number; decisionsBefore: number } {
  const before = index.decisionsBefore;
  // The last entry at or before `skip` (the entries never decrease).
  let low = 0;
  let high = before.length - 1;
  if (high < 0) return { position: 0, decisionsBefore: 0 };
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (before[middle]! <= skip) low = middle;
    else high = middle - 1;
  }
  return { position: low * index.every, decisionsBefore: before[low]! };
}

interface Ranked<T> {
  readonly rank: number;
  readonly value: T;
}

/** Keeps the `limit` smallest by `before`, sorted; O(limit) per insert, fine for small limits. */
function keepBest<T>(list: T[], item: T, limit: number, before: (a: T, b: T) => boolean): void {
  if (list.length >= limit && !before(item, list[list.length - 1]!)) return;
  let i = list.length;
  while (i > 0 && before(item, list[i - 1]!)) i--;
  list.splice(i, 0, item);
  if (list.length > limit) list.pop();
}

interface ListedWrong {
  readonly position: number;
  readonly index: number;
  readonly value: Disagreement;
}

/** A disagreement is listed before another when it is more confident; equal confidence keeps run order. */
function wrongBefore(confidence: number, position: number, index: number, other: ListedWrong): boolean {
  const theirs = other.value.outcome.confidence;
  return (
    confidence > theirs ||
    (confidence === theirs && (position < other.position || (position === other.position && index < other.index)))
  );
}

export class ListingsAccumulator {
  readonly #models = new Set<string>();
  readonly #causes = new Map<string, { kind: FailureKind; message: string; count: number; first: Ranked<string> }>();
  #otherCauses: { kind: FailureKind; count: number; first: Ranked<string> } | null = null;
  readonly #failed: Ranked<{ caseId: string; kind: FailureKind; message: string }>[] = [];
  #failedCount = 0;
  readonly #wrong: ListedWrong[] = [];
  #wrongCount = 0;
  readonly #majority = new Map<string, { answers: readonly string[]; byLabel: Map<string, number>; total: number }>();
  readonly #confusion = new Map<string, { type: 'choice' | 'score'; answers: string[]; counts: number[][] }>();
  readonly #latencies: number[] = [];
  /** Decisions of the case at each position saved (none where no case was). */
  readonly #decisionsAt: number[] = [];
  /** Where the latencies are kept when another accumulator keeps them; null when `#latencies` holds them. */
  readonly #latenciesKeptBy: (() => readonly number[]) | null;

  /**
   * `latenciesMs`: where to read the answered requests' latencies, when an accumulator fed the
   * same cases keeps them already (a run's `BenchAccumulator`). Default: the listings keep their own.
   */
  constructor(options: { readonly latenciesMs?: () => readonly number[] } = {}) {
    this.#latenciesKeptBy = options.latenciesMs ?? null;
  }

  /**
   * Adds a case; `position` is its place in the run (its index in the run's case ids).
   * `facts`: the case's question keys, when the caller has worked them out already.
   */
  add(c: CaseResult, position: number, facts: Pick<CaseFacts, 'questionKeys'> = questionKeysOf(c)): void {
    this.#decisionsAt[position] = c.decisions.length;
    const r = c.request;
    if (r.status === 'answered') {
      if (r.model !== undefined) this.#models.add(r.model);
      if (this.#latenciesKeptBy === null) this.#latencies.push(r.latencyMs);
    } else {
      this.#failedCount++;
      const first = { rank: position, value: c.caseId };
      keepBest(
        this.#failed,
        { rank: position, value: { caseId: c.caseId, kind: r.failure.kind, message: r.failure.message } },
        LISTED_ROWS,
        (a, b) => a.rank < b.rank,
      );
      const key = `${r.failure.kind}\u0000${r.failure.message}`;
      const cause = this.#causes.get(key);
      if (cause) {
        cause.count++;
        if (position < cause.first.rank) cause.first = first;
      } else if (this.#causes.size < LISTED_CAUSES) {
        this.#causes.set(key, { kind: r.failure.kind, message: r.failure.message, count: 1, first });
      } else if (this.#otherCauses === null) {
        this.#otherCauses = { kind: r.failure.kind, count: 1, first };
      } else {
        this.#otherCauses.count++;
        if (position < this.#otherCauses.first.rank) this.#otherCauses.first = first;
      }
    }
    for (let index = 0; index < c.decisions.length; index++)
      this.#addDecision(c, position, index, facts.questionKeys[index]!);
  }

  #addDecision(c: CaseResult, position: number, index: number, key: string): void {
    const d = c.decisions[index]!;
    let m = this.#majority.get(key);
    if (!m) this.#majority.set(key, (m = { answers: d.answers, byLabel: new Map(), total: 0 }));
    m.total++;
    m.byLabel.set(d.gold.label, (m.byLabel.get(d.gold.label) ?? 0) + 1);
    const o = d.outcome;
    if (o.status !== 'answered') return;
    if (!o.correct) {
      this.#wrongCount++;
      // Most disagreements of a large run are not listed: they are ranked before anything is made for them.
      const last = this.#wrong.length < LISTED_ROWS ? undefined : this.#wrong[this.#wrong.length - 1]!;
      if (last === undefined || wrongBefore(o.confidence, position, index, last))
        keepBest(
          this.#wrong,
          { position, index, value: { caseId: c.caseId, decision: d, outcome: o } },
          LISTED_ROWS,
          (a, b) => wrongBefore(a.value.outcome.confidence, a.position, a.index, b),
        );
    }
    if (d.type === 'noul') return;
    let cm = this.#confusion.get(key);
    if (!cm) this.#confusion.set(key, (cm = { type: d.type, answers: [...d.answers], counts: [] }));
    // Counted by the labels' places in the matrix's answers (a label not among them joins them).
    const gold = placeOf(cm.answers, d.gold.label);
    const predicted = placeOf(cm.answers, o.predicted);
    const row = (cm.counts[gold] ??= []);
    row[predicted] = (row[predicted] ?? 0) + 1;
  }

  listings(): RunListings {
    const causes: Array<FailureCause & { rank: number }> = [...this.#causes.values()].map((c) => ({
      kind: c.kind,
      message: c.message,
      count: c.count,
      firstCaseId: c.first.value,
      rank: c.first.rank,
    }));
    causes.sort((a, b) => a.rank - b.rank);
    const other = this.#otherCauses;
    if (other !== null)
      causes.push({
        kind: other.kind,
        message: `and other causes (more than ${LISTED_CAUSES} distinct messages)`,
        count: other.count,
        firstCaseId: other.first.value,
        rank: other.first.rank,
      });
    return {
      answeredModels: [...this.#models].sort(),
      failureCauses: causes.map(({ rank: _rank, ...c }) => c),
      failedCases: this.#failed.map((f) => f.value),
      failedCount: this.#failedCount,
      disagreements: this.#wrong.map((w) => w.value),
      disagreementCount: this.#wrongCount,
      majority: majorityOf(this.#majority),
      confusion: [...this.#confusion.keys()].sort().map((key) => {
        const { type, answers, counts } = this.#confusion.get(key)!;
        const matrix = answers.map((_, gold) => answers.map((_, predicted) => counts[gold]?.[predicted] ?? 0));
        const answered = matrix.reduce((n, row) => n + row.reduce((a, b) => a + b, 0), 0);
        const correct = matrix.reduce((n, row, i) => n + row[i]!, 0);
        return { key, type, answers, counts: matrix, answered, correct };
      }),
      latenciesMs: this.#latenciesKeptBy?.() ?? this.#latencies,
      traceIndex: traceIndexOf(this.#decisionsAt),
    };
  }
}

/** The place of `label` in `answers`, added at the end when it is not there. */
function placeOf(answers: string[], label: string): number {
  const i = answers.indexOf(label);
  return i === -1 ? answers.push(label) - 1 : i;
}

function traceIndexOf(decisionsAt: readonly (number | undefined)[]): TraceIndex {
  const decisionsBefore: number[] = [];
  let sum = 0;
  for (let position = 0; position < decisionsAt.length; position++) {
    if (position % TRACE_INDEX_EVERY === 0) decisionsBefore.push(sum);
    sum += decisionsAt[position] ?? 0;
  }
  return { every: TRACE_INDEX_EVERY, decisionsBefore };
}

function majorityOf(
  counts: ReadonlyMap<string, { answers: readonly string[]; byLabel: Map<string, number>; total: number }>,
): Record<string, MajorityRate> {
  const out: Record<string, MajorityRate> = {};
  for (const key of [...counts.keys()].sort()) {
    const { answers, byLabel, total } = counts.get(key)!;
    const rank = (label: string): number => {
      const i = answers.indexOf(label);
      return i === -1 ? answers.length : i;
    };
    let best: [string, number] | null = null;
    for (const [label, n] of byLabel) {
      if (best === null || n > best[1] || (n === best[1] && rank(label) < rank(best[0]))) best = [label, n];
    }
    out[key] = { label: best![0], rate: best![1] / total, total };
  }
  return out;
}

/** The report listings of cases given in run order. */
export function listingsOfCases(cases: Iterable<CaseResult>): RunListings {
  const accumulator = new ListingsAccumulator();
  let position = 0;
  for (const c of cases) accumulator.add(c, position++);
  return accumulator.listings();
}
