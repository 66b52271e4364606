/**
 * Saving a batch of finished cases to PostgreSQL, written once as the statements it runs:
 * `saveCaseSteps` yields each statement and reads its result, so the store's synchronous
 * save and the asynchronous writer (`case-writer.ts`) drive the same steps. The run's row is
 * locked first (`FOR UPDATE`): saves to one run from several processes take turns, and one
 * that finds the run finished puts it back to running without losing another's write.
 */
import { DecidekitError } from '../../core/errors.js';
import type { SaveProgress } from '../stored-run.js';
import { packedCaseDigest } from '../sqlite/case-digest.js';
import {
  forEachPackedCase,
  PACKED_CASE_VALUES,
  PACKED_DECISION_VALUES,
  type PackedCaseRows,
} from '../sqlite/case-rows.js';

/** One statement of a save and its parameters. */
export interface SaveStep {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** What a step gives back to the steps. */
export interface StepResult {
  readonly rows: readonly Record<string, unknown>[];
}

const CASE_COLUMNS = [
  ['case_id', 'text'],
  ['workflow', 'text'],
  ['request_status', 'text'],
  ['latency_ms', 'float8'],
  ['input_tokens', 'int8'],
  ['error_kind', 'text'],
  ['error_message', 'text'],
  ['answered_model', 'text'],
  ['replica', 'text'],
  ['digest', 'text'],
] as const;

const DECISION_COLUMNS = [
  ['case_id', 'text'],
  ['position', 'int4'],
  ['question_id', 'text'],
  ['type', 'text'],
  ['answers_json', 'text'],
  ['gold_label', 'text'],
  ['gold_probabilities_json', 'text'],
  ['status', 'text'],
  ['predicted', 'text'],
  ['correct', 'int4'],
  ['confidence', 'float8'],
  ['kl', 'float8'],
  ['brier', 'float8'],
  ['probabilities_json', 'text'],
  ['error_kind', 'text'],
  ['error_message', 'text'],
] as const;

/** `INSERT … SELECT … FROM unnest($2::t[], …)`: one statement for a whole batch of rows. */
function unnestOf(columns: readonly (readonly [string, string])[]): { list: string; from: string } {
  const names = columns.map(([name]) => name);
  const arrays = columns.map(([, type], i) => `$${i + 2}::${type}[]`);
  return { list: names.join(', '), from: `unnest(${arrays.join(', ')}) AS u(${names.join(', ')})` };
}

const CASES = unnestOf(CASE_COLUMNS);
const DECISIONS = unnestOf(DECISION_COLUMNS);

const INSERT_CASES = `INSERT INTO cases (run_id, position, ${CASES.list})
  SELECT $1, rc.position, ${CASE_COLUMNS.map(([n]) => `u.${n}`).join(', ')}
  FROM ${CASES.from} JOIN run_cases rc ON rc.run_id = $1 AND rc.case_id = u.case_id`;
const INSERT_DECISIONS = `INSERT INTO decisions (run_id, ${DECISIONS.list}) SELECT $1, * FROM ${DECISIONS.from}`;

/** The batch's rows as one array per column (a case given twice keeps its last result). */
function columnsOf(runId: string, packed: PackedCaseRows): { cases: unknown[][]; decisions: unknown[][] } {
  const last = new Map<string, { at: number; count: number }>();
  forEachPackedCase(packed, (at, count) => last.set(packed[at] as string, { at, count }));
  const cases: unknown[][] = CASE_COLUMNS.map(() => []);
  const decisions: unknown[][] = DECISION_COLUMNS.map(() => []);
  for (const [caseId, { at, count }] of last) {
    for (let k = 0; k < PACKED_CASE_VALUES - 1; k++) cases[k]!.push(packed[at + k]);
    cases[PACKED_CASE_VALUES - 1]!.push(packedCaseDigest(runId, packed, at, count));
    let k = at + PACKED_CASE_VALUES;
    for (let position = 0; position < count; position++, k += PACKED_DECISION_VALUES) {
      decisions[0]!.push(caseId);
      decisions[1]!.push(position);
      for (let j = 0; j < PACKED_DECISION_VALUES; j++) decisions[j + 2]!.push(packed[k + j]);
    }
  }
  return { cases, decisions };
}

/**
 * The statements of one save, to run in one transaction (`unknownRun` makes the error for a
 * run the store does not hold). A case outside the run's case set refuses the whole batch.
 */
export function* saveCaseSteps(
  runId: string,
  packed: PackedCaseRows,
  progress: SaveProgress,
  unknownRun: (runId: string) => Error,
): Generator<SaveStep, void, StepResult> {
  const run = yield { sql: 'SELECT status FROM runs WHERE id = $1 FOR UPDATE', params: [runId] };
  if (run.rows.length === 0) throw unknownRun(runId);
  if (packed.length > 0) {
    // A stored run that gets new cases (resume, retry) is running again: its old summary goes.
    if (run.rows[0]!['status'] !== 'running') yield { sql: REOPEN_RUN, params: [runId] };
    const { cases, decisions } = columnsOf(runId, packed);
    const ids = cases[0]!;
    const known = yield {
      sql: 'SELECT case_id FROM run_cases WHERE run_id = $1 AND case_id = ANY($2::text[])',
      params: [runId, ids],
    };
    if (known.rows.length !== ids.length) {
      const inSet = new Set(known.rows.map((r) => r['case_id']));
      const outside = ids.find((id) => !inSet.has(id));
      throw new DecidekitError(
        'invalid_run',
        `cannot save case ${JSON.stringify(outside)}: it is not in the case set of run ${runId}`,
      );
    }
    // A retried case replaces its earlier result (its decisions go with it).
    yield { sql: 'DELETE FROM decisions WHERE run_id = $1 AND case_id = ANY($2::text[])', params: [runId, ids] };
    yield { sql: 'DELETE FROM cases WHERE run_id = $1 AND case_id = ANY($2::text[])', params: [runId, ids] };
    yield { sql: INSERT_CASES, params: [runId, ...cases] };
    if (decisions[0]!.length > 0) yield { sql: INSERT_DECISIONS, params: [runId, ...decisions] };
  }
  if (progress.durationMs !== undefined)
    yield { sql: 'UPDATE runs SET duration_ms = $2 WHERE id = $1', params: [runId, progress.durationMs] };
}

/** A run back in status `running`, without its summary and what was computed from it. */
export const REOPEN_RUN = `WITH dropped AS (DELETE FROM run_listings WHERE run_id = $1) UPDATE runs SET status = 'running', summary_json = NULL, accuracy = NULL, kl = NULL,
  brier = NULL, ece = NULL, mean_confidence = NULL, decisions_total = NULL, decisions_correct = NULL, errors = NULL,
  latency_p50_ms = NULL, statistics_json = NULL WHERE id = $1`;
