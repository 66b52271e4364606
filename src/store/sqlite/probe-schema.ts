/**
 * The probe table of the run store (schema version 5): each `decidekit probe` is one row,
 * its whole result kept as JSON beside the columns `runs list` shows. A probe is never
 * resumed, so it needs no per-request rows.
 */
export const PROBE_MIGRATION = `
  CREATE TABLE probes (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    tool_version TEXT NOT NULL,
    endpoint_scheme TEXT NOT NULL,
    endpoint_host TEXT NOT NULL,
    endpoint_port INTEGER NOT NULL,
    endpoint_path TEXT NOT NULL,
    model TEXT,
    dataset_id TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('all', 'conformance', 'robustness')),
    case_count INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    conformance_passed INTEGER,
    conformance_failed INTEGER,
    robustness_passed INTEGER,
    robustness_failed INTEGER,
    requests INTEGER NOT NULL,
    duration_ms REAL NOT NULL,
    run_json TEXT NOT NULL
  );
  CREATE INDEX probes_by_created ON probes (created_ms DESC, id DESC);
`;
