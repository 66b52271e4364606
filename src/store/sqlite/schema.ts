/**
 * The run store's schema, one migration per version. `PRAGMA user_version` holds the
 * version a database is at; `application_id` marks the file as a decidekit run store so
 * an unrelated SQLite file is refused instead of altered.
 */

import { AUDIT_MIGRATION } from './audit-schema.js';
import { PROBE_MIGRATION } from './probe-schema.js';
import { RUN_ORDER_MIGRATION } from './run-order-schema.js';

/** "dkrs" (decidekit run store) as a 32-bit integer. */
export const APPLICATION_ID = 0x646b7273;

/** Migrations in order: MIGRATIONS[i] takes a database from version i to i + 1. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'incomplete', 'interrupted')),
    label TEXT,
    fingerprint TEXT NOT NULL,
    tool_version TEXT NOT NULL,
    model TEXT,
    endpoint_scheme TEXT NOT NULL,
    endpoint_host TEXT NOT NULL,
    endpoint_port INTEGER NOT NULL,
    endpoint_path TEXT NOT NULL,
    embedded_model TEXT,
    dataset_id TEXT NOT NULL,
    dataset_revision TEXT,
    dataset_split TEXT NOT NULL,
    dataset_synthetic INTEGER NOT NULL,
    case_count INTEGER NOT NULL,
    filtered INTEGER NOT NULL,
    config_json TEXT NOT NULL,
    summary_json TEXT,
    accuracy REAL,
    kl REAL,
    brier REAL,
    ece REAL,
    mean_confidence REAL,
    decisions_total INTEGER,
    decisions_correct INTEGER,
    errors INTEGER,
    latency_p50_ms REAL,
    duration_ms REAL
  );
  CREATE INDEX runs_by_created ON runs (created_ms DESC, id DESC);
  CREATE INDEX runs_by_fingerprint ON runs (fingerprint);

  -- One row per finished case: the request's outcome.
  CREATE TABLE cases (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    case_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    workflow TEXT NOT NULL,
    request_status TEXT NOT NULL CHECK (request_status IN ('answered', 'failed')),
    latency_ms REAL,
    input_tokens INTEGER,
    error_kind TEXT,
    error_message TEXT,
    PRIMARY KEY (run_id, case_id)
  );

  -- One row per decision (question of a case). Distributions are JSON arrays aligned with
  -- answers_json; JSON.stringify writes every double so that it reads back exactly.
  CREATE TABLE decisions (
    run_id TEXT NOT NULL,
    case_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    question_id TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('noul', 'choice', 'score')),
    answers_json TEXT NOT NULL,
    gold_label TEXT NOT NULL,
    gold_probabilities_json TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('answered', 'failed')),
    predicted TEXT,
    correct INTEGER,
    confidence REAL,
    kl REAL,
    brier REAL,
    probabilities_json TEXT,
    error_kind TEXT,
    error_message TEXT,
    PRIMARY KEY (run_id, case_id, position),
    FOREIGN KEY (run_id, case_id) REFERENCES cases (run_id, case_id) ON DELETE CASCADE
  );

  -- Flat per-decision rows for SQL users: \`SELECT * FROM decision_rows WHERE run_id = ?\`.
  CREATE VIEW decision_rows AS
    SELECT d.run_id, d.case_id, c.workflow, d.question_id, c.workflow || '/' || d.question_id AS question_key,
           d.type, d.status, d.gold_label, d.predicted, d.correct, d.confidence, d.kl, d.brier,
           d.answers_json, d.gold_probabilities_json, d.probabilities_json,
           c.latency_ms, c.input_tokens, d.error_kind, d.error_message
    FROM decisions d JOIN cases c ON c.run_id = d.run_id AND c.case_id = d.case_id;
  `,
  // Version 2: a case's position comes from its own row, so saving a case never reads the
  // run's configuration (whose size grows with the run); earlier runs get theirs from it.
  `
  CREATE TABLE run_cases (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    case_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (run_id, case_id)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO run_cases (run_id, case_id, position)
    SELECT r.id, j.value, j.key FROM runs r, json_each(r.config_json, '$.caseIds') j
    WHERE json_valid(r.config_json);
  `,
  AUDIT_MIGRATION,
  // Version 4: the model each response said answered it (a server may ignore the asked one).
  `ALTER TABLE cases ADD COLUMN answered_model TEXT;`,
  // Version 5: probes (\`decidekit probe\`), one row each.
  PROBE_MIGRATION,
  // Version 6: a digest of each case's rows as written (see case-digest.ts), so \`runs check\`
  // finds a change to any stored byte of a case. Cases saved before have none.
  `ALTER TABLE cases ADD COLUMN digest TEXT;`,
  // Version 7: the run's intervals and ECE noise floor under its own conventions, as the
  // bench that finished it computed them, so \`runs show\` reads them instead of every
  // decision. Null until then, and again whenever the summary is rewritten.
  `ALTER TABLE runs ADD COLUMN statistics_json TEXT;`,
  // Version 8: a run's case ids live only in `run_cases`: its configuration keeps an empty
  // list in their place, so the run row (rewritten with the duration at every saved batch)
  // no longer grows with the run. A run whose positions do not match its ids keeps them.
  `
  UPDATE runs SET config_json = json_set(config_json, '$.caseIds', json('[]'))
    WHERE json_valid(config_json) AND json_type(config_json, '$.caseIds') = 'array'
      AND json_array_length(config_json, '$.caseIds') = (SELECT count(*) FROM run_cases WHERE run_id = runs.id);
  `,
  // Version 9: a run's cases in run order without a sort, so its cases and their decisions
  // are read as two streams in the same order (the case id makes each entry unique, which
  // lets SQLite walk each case's decisions by their key in that order too).
  `CREATE UNIQUE INDEX cases_in_run_order ON cases (run_id, position, case_id);`,
  // Version 10: the replica that answered each case, shown without credentials (a run sent
  // to several servers of one model); null for a run on one server.
  `ALTER TABLE cases ADD COLUMN replica TEXT;`,
  RUN_ORDER_MIGRATION,
  // Version 12: what a finished run's report lists (failed cases, confusion matrices,
  // latencies, disagreements, where its decisions start), kept as the bench that finished
  // it gathered them, so a report or \`decidekit view\` reads none of its cases for them.
  // Dropped whenever the run's summary is written again; a run finished before has none
  // (read from its cases).
  `
  CREATE TABLE run_listings (
    run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    listings_json TEXT NOT NULL
  );
  `,
  // Version 13: the notes of the replicas set aside while a run was sent (which, why, when,
  // how many cases each had answered), a JSON array; null when none was.
  `ALTER TABLE runs ADD COLUMN set_aside_json TEXT;`,
];

/** Tables every store at SCHEMA_VERSION has; one missing means the file was damaged. */
export const REQUIRED_TABLES: readonly string[] = ['runs', 'cases', 'decisions', 'run_cases'];

export const SCHEMA_VERSION = MIGRATIONS.length;
