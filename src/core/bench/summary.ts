import type { CaseResult, FailureKind } from '../typed-decisions/case-result.js';
import { caseFactsOf, type CaseFacts } from './case-facts.js';
import type { QuestionType } from '../question.js';
import { QUESTION_TYPES } from '../question.js';
import {
  CalibrationAccumulator,
  DEFAULT_CALIBRATION,
  type Calibration,
  type CalibrationOptions,
  type ReliabilityBin,
} from '../calibration.js';
import { ExactSum } from '../exact-sum.js';
import type { RunStatus } from '../run-status.js';
import { summarizeLatency, type LatencySummary } from '../percentile.js';
import { rate, type Rating } from './rating.js';
import { PRICE_FLAG } from '../command-hints.js';

/** Confidence at or above which a wrong answer is a "confident disagreement". */
export const CONFIDENT_THRESHOLD = 0.9;

/** Metrics of a group of decisions. Accuracy counts failed decisions as misses. */
export interface MetricGroup {
  readonly total: number;
  readonly answered: number;
  readonly correct: number;
  /** correct / total, or null when the group is empty. */
  readonly accuracy: number | null;
  /** Means over answered decisions; null when none was answered. */
  readonly kl: number | null;
  readonly brier: number | null;
  /** Mean of -ln(max(p(gold label), 1e-15)) over answered decisions. */
  readonly logLoss: number | null;
  readonly ece: number | null;
  readonly meanConfidence: number | null;
}

export interface CostSummary {
  readonly pricePerMtokUsd: number;
  /** Input tokens priced (answered requests that reported usage). */
  readonly inputTokens: number;
  readonly totalUsd: number;
  /** totalUsd / correct decisions; null when nothing is correct. */
  readonly perCorrectUsd: number | null;
}

export interface BenchSummary extends MetricGroup {
  /** Failed decisions (every decision of a failed request). */
  readonly errors: number;
  /** Failed requests by kind. */
  readonly errorKinds: Readonly<Partial<Record<FailureKind, number>>>;
  readonly requests: { readonly total: number; readonly answered: number; readonly failed: number };
  /** Answered requests / requests the run meant to send (`expectedCases`), or null when none. */
  readonly completionRate: number | null;
  /** Wrong answers at confidence >= 0.9. */
  readonly confidentDisagreements: number;
  readonly reliability: readonly ReliabilityBin[];
  readonly byType: Readonly<Partial<Record<QuestionType, MetricGroup>>>;
  /** Keys sorted. */
  readonly byWorkflow: Readonly<Record<string, MetricGroup>>;
  /** `workflow/question`, keys sorted. */
  readonly byQuestion: Readonly<Record<string, MetricGroup>>;
  readonly latencyMs: LatencySummary;
  /**
   * Per replica of a run sent to several (keys: the replicas' base URLs, sorted): its requests,
   * its failed ones and the latency of its answered ones. Absent for a run on one server.
   */
  readonly byReplica?: Readonly<Record<string, ReplicaSummary>>;
  /** Sum of input tokens over answered requests that reported usage; null when none did. */
  readonly inputTokens: number | null;
  readonly status: RunStatus;
  readonly rating: Rating;
  readonly cost: CostSummary | null;
}

/** What one replica of a run did. */
export interface ReplicaSummary {
  readonly requests: number;
  readonly failed: number;
  readonly latencyMs: LatencySummary;
}

export interface SummarizeOptions {
  /** The run was stopped before every case was sent. */
  readonly interrupted?: boolean;
  /** Cases the run meant to send; cases never sent make the run incomplete. Default: cases given. */
  readonly expectedCases?: number;
  readonly pricePerMtokUsd?: number;
  /** The ECE convention (bins, binning, averaging). Default: ten equal-width bins, pooled. */
  readonly calibration?: CalibrationOptions;
}

class GroupAccumulator {
  total = 0;
  answered = 0;
  correct = 0;
  readonly kl = new ExactSum();
  readonly brier = new ExactSum();
  readonly logLoss = new ExactSum();
  readonly calibration: CalibrationAccumulator;

