/** A `runs` row and the stored run it reads as: head, headline, summary columns, stored JSON. */
import type { RunCheckReads } from '../run-check.js';
import type { StoredStatus } from '../../core/run-status.js';
import type { BenchSummary } from '../../core/bench/summary.js';
import type { ReplicaSetAside } from '../../core/bench/run.js';
import { StoreDamagedError } from '../store-errors.js';
import type { RunHeadline, StoredRunHead, StoredRunInfo } from '../stored-run.js';

export interface RunRow {
  id: string;
  created_at: string;
  status: StoredStatus;
  label: string | null;
  fingerprint: string;
  tool_version: string;
  model: string | null;
  endpoint_scheme: string;
  endpoint_host: string;
  endpoint_port: number;
  endpoint_path: string;
  embedded_model: string | null;
  dataset_id: string;
  dataset_revision: string | null;
  dataset_split: string;
  dataset_synthetic: number;
  case_count: number;
  filtered: number;
  config_json: string;
  summary_json: string | null;
  /** The notes of replicas set aside (a JSON array), null when none was; not read by every query. */
  set_aside_json?: string | null;
  accuracy: number | null;
  kl: number | null;
  brier: number | null;
  ece: number | null;
  mean_confidence: number | null;
  decisions_total: number | null;
  decisions_correct: number | null;
  errors: number | null;
  latency_p50_ms: number | null;
  duration_ms: number | null;
  saved_cases: number;
}

export const HEAD_COLUMNS = `runs.*, (SELECT count(*) FROM cases WHERE cases.run_id = runs.id) AS saved_cases`;

/**
 * `runs list` reads neither the configuration (every case id) nor the summary text: only
 * whether a summary is stored ('' stands for it).
 */
export const LIST_COLUMNS = `id, created_at, status, label, fingerprint, tool_version, model, endpoint_scheme, endpoint_host,
  endpoint_port, endpoint_path, embedded_model, dataset_id, dataset_revision, dataset_split, dataset_synthetic,
  case_count, filtered, '' AS config_json, CASE WHEN summary_json IS NULL THEN NULL ELSE '' END AS summary_json,
  accuracy, kl, brier, ece, mean_confidence, decisions_total, decisions_correct, errors, latency_p50_ms, duration_ms,
  (SELECT count(*) FROM cases WHERE cases.run_id = runs.id) AS saved_cases`;

export function headlineOf(row: RunRow): RunHeadline | null {
  if (row.summary_json === null || row.decisions_total === null) return null;
  return {
    accuracy: row.accuracy,
    kl: row.kl,
    brier: row.brier,
    ece: row.ece,
    meanConfidence: row.mean_confidence,
    total: row.decisions_total,
    correct: row.decisions_correct ?? 0,
    errors: row.errors ?? 0,
    latencyP50Ms: row.latency_p50_ms,
  };
}

export function headOf(row: RunRow, answeredModels: readonly string[] | null): StoredRunHead {
  return {
    id: row.id,
    createdAt: row.created_at,
    status: row.status,
    label: row.label,
    fingerprint: row.fingerprint,
    toolVersion: row.tool_version,
    model: row.model,
    endpoint: {
      scheme: row.endpoint_scheme,
      host: row.endpoint_host,
      port: row.endpoint_port,
      path: row.endpoint_path,
    },
    embeddedServer: row.embedded_model === null ? null : { model: row.embedded_model },
    dataset: {
      id: row.dataset_id,
      revision: row.dataset_revision,
      split: row.dataset_split,
      synthetic: row.dataset_synthetic === 1,
    },
    caseCount: row.case_count,
    savedCases: row.saved_cases,
    filtered: row.filtered === 1,
    durationMs: row.duration_ms,
    headline: headlineOf(row),
    answeredModels,
  };
}

/** The `runs` columns that hold a summary (all null without one). */
export function summaryColumns(summary: BenchSummary | null) {
  return {
    summary_json: summary === null ? null : JSON.stringify(summary),
    accuracy: summary?.accuracy ?? null,
    kl: summary?.kl ?? null,
    brier: summary?.brier ?? null,
    ece: summary?.ece ?? null,
    mean_confidence: summary?.meanConfidence ?? null,
    decisions_total: summary?.total ?? null,
    decisions_correct: summary?.correct ?? null,
    errors: summary?.errors ?? null,
    latency_p50_ms: summary?.latencyMs.p50 ?? null,
  };
}

/** How many distinct JSON texts a read keeps parsed (`remembered`) before it starts again. */
const REMEMBERED_TEXTS = 4_096;

/**
 * `value`, kept in `parsed` under its stored `text` for the rest of the read: a run's
 * answers and distributions repeat with its questions, so each distinct text is parsed and
 * checked once. Bounded: a read whose texts all differ empties the map now and then.
 */
export function remembered<T>(parsed: Map<string, T>, text: string, value: T): T {
  if (parsed.size >= REMEMBERED_TEXTS) parsed.clear();
  parsed.set(text, value);
  return value;
}

/** A stored JSON value, checked for its shape; damage names the run and what was read. */
export function parseStoredJson<T>(
  text: unknown,
  what: string,
  runId: string,
  path: string,
  isValid: (v: unknown) => boolean = () => true,
): T {
  let value: unknown;
  try {
    value = JSON.parse(String(text));
  } catch (err) {
    throw new StoreDamagedError(path, `run ${runId}: its ${what} is not valid JSON`, { runId, cause: err });
  }
  if (!isValid(value)) throw new StoreDamagedError(path, `run ${runId}: its ${what} has the wrong shape`, { runId });
  return value as T;
}

export const isNumberArray = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'number');
export const isStringArray = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string');
export const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isConfig = (v: unknown): boolean =>
  isObject(v) && isStringArray((v as { caseIds?: unknown }).caseIds) && isObject((v as { dataset?: unknown }).dataset);
export const STATUSES: ReadonlySet<string> = new Set(['running', 'complete', 'incomplete', 'interrupted']);

/** A run's head row as `runs check` reads it, in either adapter. */
export function runCheckHead(row: RunRow): RunCheckReads['head'] {
  return {
    status: STATUSES.has(row.status) ? row.status : null,
    savedCases: row.saved_cases,
    stored: {
      status: row.status,
      summaryStored: row.summary_json !== null,
      headline: headlineOf(row),
      caseCount: row.case_count,
    },
  };
}

/** A run without its cases, from its row and configuration; `summarizeSaved` gives the summary of a run that has none stored. */
export function storedRunInfo(
  row: RunRow,
  config: StoredRunInfo['config'],
  summarizeSaved: (config: StoredRunInfo['config']) => BenchSummary,
  path: string,
): StoredRunInfo {
  const summary =
    row.summary_json === null
      ? summarizeSaved(config)
      : parseStoredJson<BenchSummary>(row.summary_json, 'summary', row.id, path, isObject);
  return {
    id: row.id,
    createdAt: row.created_at,
    durationMs: row.duration_ms,
    label: row.label,
    fingerprint: row.fingerprint,
    config,
    summary,
    ...(row.set_aside_json == null
      ? {}
      : {
          setAside: parseStoredJson<ReplicaSetAside[]>(
            row.set_aside_json,
            'replicas set aside',
            row.id,
            path,
            Array.isArray,
          ),
        }),
  };
}
