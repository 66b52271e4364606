/**
 * The per-replica part of a run's report (a run sent to several replicas of one model): each
 * replica's requests, failed ones, and p50/p95 latency of its answered ones, the same words in
 * every format. A run on one server has none.
 */
import type { BenchSummary, ReplicaSummary } from '../../core/bench/summary.js';
import { formatCount, formatLatencyMs } from '../format.js';

/**
 * Each replica of the run with its numbers, in base-URL order (none for a run on one server);
 * with `redactHost`, named `replica 1`, `replica 2`… instead of by their URLs.
 */
export function replicasOf(s: Pick<BenchSummary, 'byReplica'>, redactHost = false): [string, ReplicaSummary][] {
  const entries = Object.entries(s.byReplica ?? {});
  return redactHost ? entries.map(([, r], i) => [`replica ${i + 1}`, r]) : entries;
}

/** One replica in words: `p50 … · p95 … (N requests, F failed)`. */
export function replicaLatencyText(r: ReplicaSummary): string {
  const latency =
    r.latencyMs.n === 0
      ? 'no answered request'
      : `p50 ${formatLatencyMs(r.latencyMs.p50)} · p95 ${formatLatencyMs(r.latencyMs.p95)}`;
  return `${latency}  (${formatCount(r.requests)} requests, ${formatCount(r.failed)} failed)`;
}

/** The JSON shape of the per-replica numbers (null for a run on one server). */
export function replicasJson(s: Pick<BenchSummary, 'byReplica'>, redactHost = false) {
  if (s.byReplica === undefined) return null;
  return replicasOf(s, redactHost).map(([replica, r]) => ({
    replica,
    requests: r.requests,
    failed: r.failed,
    latency_p50_ms: r.latencyMs.p50,
    latency_p95_ms: r.latencyMs.p95,
  }));
}