  constructor(calibration: CalibrationOptions) {
    this.calibration = new CalibrationAccumulator(calibration);
  }

  /** Adds every decision `other` was given: sums are exact, so the group is the one adding them here would give. */
  merge(other: GroupAccumulator): void {
    this.total += other.total;
    this.answered += other.answered;
    this.correct += other.correct;
    this.kl.merge(other.kl);
    this.brier.merge(other.brier);
    this.logLoss.merge(other.logLoss);
    this.calibration.merge(other.calibration);
  }

  /** `c`: the group's calibration, when the caller has already summarized it. */
  summarize(c: Calibration = this.calibration.summarize()): MetricGroup {
    return {
      total: this.total,
      answered: this.answered,
      correct: this.correct,
      accuracy: this.total === 0 ? null : this.correct / this.total,
      kl: this.kl.mean(),
      brier: this.brier.mean(),
      logLoss: this.logLoss.mean(),
      ece: c.ece,
      meanConfidence: c.meanConfidence,
    };
  }
}

/**
 * The decisions of one question of one workflow, of one type: each decision is added to
 * exactly one of these as it comes, and the run, type, workflow and question groups are
 * merged from them when summarized (four groups a decision cost four times the sums).
 */
interface QuestionGroup {
  readonly workflow: string;
  /** `workflow/question`, the key of its question group. */
  readonly key: string;
  readonly type: QuestionType;
  readonly group: GroupAccumulator;
}

function groupFor(map: Map<string, GroupAccumulator>, key: string, calibration: CalibrationOptions): GroupAccumulator {
  let g = map.get(key);
  if (!g) {
    g = new GroupAccumulator(calibration);
    map.set(key, g);
  }
  return g;
}

function sortedRecord(map: Map<string, GroupAccumulator>): Record<string, MetricGroup> {
  const out: Record<string, MetricGroup> = {};
  for (const key of [...map.keys()].sort()) out[key] = map.get(key)!.summarize();
  return out;
}

/**
 * Every number a benchmark report shows. The result does not depend on the order of
 * `cases` (sums are exact, breakdown keys sorted).
 */
export function summarizeBenchmark(cases: Iterable<CaseResult>, options: SummarizeOptions = {}): BenchSummary {
  const accumulator = new BenchAccumulator(options.calibration);
  for (const c of cases) accumulator.add(c);
  return accumulator.summarize(options);
}

/**
 * `summarizeBenchmark` fed one case at a time, so a run of any size is summarized without
 * keeping its cases: memory grows with the number of distinct questions and with one
 * latency per answered request, not with decisions.
 */
export class BenchAccumulator {
  readonly #calibration: CalibrationOptions;
  /** Workflow -> question id -> its group (a question asked as another type too has one group a type). */
  readonly #questions = new Map<string, Map<string, QuestionGroup[]>>();
  readonly #errorKinds: Partial<Record<FailureKind, number>> = {};
  readonly #latencies: number[] = [];
  // Per replica (runs sent to several): requests, failed ones, latencies of answered ones.
  readonly #byReplica = new Map<string, { requests: number; failed: number; latencies: number[] }>();
  #requests = 0;
  #answeredRequests = 0;
  #failedRequests = 0;
  #tokens = 0;
  #tokensReported = 0;
  #errors = 0;
  #confidentDisagreements = 0;

  /** `calibration`: the ECE convention (default ten equal-width bins, pooled). */
  constructor(calibration: CalibrationOptions = DEFAULT_CALIBRATION) {
    this.#calibration = calibration;
  }

  /** Cases added so far. */
  get cases(): number {
    return this.#requests;
  }

  /** Latencies of the answered requests, in the order they were added (the list itself, not a copy). */
  get latenciesMs(): readonly number[] {
    return this.#latencies;
  }

