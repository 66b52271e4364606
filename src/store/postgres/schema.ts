/**
 * The PostgreSQL store's schema, one migration per version: `schema_version` holds the
 * version a database is at (one row), and migrations run in one transaction under an
 * advisory lock, so processes opening a new store at once migrate it once. The tables are
 * the SQLite store's (`../sqlite/schema.ts`) in PostgreSQL's types: doubles for every real,
 * `bigint` for epoch milliseconds, JSON kept as text so every double reads back exactly.
 */

/** Migrations in order: MIGRATIONS[i] takes a database from version i to i + 1. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
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
    accuracy DOUBLE PRECISION,
    kl DOUBLE PRECISION,
    brier DOUBLE PRECISION,
    ece DOUBLE PRECISION,
    mean_confidence DOUBLE PRECISION,
    decisions_total INTEGER,
    decisions_correct INTEGER,
    errors INTEGER,
    latency_p50_ms DOUBLE PRECISION,
    duration_ms DOUBLE PRECISION,
    statistics_json TEXT
  );
  CREATE INDEX runs_by_created ON runs (created_ms DESC, id COLLATE "C" DESC);
  CREATE INDEX runs_by_fingerprint ON runs (fingerprint);

  CREATE TABLE run_cases (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    case_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (run_id, case_id)
  );

  CREATE TABLE cases (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    case_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    workflow TEXT NOT NULL,
    request_status TEXT NOT NULL CHECK (request_status IN ('answered', 'failed')),
    latency_ms DOUBLE PRECISION,
    input_tokens BIGINT,
    error_kind TEXT,
    error_message TEXT,
    answered_model TEXT,
    digest TEXT,
    PRIMARY KEY (run_id, case_id)
  );
  CREATE INDEX cases_by_position ON cases (run_id, position);

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
    confidence DOUBLE PRECISION,
    kl DOUBLE PRECISION,
    brier DOUBLE PRECISION,
    probabilities_json TEXT,
    error_kind TEXT,
    error_message TEXT,
    PRIMARY KEY (run_id, case_id, position),
    FOREIGN KEY (run_id, case_id) REFERENCES cases (run_id, case_id) ON DELETE CASCADE
  );

  CREATE VIEW decision_rows AS
    SELECT d.run_id, d.case_id, c.workflow, d.question_id, c.workflow || '/' || d.question_id AS question_key,
           d.type, d.status, d.gold_label, d.predicted, d.correct, d.confidence, d.kl, d.brier,
           d.answers_json, d.gold_probabilities_json, d.probabilities_json,
           c.latency_ms, c.input_tokens, d.error_kind, d.error_message
    FROM decisions d JOIN cases c ON c.run_id = d.run_id AND c.case_id = d.case_id;

  CREATE TABLE audits (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
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
    duration_ms DOUBLE PRECISION
  );
  CREATE INDEX audits_by_created ON audits (created_ms DESC, id COLLATE "C" DESC);

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
    elapsed_ms DOUBLE PRECISION,
    probe_json TEXT,
    PRIMARY KEY (audit_id, transcript_id, check_id)
  );

  CREATE TABLE probes (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    tool_version TEXT NOT NULL,
    endpoint_scheme TEXT NOT NULL,
    endpoint_host TEXT NOT NULL,
    endpoint_port INTEGER NOT NULL,
    endpoint_path TEXT NOT NULL,
    model TEXT,
    dataset_id TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('all', 'conformance', 'robustness')),
    case_count INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    conformance_passed INTEGER,
    conformance_failed INTEGER,
    robustness_passed INTEGER,
    robustness_failed INTEGER,
    requests INTEGER NOT NULL,
    duration_ms DOUBLE PRECISION NOT NULL,
    run_json TEXT NOT NULL
  );
  CREATE INDEX probes_by_created ON probes (created_ms DESC, id COLLATE "C" DESC);
  `,
  // Version 2: who sends a run now (`run-claims.ts`); the claim itself is a session advisory
  // lock, which the server drops with the holder's connection.
  `CREATE TABLE run_claims (
    run_id TEXT PRIMARY KEY,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    since TEXT NOT NULL
  );`,
  // Version 3: the replica that answered each case, shown without credentials (a run sent to
  // several servers of one model); null for a run on one server.
  `ALTER TABLE cases ADD COLUMN replica TEXT;`,
  // Version 4: what a finished run's report lists, kept beside its summary (as in the SQLite
  // store's version 11): dropped whenever the summary is written again.
  `CREATE TABLE run_listings (
    run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    listings_json TEXT NOT NULL
  );`,
  // Version 5: the notes of the replicas set aside while a run was sent (which, why, when,
  // how many cases each had answered), a JSON array kept as text; null when none was.
  `ALTER TABLE runs ADD COLUMN set_aside_json TEXT;`,
  // Version 6: a decision row refers to its run, not to its case's row. The check of a
  // foreign key to \`cases\` ran once a decision, with a plan the server made when the run's
  // cases were few (a scan of the table) and kept for the session: a save's decisions each
  // scanned the run's cases so far, quadratic in the run. A save writes a case and its
  // decisions in one transaction under the run's row lock, and deletes both.
  `
  ALTER TABLE decisions DROP CONSTRAINT decisions_run_id_case_id_fkey;
  ALTER TABLE decisions ADD CONSTRAINT decisions_run_id_fkey FOREIGN KEY (run_id) REFERENCES runs (id) ON DELETE CASCADE;
  `,
];

/**
 * The oldest version a read-only command reads without upgrading: version 4 only added the
 * listings kept with finished runs and version 5 the notes of replicas set aside (each read
 * as none when absent); version 6 changed a key that reads do not use.
 */
export const POSTGRES_READABLE_IN_PLACE_FROM = 3;

export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** The tables a decidekit store holds: one of them in a database without `schema_version` means another program's. */
export const STORE_TABLES: readonly string[] = [
  'runs',
  'run_cases',
  'cases',
  'decisions',
  'audits',
  'audit_verdicts',
  'probes',
  'run_listings',
];

/** The key of the advisory lock that migrations take ("dkrs" as a number). */
export const MIGRATION_LOCK = 0x646b7273;

/** The first key of a run's claim lock ("dkcl"); the second is the run id's hash. */
export const CLAIM_LOCK = 0x646b636c;
