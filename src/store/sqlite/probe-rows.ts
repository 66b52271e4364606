/** A stored probe's row and the head built from it, for both store adapters. */
import { passCount, type ProbeScope } from '../../core/probe/run.js';
import type { ProbeHead } from '../stored-probe.js';

export interface ProbeRow {
  id: string;
  created_at: string;
  endpoint_scheme: string;
  endpoint_host: string;
  endpoint_port: number;
  endpoint_path: string;
  model: string | null;
  dataset_id: string;
  scope: ProbeScope;
  case_count: number;
  seed: number;
  conformance_passed: number | null;
  conformance_failed: number | null;
  robustness_passed: number | null;
  robustness_failed: number | null;
  duration_ms: number;
  run_json: string;
}

/** The head of a stored probe (what `runs list` shows), from its row. */
export function probeHeadOf(row: ProbeRow): ProbeHead {
  const pair = (passed: number | null, failed: number | null) =>
    passed === null || failed === null ? null : passCount(passed, failed);
  return {
    kind: 'probe',
    id: row.id,
    createdAt: row.created_at,
    endpoint: {
      scheme: row.endpoint_scheme,
      host: row.endpoint_host,
      port: row.endpoint_port,
      path: row.endpoint_path,
    },
    model: row.model,
    datasetId: row.dataset_id,
    scope: row.scope,
    cases: row.case_count,
    seed: row.seed,
    conformance: pair(row.conformance_passed, row.conformance_failed),
    robustness: pair(row.robustness_passed, row.robustness_failed),
    durationMs: row.duration_ms,
  };
}
