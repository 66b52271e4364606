/** A run's cases in SQLite: saved a batch per transaction, read back in run order. */
import type { StoredStatus } from '../../core/run-status.js';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { CaseSource } from '../../core/bench/run.js';
import { DecidekitError } from '../../core/errors.js';
import type { CaseWriter, StoreCases } from '../store.js';
import type { SaveProgress, StoredDecisionValues } from '../stored-run.js';
import type Database from 'better-sqlite3';
import { createDecisionValueCheck, DECISION_VALUE_COLUMNS, type RawDecisionValues } from './decision-value-reads.js';
import { packedCaseDigest } from './case-digest.js';
import { mergeCaseRows, type PositionedCaseRowValues, type PositionedDecisionRowValues } from './case-reads.js';
import { CASE_REPLICA_COLUMN } from './case-digest.js';
import {
  forEachPackedCase,
  packCaseRows,
  PACKED_CASE_VALUES,
  PACKED_DECISION_VALUES,
  type PackedCaseRows,
} from './case-rows.js';
import type { RunTables } from './run-tables.js';
import { freshReaderSource, savedIdsOf, type OpenReader } from '../case-source.js';

/** What `source` opens for each iteration: a fresh read-only store to read the cases from. */
export type { OpenReader };

/** A run's decisions with their cases' values, in run order (the order `iterate` reads them in). */
const DECISION_VALUES_SQL = `SELECT ${DECISION_VALUE_COLUMNS}
  FROM cases c CROSS JOIN decisions d ON d.run_id = c.run_id AND d.case_position = c.position
  WHERE c.run_id = ? ORDER BY c.position, d.position`;

/**
 * A run's cases (from a position on: `where`), then its decisions, each stream in run order
 * along its table's key (the cases' position; the decisions' case position and question
 * index), read as arrays and merged case by case (`mergeCaseRows`). A decision carries its
 * case's position rather than its id: the pairing needs no string a decision.
 */
const caseRowsSql = (where: string) =>
  `SELECT case_id, workflow, request_status, latency_ms, input_tokens, error_kind, error_message, answered_model, ${CASE_REPLICA_COLUMN}, position
  FROM cases WHERE run_id = ? ${where} ORDER BY position`;
const decisionRowsSql = (where: string) =>
  `SELECT case_position, question_id, type, answers_json, gold_label, gold_probabilities_json, status, predicted,
    correct, confidence, kl, brier, probabilities_json, error_kind, error_message
  FROM decisions WHERE run_id = ? ${where} ORDER BY case_position, position`;

/** The statements of a case read, from the first case or from a position on. */
interface CaseReads {
  readonly cases: Database.Statement;
  readonly decisions: Database.Statement;
}

export class SqliteCases implements StoreCases {
  /** `DECISION_VALUES_SQL`, prepared by the first export read. */
  private decisionValueRows: Database.Statement | null = null;
  /** The case reads' statements, prepared by the first read: [from the start, from a position]. */
  private caseReads: readonly [CaseReads, CaseReads] | null = null;

  constructor(
    private readonly tables: RunTables,
    private readonly openReader: OpenReader,
    private readonly writerOptions: { readonly busyTimeoutMs?: number; readonly syncIntervalMs?: number },
  ) {}

  save(runId: string, results: readonly CaseResult[], progress: SaveProgress = {}): void {
    this.saveRows(runId, packCaseRows(results), progress);
  }

  /** `save` of rows packed by `packCaseRows` (what the writer thread receives). */
  saveRows(runId: string, packed: PackedCaseRows, progress: SaveProgress = {}): void {
    const { conn, statements } = this.tables;
    const write = conn.db.transaction(() => {
      const row = statements.status.get(runId) as { status: StoredStatus; duration_ms: number | null } | undefined;
      if (!row) throw conn.unknownRun(runId);
      // A stored run that gets new cases (resume, retry) is running again: its old summary goes.
      if (row.status !== 'running' && packed.length > 0)
        this.tables.writeSummary(runId, 'running', row.duration_ms, null);
      forEachPackedCase(packed, (at, count) => this.insertCase(runId, packed, at, count));
      if (progress.durationMs !== undefined) statements.duration.run(progress.durationMs, runId);
    });
    // IMMEDIATE takes the write lock before the first read: a deferred transaction that
    // read first cannot be upgraded once another process has written (WAL), and fails at
    // once with "database is locked" instead of waiting out the busy timeout.
    conn.writing(runId, () => conn.committing(() => write.immediate(), false));
  }