  /** `facts`: the case's question keys and log losses, when the caller has worked them out already. */
  add(c: CaseResult, facts: CaseFacts = caseFactsOf(c)): void {
    this.#requests++;
    if (c.request.replica !== undefined) this.#addToReplica(c.request);
    if (c.request.status === 'answered') {
      this.#answeredRequests++;
      this.#latencies.push(c.request.latencyMs);
      if (c.request.inputTokens !== null) {
        this.#tokens += c.request.inputTokens;
        this.#tokensReported++;
      }
    } else {
      this.#failedRequests++;
      const kind = c.request.failure.kind;
      this.#errorKinds[kind] = (this.#errorKinds[kind] ?? 0) + 1;
    }
    // One workflow per case: its questions are looked up once, not per decision.
    let questions = this.#questions.get(c.workflow);
    if (questions === undefined) this.#questions.set(c.workflow, (questions = new Map()));
    for (let i = 0; i < c.decisions.length; i++) {
      const d = c.decisions[i]!;
      const questionKey = facts.questionKeys[i]!;
      const g = this.#questionGroup(questions, c.workflow, d, questionKey);
      const o = d.outcome;
      g.total++;
      if (o.status === 'failed') {
        this.#errors++;
        continue;
      }
      if (!o.correct && o.confidence >= CONFIDENT_THRESHOLD) this.#confidentDisagreements++;
      g.answered++;
      if (o.correct) g.correct++;
      g.kl.add(o.kl);
      g.brier.add(o.brier);
      g.logLoss.add(facts.logLosses[i]!);
      g.calibration.add(o.confidence, o.correct, questionKey);
    }
  }

