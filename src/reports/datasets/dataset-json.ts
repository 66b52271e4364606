/** `dataset fetch|info|verify --json`: one document each, snake_case keys as in `manifest.json`. */
import { escapeUnsafeJson } from '../../core/safe-text.js';
import type { FetchTypedDecisionsResult } from '../../datasets/typed-decisions/fetch-typed-decisions.js';
import type { DatasetManifest } from '../../datasets/typed-decisions/manifest.js';
import { datasetJson, sortedRecordJson } from '../json-shapes.js';
import type {
  DatasetDescription,
  DatasetNotFetched,
  DatasetVerification,
} from '../../datasets/typed-decisions/dataset-description.js';

function sourceJson(m: DatasetManifest | null) {
  const s = m?.source ?? null;
  return s === null ? null : { url: s.url, path: s.path, sha256: s.sha256, sha256_pinned: s.sha256Pinned };
}

function filesJson(m: DatasetManifest | null) {
  return m === null
    ? null
    : m.files.map((f) => ({ split: f.split, path: f.path, sha256: f.sha256, bytes: f.bytes, rows: f.rows }));
}

export function renderFetchJson(r: FetchTypedDecisionsResult): string {
  return `${escapeUnsafeJson(
    JSON.stringify({
      dir: r.dir,
      id: r.manifest.id,
      revision: r.manifest.revision,
      cases: r.cases,
      downloaded_bytes: r.downloadedBytes,
      source: sourceJson(r.manifest),
      warnings: [...r.warnings],
    }),
  )}\n`;
}

export function renderDatasetInfoJson(
  described: readonly DatasetDescription[],
  notFetched: readonly DatasetNotFetched[],
): string {
  return `${escapeUnsafeJson(
    JSON.stringify({
      datasets: described.map((e) => ({
        target: e.target,
        dataset: datasetJson(e.info),
        location: e.location,
        source: sourceJson(e.manifest),
        generator: e.manifest?.generator
          ? { script: e.manifest.generator.script, seed: e.manifest.generator.seed }
          : null,
        files: filesJson(e.manifest),
        cases: e.summary.cases,
        decisions: e.summary.decisions,
        cases_by_workflow: sortedRecordJson(e.summary.casesByWorkflow, (n) => n),
        decisions_by_type: { ...e.summary.decisionsByType },
      })),
      not_fetched: notFetched.map((m) => ({ target: m.target, message: m.message })),
    }),
  )}\n`;
}

export function renderVerifyJson(results: readonly DatasetVerification[]): string {
  return `${escapeUnsafeJson(
    JSON.stringify({
      ok: !results.some((r) => !r.ok && !r.skipped),
      results: results.map((r) =>
        r.ok
          ? {
              target: r.target,
              status: 'ok',
              dataset: r.verified.info.id,
              revision: r.verified.info.revision,
              location: r.verified.location,
              manifest: r.verified.manifest !== null,
              splits: r.verified.splits.map((s) => ({ split: s.split, rows: s.rows, cases: s.cases })),
            }
          : {
              target: r.target,
              status: r.skipped ? 'not_fetched' : 'failed',
              error: r.error,
              problems: [...r.problems],
            },
      ),
    }),
  )}\n`;
}