  /** Inserts the case at `at` of a packed batch, binding the packed values where they are. */
  private insertCase(runId: string, p: PackedCaseRows, at: number, count: number): void {
    const s = this.tables.statements;
    const caseId = p[at] as string;
    const digest = packedCaseDigest(runId, p, at, count);
    // workflow, request_status, latency_ms, input_tokens, error_kind, error_message, answered_model, replica
    const w = p[at + 1];
    const st = p[at + 2];
    const l = p[at + 3];
    const t = p[at + 4];
    const ek = p[at + 5];
    const em = p[at + 6];
    const m = p[at + 7];
    const r = p[at + 8];
    let casePosition = s.insertNewCase.get(w, st, l, t, ek, em, m, r, digest, runId, caseId) as number | undefined;
    if (casePosition === undefined) {
      // Saved before (a retry replaces it), or not in the run's case set.
      const found = s.position.get(runId, caseId) as { position: number } | undefined;
      if (found === undefined) {
        throw new DecidekitError(
          'invalid_run',
          `cannot save case ${JSON.stringify(caseId)}: it is not in the case set of run ${runId}`,
        );
      }
      casePosition = found.position;
      s.deleteCase.run(runId, casePosition);
      s.insertCase.run(runId, caseId, casePosition, w, st, l, t, ek, em, m, r, digest);
    }
    let k = at + PACKED_CASE_VALUES;
    for (let position = 0; position < count; position++, k += PACKED_DECISION_VALUES)
      s.insertDecision.run(
        runId,
        caseId,
        casePosition,
        position,
        p[k],
        p[k + 1],
        p[k + 2],
        p[k + 3],
        p[k + 4],
        p[k + 5],
        p[k + 6],
        p[k + 7],
        p[k + 8],
        p[k + 9],
        p[k + 10],
        p[k + 11],
        p[k + 12],
        p[k + 13],
      );
  }

  async startWriter(): Promise<CaseWriter> {
    // The writer thread's module is loaded only by the command that writes cases.
    const { startCaseWriter } = await import('../writer/case-writer.js');
    return startCaseWriter(this.tables.conn.path, this.writerOptions);
  }

  /** Every saved case of the run at once, in run order (two queries). */
  readAll(runId: string): CaseResult[] {
    return [...this.readCases(runId, 0)];
  }

  *iterate(runId: string, options: { readonly fromPosition?: number } = {}): Generator<CaseResult> {
    const { conn } = this.tables;
    this.tables.refuseUnknown(runId);
    // One read transaction, so both streams come from the same snapshot.
    const own = !conn.db.inTransaction;
    if (own) conn.db.exec('BEGIN');
    try {
      yield* this.readCases(runId, options.fromPosition ?? 0);
    } finally {
      // A rollback, not a commit: nothing was written, and after a damaged page SQLite can
      // refuse the commit, which would hide the damage found while reading.
      if (own && conn.db.inTransaction) conn.db.exec('ROLLBACK');
    }
  }

  /**
   * The run's cases from position `from` on, two queries merged case by case; a SQLite
   * failure half way is said in the store's words (the rows' own checks throw the store's
   * errors already).
   */
  private *readCases(runId: string, from: number): Generator<CaseResult> {
    const { conn } = this.tables;
    this.caseReads ??= [
      { cases: conn.db.prepare(caseRowsSql('')).raw(), decisions: conn.db.prepare(decisionRowsSql('')).raw() },
      {
        cases: conn.db.prepare(caseRowsSql('AND position >= ?')).raw(),
        decisions: conn.db.prepare(decisionRowsSql('AND case_position >= ?')).raw(),
      },
    ];
    const statements = this.caseReads[from > 0 ? 1 : 0];
    const params = from > 0 ? [runId, from] : [runId];
    let cases: IterableIterator<PositionedCaseRowValues> | null = null;
    let decisions: IterableIterator<PositionedDecisionRowValues> | null = null;
    try {
      cases = statements.cases.iterate(...params) as IterableIterator<PositionedCaseRowValues>;
      decisions = statements.decisions.iterate(...params) as IterableIterator<PositionedDecisionRowValues>;
      // Errors thrown where the cases are used do not come back in here: only the reads' own.
      yield* mergeCaseRows(conn, runId, cases, decisions);
    } catch (err) {
      throw conn.readFailure(err, runId);
    } finally {
      // An iteration stopped early must release its statements before the connection is used again.
      decisions?.return?.();
      cases?.return?.();
    }
  }

  *decisionValues(runId: string): Generator<StoredDecisionValues> {
    const { conn } = this.tables;
    this.tables.refuseUnknown(runId);
    const own = !conn.db.inTransaction;
    if (own) conn.db.exec('BEGIN');
    let rows: IterableIterator<RawDecisionValues> | null = null;
    try {
      this.decisionValueRows ??= conn.db.prepare(DECISION_VALUES_SQL).raw();
      const statement = this.decisionValueRows;
      rows = conn.reading(() => statement.iterate(runId) as IterableIterator<RawDecisionValues>, runId);
      const check = createDecisionValueCheck(conn, runId);
      for (;;) {
        const next = conn.reading(() => rows!.next(), runId);
        if (next.done === true) return;
        yield check(next.value);
      }
    } finally {
      rows?.return?.();
      // As in `iterate`: a rollback, which cannot hide damage found while reading.
      if (own && conn.db.inTransaction) conn.db.exec('ROLLBACK');
    }
  }

  source(runId: string, length: number): CaseSource {
    return freshReaderSource(this.openReader, runId, length);
  }

  savedIds(runId: string, options: { readonly includeFailed?: boolean } = {}): Set<string> {
    return savedIdsOf(this.byOutcome(runId), options.includeFailed);
  }

  byOutcome(runId: string): { readonly answered: Set<string>; readonly failed: Set<string> } {
    const { conn, statements } = this.tables;
    return conn.reading(() => {
      if (statements.exactId.get(runId) === undefined) throw conn.unknownRun(runId);
      const answered = new Set<string>();
      const failed = new Set<string>();
      for (const r of statements.savedIds.all(runId) as { case_id: string; request_status: string }[])
        (r.request_status === 'answered' ? answered : failed).add(r.case_id);
      return { answered, failed };
    }, runId);
  }
}
