/**
 * Version 11 of the run store's schema: a run's cases and decisions keyed in run order.
 *
 * Before, `cases` was keyed by (run, case id) and `decisions` by (run, case id, question
 * index). A dataset's case ids are in no useful order (`…~r12` sorts before `…~r2`), so each
 * saved batch landed on leaf pages all over both keys, and a commit wrote more distinct
 * pages the bigger the run grew: the cost a case grew with the run. Now a case is keyed by
 * its position in the run and a decision by its case's position and its own question index,
 * so a run's rows are appended in the order it saves them and a commit touches the same few
 * pages at any size. `decisions` is a `WITHOUT ROWID` table: its key is the table, one
 * B-tree instead of a table and its key's index. A case's id stays a column of both
 * (digests cover it, and `decision_rows` shows it); no index is kept on it, since every
 * look-up by id goes through the run's case set (`run_cases`), which gives the position.
 *
 * The tables are rebuilt with every column in its former order, their rows copied in run
 * order. The old tables are renamed first and dropped last, so no foreign key action of
 * dropping them reaches the new ones.
 */
export const RUN_ORDER_MIGRATION = `
  DROP VIEW decision_rows;
  ALTER TABLE decisions RENAME TO decisions_by_case_id;
  ALTER TABLE cases RENAME TO cases_by_case_id;

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
    answered_model TEXT,
    digest TEXT,
    replica TEXT,
    PRIMARY KEY (run_id, position)
  );
  INSERT INTO cases (run_id, case_id, position, workflow, request_status, latency_ms, input_tokens, error_kind,
      error_message, answered_model, digest, replica)
    SELECT run_id, case_id, position, workflow, request_status, latency_ms, input_tokens, error_kind,
      error_message, answered_model, digest, replica
    FROM cases_by_case_id ORDER BY run_id, position;

  -- case_position is the position of the decision's case; position is the question's index.
  CREATE TABLE decisions (
    run_id TEXT NOT NULL,
    case_id TEXT NOT NULL,
    case_position INTEGER NOT NULL,
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
    PRIMARY KEY (run_id, case_position, position),
    FOREIGN KEY (run_id, case_position) REFERENCES cases (run_id, position) ON DELETE CASCADE
  ) WITHOUT ROWID;
  INSERT INTO decisions (run_id, case_id, case_position, position, question_id, type, answers_json, gold_label,
      gold_probabilities_json, status, predicted, correct, confidence, kl, brier, probabilities_json, error_kind,
      error_message)
    SELECT d.run_id, d.case_id, c.position, d.position, d.question_id, d.type, d.answers_json, d.gold_label,
      d.gold_probabilities_json, d.status, d.predicted, d.correct, d.confidence, d.kl, d.brier,
      d.probabilities_json, d.error_kind, d.error_message
    FROM decisions_by_case_id d JOIN cases_by_case_id c ON c.run_id = d.run_id AND c.case_id = d.case_id
    ORDER BY d.run_id, c.position, d.position;

  DROP TABLE decisions_by_case_id;
  DROP TABLE cases_by_case_id;

  -- Flat per-decision rows for SQL users: SELECT * FROM decision_rows WHERE run_id = ?
  CREATE VIEW decision_rows AS
    SELECT d.run_id, d.case_id, c.workflow, d.question_id, c.workflow || '/' || d.question_id AS question_key,
           d.type, d.status, d.gold_label, d.predicted, d.correct, d.confidence, d.kl, d.brier,
           d.answers_json, d.gold_probabilities_json, d.probabilities_json,
           c.latency_ms, c.input_tokens, d.error_kind, d.error_message
    FROM decisions d JOIN cases c ON c.run_id = d.run_id AND c.position = d.case_position;
`;
