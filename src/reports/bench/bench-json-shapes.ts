/**
 * The JSON shapes of a benchmark run's values that its documents share (`bench --json`,
 * `runs show`, `runs list`), each written once, with the conventions of reports/json-shapes.ts.
 */
import type { RunConfig } from '../../core/bench/run.js';
import {
  benchNullReasons,
  costPerCorrectNullReason,
  latencyNullReason,
  metricGroupNullReasons,
  type BenchSummary,
  type CostSummary,
  type MetricGroup,
} from '../../core/bench/summary.js';
import type { LatencySummary } from '../../core/percentile.js';
import { QUESTION_TYPES } from '../../core/question.js';
import { FAILURE_KINDS } from '../../core/typed-decisions/case-result.js';
import type { RunHeadline, StoredRunHead } from '../../store/stored-run.js';
import { HEADLINE_METRICS, METRIC_JSON_NAMES, type RunStatistics } from '../../core/bench/run-statistics.js';
import { conventionsJson, conventionsText } from '../../core/stats/conventions.js';
import {
  endpointJson,
  intervalJson,
  noiseFloorJson,
  nullReasonsJson,
  reliabilityBinJson,
  sortedRecordJson,
} from '../json-shapes.js';
import { replicasJson } from './replica-latency.js';

export function latencyJson(l: LatencySummary) {
  const reason = latencyNullReason(l);
  return {
    n: l.n,
    p50: l.p50,
    p95: l.p95,
    mean: l.mean,
    ...nullReasonsJson(reason === null ? {} : { p50: reason, p95: reason, mean: reason }),
  };
}

export function metricGroupJson(g: MetricGroup) {
  return {
    total: g.total,
    answered: g.answered,
    correct: g.correct,
    accuracy: g.accuracy,
    kl: g.kl,
    brier: g.brier,
    log_loss: g.logLoss ?? null,
    ece: g.ece,
    mean_confidence: g.meanConfidence,
    ...nullReasonsJson(metricGroupNullReasons(g)),
  };
}

export function costJson(c: CostSummary | null) {
  return c === null
    ? null
    : {
        price_per_mtok_usd: c.pricePerMtokUsd,
        input_tokens: c.inputTokens,
        total_usd: c.totalUsd,
        per_correct_usd: c.perCorrectUsd,
        ...nullReasonsJson({ perCorrectUsd: costPerCorrectNullReason(c) ?? undefined }),
      };
}

/** A run's configuration without the dataset (documents give it its own key). */
export function runConfigJson(c: RunConfig, redactHost = false) {
  return {
    tool_version: c.toolVersion,
    model: c.model,
    endpoint: endpointJson(c.endpoint, redactHost),
    embedded_server: c.embeddedServer === null ? null : { model: c.embeddedServer.model },
    parallel: c.parallel,
    ...(c.parallelByReplica === undefined ? {} : { parallel_by_replica: [...c.parallelByReplica] }),
    timeout_ms: c.timeoutMs,
    retries: c.retries,
    filters: {
      limit: c.filters.limit,
      workflow: c.filters.workflow,
      sample: c.filters.sample == null ? null : { cases: c.filters.sample.cases, seed: c.filters.sample.seed },
    },
    price_per_mtok_usd: c.pricePerMtokUsd,
    case_ids: [...c.caseIds],
    question_set: sortedRecordJson(c.questionSet, (v) => v),
    // The canonical text as stored; null for a run stored before conventions were recorded.
    conventions: c.conventions ?? null,
    // The map applied before scoring, part of the run's work (present only when one was).
    ...(c.calibration === undefined
      ? {}
      : {
          calibration: {
            path: c.calibration.path,
            sha256: c.calibration.sha256,
            method: c.calibration.method,
            by: c.calibration.by,
          },
        }),
  };
}

