/** A run's cases in SQLite: saved a batch per transaction, read back in run order. */
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { CaseSource } from '../../core/bench/run.js';
import type { CaseWriter, StoreCases } from '../store.js';
import type { SaveProgress, StoredDecisionValues } from '../stored-run.js';
import type Database from 'better-sqlite3';
import { createDecisionValueCheck } from './decision-value-reads.js';
import { readDecisionCsv } from './decision-text-reads.js';
import type { DecisionCsvOptions } from '../decision-csv.js';
import { mergeCaseRows, type PositionedCaseRowValues, type PositionedDecisionRowValues } from './case-reads.js';
import { CASE_REPLICA_COLUMN } from './case-digest.js';
import { packCaseBatch, type PackedCaseBatch } from './case-batch.js';
import { saveCaseBatch } from './save-case-batch.js';
import type { RunTables } from './run-tables.js';
import { freshReaderSource, savedIdsOf, type OpenReader } from '../case-source.js';

/** What `source` opens for each iteration: a fresh read-only store to read the cases from. */
export type { OpenReader };

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

  /** The case reads' statements, prepared by the first read. */
  private prepareCaseReads(): readonly [CaseReads, CaseReads] {
    const { db } = this.tables.conn;
    this.caseReads ??= [
      { cases: db.prepare(caseRowsSql('')).raw(), decisions: db.prepare(decisionRowsSql('')).raw() },
      {
        cases: db.prepare(caseRowsSql('AND position >= ?')).raw(),
        decisions: db.prepare(decisionRowsSql('AND case_position >= ?')).raw(),
      },
    ];
    return this.caseReads;
  }

  /**
   * The run's cases from position `from` on, two queries merged case by case; a SQLite
   * failure half way is said in the store's words (the rows' own checks throw the store's
   * errors already).
   */
  private *readCases(runId: string, from: number): Generator<CaseResult> {
    const { conn } = this.tables;
    const statements = this.prepareCaseReads()[from > 0 ? 1 : 0];
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
    let cases: IterableIterator<PositionedCaseRowValues> | null = null;
    let decisions: IterableIterator<PositionedDecisionRowValues> | null = null;
    try {
      // The case read's two streams: each decision takes its case's values (the same strings
      // for all of a case's decisions) rather than a joined row reading them again.
      const statements = this.prepareCaseReads()[0];
      cases = statements.cases.iterate(runId) as IterableIterator<PositionedCaseRowValues>;
      decisions = statements.decisions.iterate(runId) as IterableIterator<PositionedDecisionRowValues>;
      const check = createDecisionValueCheck(conn, runId);
      let d = decisions.next();
      for (let next = cases.next(); next.done !== true; next = cases.next()) {
        const c = next.value;
        const position = c[9];
        // A decision whose position no case row has is passed over, as a join would.
        while (d.done !== true && d.value[0] < position) d = decisions.next();
        while (d.done !== true && d.value[0] === position) {
          const v = d.value;
          // prettier-ignore
          yield check([c[0], c[1], c[2], c[3], c[4], c[5], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14]]);
          d = decisions.next();
        }
      }
    } catch (err) {
      throw conn.readFailure(err, runId);
    } finally {
      decisions?.return?.();
      cases?.return?.();
      // As in `iterate`: a rollback, which cannot hide damage found while reading.
      if (own && conn.db.inTransaction) conn.db.exec('ROLLBACK');
    }
  }

  decisionCsv(runId: string, write: (piece: Uint8Array | string) => void, options?: DecisionCsvOptions): boolean {
    return readDecisionCsv(this.tables, runId, write, options);
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
