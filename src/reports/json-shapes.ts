/**
 * The JSON shapes of the core values that several documents share, each written once.
 * Every JSON document decidekit writes uses snake_case keys in a fixed order (docs/file-formats.md);
 * core objects are never serialised directly, so renaming a field in the core cannot rename
 * a key users read. Keys that are data (workflow, question and answer names, failure kinds)
 * are kept as they are.
 */
import type { RunConfig } from '../core/bench/run.js';
import type { DatasetInfo } from '../core/typed-decisions/dataset-info.js';
import type { EndpointIdentity } from '../core/endpoint-identity.js';
import {
  benchNullReasons,
  costPerCorrectNullReason,
  latencyNullReason,
  metricGroupNullReasons,
  type BenchSummary,
  type CostSummary,
  type MetricGroup,
} from '../core/bench/summary.js';
import type { ReliabilityBin } from '../core/calibration.js';
import type { LatencySummary } from '../core/percentile.js';
import type { Interval } from '../core/stats/bootstrap.js';
import type { EceNoise } from '../core/stats/noise-floor.js';
import { QUESTION_TYPES } from '../core/question.js';
import { FAILURE_KINDS } from '../core/typed-decisions/case-result.js';
import type { RunHeadline, StoredRunHead } from '../store/run-store.js';
import { HEADLINE_METRICS, METRIC_JSON_NAMES, type RunStatistics } from '../core/bench/run-statistics.js';
import { conventionsJson, conventionsText } from '../core/stats/conventions.js';
import { redactedIdentity } from '../protocol/wire/endpoint.js';
import type { AuditHead } from '../store/audit/audit-store.js';

/** A record with its keys sorted (data keys such as workflow names), values mapped. */
export function sortedRecordJson<V, R>(record: Readonly<Record<string, V>>, map: (v: V) => R): Record<string, R> {
  const out: Record<string, R> = {};
  for (const key of Object.keys(record).sort()) out[key] = map(record[key]!);
  return out;
}

/**
 * `null_reasons`: for each null metric of a document's object, why it is null (its key in
 * snake_case); present only when some metric is null, so a null always carries its reason.
 */
export function nullReasonsJson(reasons: Readonly<Record<string, string | undefined>>): {
  null_reasons?: Record<string, string>;
} {
  const out: Record<string, string> = {};
  for (const [key, reason] of Object.entries(reasons))
    if (reason !== undefined) out[key.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)] = reason;
  return Object.keys(out).length === 0 ? {} : { null_reasons: out };
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

export function reliabilityBinJson(b: ReliabilityBin) {
  return {
    index: b.index,
    lower: b.lower,
    upper: b.upper,
    n: b.n,
    mean_confidence: b.meanConfidence,
    accuracy: b.accuracy,
    gap: b.gap,
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

export function endpointJson(e: EndpointIdentity, redactHost = false) {
  const shown = redactHost ? redactedIdentity(e) : e;
  return { scheme: shown.scheme, host: shown.host, port: shown.port, path: shown.path };
}

export function datasetJson(d: DatasetInfo) {
  return {
    id: d.id,
    revision: d.revision,
    split: d.split,
    license: d.license,
    synthetic: d.synthetic,
    attribution: d.attribution,
    url: d.url,
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
  };
}

export function benchSummaryJson(s: BenchSummary) {
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

/** One stored audit as `runs list` gives it. */
export function auditHeadJson(h: AuditHead, redactHost = false) {
  return {
    kind: h.kind,
    id: h.id,
    created_at: h.createdAt,
    status: h.status,
    label: h.label,
    judge_endpoint: endpointJson(h.judgeEndpoint, redactHost),
    judge_model: h.judgeModel,
    set: h.set,
    order_probe: h.orderProbe,
    planned: h.planned,
    finished: h.finished,
    counts: h.counts,
    duration_ms: h.durationMs,
  };
}

/** A 95% interval as `[low, high]` (the `<metric>_ci` keys), null when absent. */
export function intervalJson(i: Interval | null | undefined): [number, number] | null {
  return i === null || i === undefined ? null : [i.low, i.high];
}

/** The ECE noise floor (`ece_noise_floor`), null when absent. */
export function noiseFloorJson(f: EceNoise | null | undefined) {
  return f === null || f === undefined
    ? null
    : { mean: f.mean, p95: f.p95, simulations: f.simulations, within_noise: f.withinNoise };
}

/** `accuracy_ci` … `ece_ci` (null when intervals are off or the metric is absent), `ece_noise_floor`, `conventions`. */
export function runStatisticsJson(st: RunStatistics | null) {
  if (st === null) return {};
  const intervals: Record<string, readonly [number, number] | null> = {};
  for (const m of HEADLINE_METRICS) intervals[`${METRIC_JSON_NAMES[m]}_ci`] = intervalJson(st.intervals?.[m]);
  return {
    ...intervals,
    ece_noise_floor: noiseFloorJson(st.eceNoise),
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