/** The summary's JSON shape; `replicas` (the run's, in base-URL order) orders and numbers `by_replica`. */
export function benchSummaryJson(s: BenchSummary, redactHost = false, replicas?: readonly string[]) {
  const errorKinds: Record<string, number> = {};
  for (const kind of FAILURE_KINDS) {
    const n = s.errorKinds[kind];
    if (n !== undefined) errorKinds[kind] = n;
  }
  const byType: Record<string, ReturnType<typeof metricGroupJson>> = {};
  for (const t of QUESTION_TYPES) {
    const g = s.byType[t];
    if (g) byType[t] = metricGroupJson(g);
  }
  const { null_reasons: _groupReasons, ...group } = metricGroupJson(s);
  return {
    status: s.status,
    ...group,
    errors: s.errors,
    error_kinds: errorKinds,
    requests: { total: s.requests.total, answered: s.requests.answered, failed: s.requests.failed },
    completion_rate: s.completionRate,
    confident_disagreements: s.confidentDisagreements,
    rating: { stars: s.rating.stars, label: s.rating.label },
    by_type: byType,
    by_workflow: sortedRecordJson(s.byWorkflow, metricGroupJson),
    by_question: sortedRecordJson(s.byQuestion, metricGroupJson),
    reliability: s.reliability.map(reliabilityBinJson),
    latency_ms: latencyJson(s.latencyMs),
    ...(s.byReplica === undefined ? {} : { by_replica: replicasJson(s, replicas, redactHost) }),
    input_tokens: s.inputTokens,
    cost: costJson(s.cost),
    ...nullReasonsJson(benchNullReasons(s)),
  };
}

export function runHeadlineJson(h: RunHeadline | null) {
  return h === null
    ? null
    : {
        accuracy: h.accuracy,
        kl: h.kl,
        brier: h.brier,
        ece: h.ece,
        mean_confidence: h.meanConfidence,
        total: h.total,
        correct: h.correct,
        errors: h.errors,
        latency_p50_ms: h.latencyP50Ms,
        ...nullReasonsJson({
          ...metricGroupNullReasons(h),
          latencyP50Ms: h.latencyP50Ms === null ? 'no request completed' : undefined,
        }),
      };
}

/** One stored run as `runs list` and `runs show` give it. */
export function runHeadJson(h: StoredRunHead, redactHost = false) {
  return {
    id: h.id,
    created_at: h.createdAt,
    status: h.status,
    label: h.label,
    fingerprint: h.fingerprint,
    model: h.model,
    embedded_server: h.embeddedServer === null ? null : { model: h.embeddedServer.model },
    endpoint: endpointJson(h.endpoint, redactHost),
    dataset: {
      id: h.dataset.id,
      revision: h.dataset.revision,
      split: h.dataset.split,
      synthetic: h.dataset.synthetic,
    },
    case_count: h.caseCount,
    saved_cases: h.savedCases,
    filtered: h.filtered,
    duration_ms: h.durationMs,
    tool_version: h.toolVersion,
    headline: runHeadlineJson(h.headline),
    answered_models: h.answeredModels,
    ...nullReasonsJson({
      durationMs: h.durationMs === null ? NO_SUMMARY_YET : undefined,
      headline: h.headline === null ? NO_SUMMARY_YET : undefined,
    }),
  };
}

/** Why a stored run has no summary (headline, duration) yet. */
const NO_SUMMARY_YET = 'no summary saved yet: the run is running, or was killed while running (resume it)';

/** `accuracy_ci` … `ece_ci` (null when intervals are off or the metric is absent), `ece_noise_floor`, `conventions`. */
export function runStatisticsJson(st: RunStatistics | null) {
  if (st === null) return {};
  const intervals: Record<string, readonly [number, number] | null> = {};
  for (const m of HEADLINE_METRICS) intervals[`${METRIC_JSON_NAMES[m]}_ci`] = intervalJson(st.intervals?.[m]);
  return {
    ...intervals,
    ece_noise_floor: noiseFloorJson(st.eceNoise),
    ece_debiased: st.debiasedEce?.debiased ?? null,
    ece_debiased_ci: intervalJson(st.debiasedEce?.interval),
    conventions: {
      ...conventionsJson(st.conventions),
      text: conventionsText(st.conventions),
      recorded: st.conventionsRecorded,
      recomputed: st.recomputed,
      intervals: st.intervals !== null,
      resampled_cases: st.cases,
    },
  };
}
