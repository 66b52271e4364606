import type { CaseResult, Decision } from '../../core/bench/case-result.js';
import { FAILURE_KINDS } from '../../core/bench/case-result.js';
import type { BenchRun, RunConfig } from '../../core/bench/run.js';
import type { BenchSummary, MetricGroup } from '../../core/bench/summary.js';
import { assertNever, QUESTION_TYPES } from '../../core/question.js';
import type { RunStatistics } from '../../core/bench/run-statistics.js';
import { statisticsJson } from './bench-statistics-json.js';

/** Bumped when a key is renamed or removed (adding keys does not bump it). */
export const BENCH_JSON_VERSION = 1;

/**
 * One decision as a flat row. Distributions are arrays aligned with `answers` (objects
 * keyed by answer would reorder numeric-looking option names). A failed decision has
 * `status: 'failed'`, `correct: false` (it counts as a miss), null prediction and metrics,
 * and `error`.
 */
export interface BenchDecisionRow {
  readonly caseId: string;
  readonly workflow: string;
  readonly questionId: string;
  readonly type: Decision['type'];
  readonly answers: readonly string[];
  readonly goldLabel: string;
  readonly goldProbabilities: readonly number[];
  readonly status: 'answered' | 'failed';
  readonly predicted: string | null;
  readonly correct: boolean;
  readonly confidence: number | null;
  readonly kl: number | null;
  readonly brier: number | null;
  readonly probabilities: readonly number[] | null;
  /** The request's latency (shared by the case's decisions); null when unknown. */
  readonly latencyMs: number | null;
  /** The request's input tokens; null when not reported or failed. */
  readonly inputTokens: number | null;
  readonly error: { readonly kind: string; readonly message: string } | null;
}

/**
 * The whole run as one JSON document (with a trailing newline): id, createdAt, durationMs,
 * fingerprint, label, config, dataset, summary, decisions. Keys are written in a fixed order,
 * numbers unrounded, absent metrics null.
 */
export function renderBenchJson(run: BenchRun, options: { readonly statistics?: RunStatistics | null } = {}): string {
  const document = {
    format: 'decidekit.bench',
    version: BENCH_JSON_VERSION,
    id: run.id,
    createdAt: run.createdAt,
    durationMs: run.durationMs,
    fingerprint: run.fingerprint,
    label: run.label,
    config: configJson(run.config),
    dataset: {
      id: run.config.dataset.id,
      revision: run.config.dataset.revision,
      split: run.config.dataset.split,
      license: run.config.dataset.license,
      synthetic: run.config.dataset.synthetic,
      attribution: run.config.dataset.attribution,
      url: run.config.dataset.url,
    },
    summary: { ...summaryJson(run.summary), ...statisticsJson(options.statistics ?? null) },
    decisions: run.cases.flatMap(decisionRows),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The config without the dataset (it has its own key). */
function configJson(c: RunConfig) {
  return {
    toolVersion: c.toolVersion,
    model: c.model,
    endpoint: { scheme: c.endpoint.scheme, host: c.endpoint.host, port: c.endpoint.port, path: c.endpoint.path },
    embeddedServer: c.embeddedServer === null ? null : { model: c.embeddedServer.model },
    parallel: c.parallel,
    timeoutMs: c.timeoutMs,
    retries: c.retries,
    filters: { limit: c.filters.limit, workflow: c.filters.workflow, sample: c.filters.sample ?? null },
    pricePerMtokUsd: c.pricePerMtokUsd,
    caseIds: [...c.caseIds],
    questionSet: sortedRecord(c.questionSet, (v) => v),
  };
}

function groupJson(g: MetricGroup) {
  return {
    total: g.total,
    answered: g.answered,
    correct: g.correct,
    accuracy: g.accuracy,
    kl: g.kl,
    brier: g.brier,
    logLoss: g.logLoss ?? null,
    ece: g.ece,
    meanConfidence: g.meanConfidence,
  };
}

function sortedRecord<V, R>(record: Readonly<Record<string, V>>, map: (v: V) => R): Record<string, R> {
  const out: Record<string, R> = {};
  for (const key of Object.keys(record).sort()) out[key] = map(record[key]!);
  return out;
}

function summaryJson(s: BenchSummary) {
  const errorKinds: Record<string, number> = {};
  for (const kind of FAILURE_KINDS) {
    const n = s.errorKinds[kind];
    if (n !== undefined) errorKinds[kind] = n;
  }
  const byType: Record<string, ReturnType<typeof groupJson>> = {};
  for (const t of QUESTION_TYPES) {
    const g = s.byType[t];
    if (g) byType[t] = groupJson(g);
  }
  return {
    status: s.status,
    ...groupJson(s),
    errors: s.errors,
    errorKinds,
    requests: { total: s.requests.total, answered: s.requests.answered, failed: s.requests.failed },
    completionRate: s.completionRate,
    confidentDisagreements: s.confidentDisagreements,
    rating: { stars: s.rating.stars, label: s.rating.label },
    byType,
    byWorkflow: sortedRecord(s.byWorkflow, groupJson),
    byQuestion: sortedRecord(s.byQuestion, groupJson),
    reliability: s.reliability.map((b) => ({
      index: b.index,
      lower: b.lower,
      upper: b.upper,
      n: b.n,
      meanConfidence: b.meanConfidence,
      accuracy: b.accuracy,
      gap: b.gap,
    })),
    latencyMs: { n: s.latencyMs.n, p50: s.latencyMs.p50, p95: s.latencyMs.p95, mean: s.latencyMs.mean },
    inputTokens: s.inputTokens,
    cost:
      s.cost === null
        ? null
        : {
            pricePerMtokUsd: s.cost.pricePerMtokUsd,
            inputTokens: s.cost.inputTokens,
            totalUsd: s.cost.totalUsd,
            perCorrectUsd: s.cost.perCorrectUsd,
          },
  };
}

function decisionRows(c: CaseResult): BenchDecisionRow[] {
  const latencyMs = c.request.latencyMs;
  const inputTokens = c.request.status === 'answered' ? c.request.inputTokens : null;
  return c.decisions.map((d): BenchDecisionRow => {
    const base = {
      caseId: c.caseId,
      workflow: c.workflow,
      questionId: d.questionId,
      type: d.type,
      answers: [...d.answers],
      goldLabel: d.gold.label,
      goldProbabilities: [...d.gold.probabilities],
    };
    const o = d.outcome;
    switch (o.status) {
      case 'answered':
        return {
          ...base,
          status: 'answered',
          predicted: o.predicted,
          correct: o.correct,
          confidence: o.confidence,
          kl: o.kl,
          brier: o.brier,
          probabilities: [...o.probabilities],
          latencyMs,
          inputTokens,
          error: null,
        };
      case 'failed':
        return {
          ...base,
          status: 'failed',
          predicted: null,
          correct: false,
          confidence: null,
          kl: null,
          brier: null,
          probabilities: null,
          latencyMs,
          inputTokens,
          error: { kind: o.failure.kind, message: o.failure.message },
        };
      default:
        return assertNever(o);
    }
  });
}
