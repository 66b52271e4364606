/**
 * The per-replica part of a run's report (a run sent to several replicas of one model): each
 * replica's requests, failed ones, and p50/p95 latency of its answered ones, the same words in
 * every format. A run on one server has none.
 */
import type { BenchRun } from '../../core/bench/run.js';
import type { BenchSummary, ReplicaSummary } from '../../core/bench/summary.js';
import { formatCount, formatLatencyMs } from '../format.js';

/**
 * Each replica of the run with its numbers, in base-URL order (`replicas`, the run's
 * `config.replicas`; none for a run on one server); with `redactHost`, named `replica N` by
 * its place in that order instead of by its URL.
 */
export function replicasOf(
  s: Pick<BenchSummary, 'byReplica'>,
  replicas: readonly string[] | undefined,
  redactHost = false,
): [string, ReplicaSummary][] {
  const byReplica = s.byReplica ?? {};
  const order = replicaOrder(replicas, Object.keys(byReplica));
  return order
    .filter((url) => byReplica[url] !== undefined)
    .map((url) => [redactHost ? redactedReplicaName(order, url) : url, byReplica[url]!]);
}

/** The replicas in base-URL order, then any other named (sorted): the order `replica N` counts in. */
function replicaOrder(replicas: readonly string[] | undefined, others: readonly string[]): string[] {
  const order = [...(replicas ?? [])];
  return [...order, ...others.filter((url) => !order.includes(url)).sort()];
}

/** `replica N`, N the replica's place in `order` (counted from one). */
function redactedReplicaName(order: readonly string[], url: string): string {
  return `replica ${order.indexOf(url) + 1}`;
}

/** One replica in words: `p50 … · p95 … (N requests, F failed)`. */
export function replicaLatencyText(r: ReplicaSummary): string {
  const latency =
    r.latencyMs.n === 0
      ? 'no answered request'
      : `p50 ${formatLatencyMs(r.latencyMs.p50)} · p95 ${formatLatencyMs(r.latencyMs.p95)}`;
  return `${latency}  (${formatCount(r.requests)} requests, ${formatCount(r.failed)} failed)`;
}

type SetAsideRun = Pick<BenchRun, 'setAside' | 'summary' | 'config'>;

/** The replicas set aside, each named as `replicasOf` names it (with `redactHost`, `replica N`, its host out of the reason too). */
function setAsideNamed(run: SetAsideRun, redactHost: boolean) {
  const order = replicaOrder(run.config.replicas, [
    ...Object.keys(run.summary.byReplica ?? {}),
    ...(run.setAside ?? []).map((n) => n.replica),
  ]);
  return (run.setAside ?? []).map((n) => {
    if (!redactHost) return n;
    const name = redactedReplicaName(order, n.replica);
    const host = URL.canParse(n.replica) ? new URL(n.replica).host : n.replica;
    return { ...n, replica: name, reason: n.reason.split(n.replica).join(name).split(host).join(name) };
  });
}

/**
 * The replicas set aside while the run was sent, one sentence each, the same words in every
 * format: `URL set aside at 2026-12-06 09:40:12 UTC after 9 answered cases: WHY`.
 */
export function setAsideTexts(run: SetAsideRun, redactHost = false): string[] {
  return setAsideNamed(run, redactHost).map(
    (n) =>
      `${n.replica} set aside at ${n.at.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC')} after ${formatCount(n.answeredCases)} answered case${n.answeredCases === 1 ? '' : 's'}: ${n.reason}`,
  );
}

/** The JSON shape of the replicas set aside (absent when none was). */
export function setAsideJson(run: SetAsideRun, redactHost = false) {
  if (run.setAside === undefined) return {};
  return {
    set_aside: setAsideNamed(run, redactHost).map((n) => ({
      replica: n.replica,
      reason: n.reason,
      at: n.at,
      answered_cases: n.answeredCases,
    })),
  };
}

/** The JSON shape of the per-replica numbers (null for a run on one server). */
export function replicasJson(
  s: Pick<BenchSummary, 'byReplica'>,
  replicas: readonly string[] | undefined,
  redactHost = false,
) {
  if (s.byReplica === undefined) return null;
  return replicasOf(s, replicas, redactHost).map(([replica, r]) => ({
    replica,
    requests: r.requests,
    failed: r.failed,
    latency_p50_ms: r.latencyMs.p50,
    latency_p95_ms: r.latencyMs.p95,
  }));
}
