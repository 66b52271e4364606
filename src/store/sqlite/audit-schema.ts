/**
 * The audit tables of the run store (schema version 2): audits are runs of kind `audit`,
 * kept beside the benchmark runs in the same file but in their own tables, so neither
 * kind's columns leak into the other.
 */
export const AUDIT_MIGRATION = `
  CREATE TABLE audits (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'incomplete', 'interrupted')),
    label TEXT,
    tool_version TEXT NOT NULL,
    judge_scheme TEXT NOT NULL,
    judge_host TEXT NOT NULL,
    judge_port INTEGER NOT NULL,
    judge_path TEXT NOT NULL,
    judge_model TEXT,
    check_set TEXT NOT NULL CHECK (check_set IN ('recommended', 'all')),
    order_probe INTEGER NOT NULL,
    config_json TEXT NOT NULL,
    summary_json TEXT,
    audited INTEGER,
    agrees INTEGER,
    disagrees INTEGER,
    abstained INTEGER,
    unavailable INTEGER,
    duration_ms REAL
  );
  CREATE INDEX audits_by_created ON audits (created_ms DESC, id DESC);

  -- One row per (transcript, check): pending until judged; the exact input is kept from the start.
  CREATE TABLE audit_verdicts (
    audit_id TEXT NOT NULL REFERENCES audits (id) ON DELETE CASCADE,
    transcript_id TEXT NOT NULL,
    check_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    tags_json TEXT NOT NULL,
    question_sha256 TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('messages', 'final_answer')),
    question_json TEXT NOT NULL,
    input_text TEXT NOT NULL,
    label TEXT NOT NULL,
    judge_endpoint TEXT NOT NULL,
    judge_model TEXT,
    status TEXT NOT NULL CHECK (status IN ('pending', 'agrees', 'disagrees', 'abstained', 'unavailable')),
    reason TEXT,
    message TEXT,
    choice TEXT,
    probabilities_json TEXT,
    elapsed_ms REAL,
    probe_json TEXT,
    PRIMARY KEY (audit_id, transcript_id, check_id)
  );
`;