  #questionGroup(
    questions: Map<string, QuestionGroup[]>,
    workflow: string,
    d: CaseResult['decisions'][number],
    key: string,
  ): GroupAccumulator {
    let ofId = questions.get(d.questionId);
    if (ofId === undefined) questions.set(d.questionId, (ofId = []));
    for (const q of ofId) if (q.type === d.type) return q.group;
    const group = new GroupAccumulator(this.#calibration);
    ofId.push({ workflow, key, type: d.type, group });
    return group;
  }

  /** The run's group and its type, workflow and question groups, merged from the question groups. */
  #merged(): {
    all: GroupAccumulator;
    byType: Map<string, GroupAccumulator>;
    byWorkflow: Map<string, GroupAccumulator>;
    byQuestion: Map<string, GroupAccumulator>;
  } {
    const all = new GroupAccumulator(this.#calibration);
    const byType = new Map<string, GroupAccumulator>();
    const byWorkflow = new Map<string, GroupAccumulator>();
    const byQuestion = new Map<string, GroupAccumulator>();
    for (const questions of this.#questions.values())
      for (const ofId of questions.values())
        for (const q of ofId) {
          all.merge(q.group);
          groupFor(byType, q.type, this.#calibration).merge(q.group);
          groupFor(byWorkflow, q.workflow, this.#calibration).merge(q.group);
          groupFor(byQuestion, q.key, this.#calibration).merge(q.group);
        }
    return { all, byType, byWorkflow, byQuestion };
  }

  #addToReplica(request: CaseResult['request']): void {
    const name = request.replica!;
    let replica = this.#byReplica.get(name);
    if (replica === undefined) this.#byReplica.set(name, (replica = { requests: 0, failed: 0, latencies: [] }));
    replica.requests++;
    if (request.status === 'answered') replica.latencies.push(request.latencyMs);
    else replica.failed++;
  }

  #replicaSummaries(): Record<string, ReplicaSummary> {
    const out: Record<string, ReplicaSummary> = {};
    for (const name of [...this.#byReplica.keys()].sort()) {
      const r = this.#byReplica.get(name)!;
      out[name] = { requests: r.requests, failed: r.failed, latencyMs: summarizeLatency(r.latencies) };
    }
    return out;
  }

  summarize(options: SummarizeOptions = {}): BenchSummary {
    const merged = this.#merged();
    // Summarized once: the head's ECE and the reliability table come from the same calibration.
    const calibration = merged.all.calibration.summarize();
    const head = merged.all.summarize(calibration);
    const typeRecord: Partial<Record<QuestionType, MetricGroup>> = {};
    for (const t of QUESTION_TYPES) {
      const g = merged.byType.get(t);
      if (g) typeRecord[t] = g.summarize();
    }
    const requestsTotal = this.#requests;
    const failedRequests = this.#failedRequests;
    const expected = options.expectedCases ?? requestsTotal;
    const status: RunStatus = options.interrupted
      ? 'interrupted'
      : failedRequests === 0 && requestsTotal >= expected
        ? 'complete'
        : 'incomplete';
    const inputTokens = this.#tokensReported === 0 ? null : this.#tokens;
    let cost: CostSummary | null = null;
    if (options.pricePerMtokUsd !== undefined) {
      const totalUsd = ((inputTokens ?? 0) * options.pricePerMtokUsd) / 1e6;
      cost = {
        pricePerMtokUsd: options.pricePerMtokUsd,
        inputTokens: inputTokens ?? 0,
        totalUsd,
        perCorrectUsd: head.correct === 0 ? null : totalUsd / head.correct,
      };
    }
    return {
      ...head,
      errors: this.#errors,
      errorKinds: { ...this.#errorKinds },
      requests: { total: requestsTotal, answered: this.#answeredRequests, failed: failedRequests },
      completionRate: expected === 0 ? null : this.#answeredRequests / expected,
      confidentDisagreements: this.#confidentDisagreements,
      reliability: calibration.bins,
      byType: typeRecord,
      byWorkflow: sortedRecord(merged.byWorkflow),
      byQuestion: sortedRecord(merged.byQuestion),
      latencyMs: summarizeLatency(this.#latencies),
      ...(this.#byReplica.size === 0 ? {} : { byReplica: this.#replicaSummaries() }),
      inputTokens,
      status,
      rating: rate(head.accuracy, head.answered),
      cost,
    };
  }
}

/** A metric of a group (or of a whole run) that may be absent. */
export type GroupMetricName = 'accuracy' | 'kl' | 'brier' | 'logLoss' | 'ece' | 'meanConfidence';

/** Why each absent (null) metric of a group is absent; metrics with a value have no entry. */
export function metricGroupNullReasons(
  g: Pick<MetricGroup, 'total' | 'accuracy' | 'kl' | 'brier' | 'ece' | 'meanConfidence'> & {
    readonly logLoss?: number | null;
  },
): Partial<Record<GroupMetricName, string>> {
  const out: Partial<Record<GroupMetricName, string>> = {};
  const unanswered = g.total === 0 ? 'no decisions' : `no decision was answered (${g.total} failed)`;
  if (g.accuracy === null) out.accuracy = 'no decisions';
  // Log loss is absent (undefined) from heads of runs stored without it: only null needs a reason.
  for (const k of ['kl', 'brier', 'logLoss', 'ece', 'meanConfidence'] as const) if (g[k] === null) out[k] = unanswered;
  return out;
}

/** A metric of a run summary, beyond its group metrics, that may be absent. */
export type RunMetricName = GroupMetricName | 'completionRate' | 'inputTokens' | 'cost';

/** Why each absent (null) metric of a run summary is absent (see also the latency and cost ones). */
export function benchNullReasons(s: BenchSummary): Partial<Record<RunMetricName, string>> {
  const out: Partial<Record<RunMetricName, string>> = { ...metricGroupNullReasons(s) };
  if (s.completionRate === null) out.completionRate = 'no case was planned';
  if (s.inputTokens === null)
    out.inputTokens =
      s.requests.answered === 0 ? 'no request was answered' : 'no answered request reported usage.input_tokens';
  if (s.cost === null) out.cost = `no price given (${PRICE_FLAG})`;
  return out;
}

/** Why the latency figures are absent, or null when they are present. */
export function latencyNullReason(l: LatencySummary): string | null {
  return l.n === 0 ? 'no request completed' : null;
}

/** Why the cost per correct decision is absent, or null when it is present. */
export function costPerCorrectNullReason(c: CostSummary): string | null {
  return c.perCorrectUsd === null ? 'no decision is correct' : null;
}
