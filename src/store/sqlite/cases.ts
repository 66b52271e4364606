/** A run's cases in SQLite: saved a batch per transaction, read back in run order. */
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { CaseSource } from '../../core/bench/run.js';
import type { CaseWriter, StoreCases } from '../store.js';
import type { SaveProgress, StoredDecisionValues } from '../stored-run.js';
import type Database from 'better-sqlite3';
import { createDecisionValueCheck, DECISION_VALUE_COLUMNS, type RawDecisionValues } from './decision-value-reads.js';
import { readDecisionCsv } from './decision-text-reads.js';
import { mergeCaseRows, type PositionedCaseRowValues, type PositionedDecisionRowValues } from './case-reads.js';
import { CASE_REPLICA_COLUMN } from './case-digest.js';
import { packCaseBatch, type PackedCaseBatch } from './case-batch.js';
import { saveCaseBatch } from './save-case-batch.js';
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
    this.saveBatch(runId, packCaseBatch(results), progress);
  }

  /** `save` of a batch packed by `packCaseBatch` (what the writer thread receives). */
  saveBatch(runId: string, batch: PackedCaseBatch, progress: SaveProgress = {}): void {
    saveCaseBatch(this.tables, runId, batch, progress);
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

  decisionCsv(runId: string, write: (piece: Uint8Array | string) => void): boolean {
    return readDecisionCsv(this.tables, runId, write);
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
