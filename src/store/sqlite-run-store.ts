import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { isFiltered, type BenchRun, type CaseSource, type RunConfig } from '../core/bench/run.js';
import {
  FAILURE_KINDS,
  type CaseResult,
  type Decision,
  type DecisionOutcome,
  type FailureKind,
  type RequestOutcome,
} from '../core/typed-decisions/case-result.js';
import type { RunStatistics } from '../core/bench/run-statistics.js';
import type { BenchSummary } from '../core/bench/summary.js';
import { DecidekitError } from '../core/errors.js';
import { sqlString } from '../core/sql-text.js';
import { shellWord } from '../core/shell-word.js';
import type { QuestionType } from '../core/question.js';
import { fingerprintOf } from './fingerprint.js';
import { createRunId } from './run-id.js';
import type {
  FinishRunInput,
  RunCheck,
  RunHeadline,
  RunStore,
  SaveProgress,
  StoreCheck,
  StoredRunHead,
  StoredRunInfo,
} from './run-store.js';
import type { StoredStatus } from '../core/run-status.js';
import { summarizeRun } from './run-summary.js';
import { checkRunRecords } from './run-records-check.js';
import { refuseUnusableStoreLocation } from './store-location.js';
import { caseDigest, CASE_DIGEST_COLUMNS, DECISION_DIGEST_COLUMNS } from './case-digest.js';
import { packCaseRows, unpackCaseRows, type CaseRows, type PackedCaseRows } from './case-rows.js';
import {
  isDamage,
  notADatabaseError,
  StoreDamagedError,
  StoreNeedsUpgradeError,
  StoreWriteError,
} from './store-errors.js';
import { APPLICATION_ID, MIGRATIONS, REQUIRED_TABLES, SCHEMA_VERSION } from './store-schema.js';
import { refuseIdOfOtherKind, type AskedBy } from './record-kind.js';
import { dropCopyDir, makeCopyDir } from './temp-copies.js';

/** The page cache of each connection, in KiB as SQLite's negative `cache_size` counts it. */
const PAGE_CACHE_KIB = -2000;

export interface OpenRunStoreOptions {
  /** Refuse to create a new database when the file is missing. Default false. */
  readonly mustExist?: boolean;
  /**
   * Open for reading only (`runs list/show/report/export/check`): never creates, migrates or
   * writes, so an archived or read-only store (file or folder) can be read. A store written
   * by an older decidekit is read from an upgraded copy in a temp folder (the file is
   * upgraded by the next command that writes to it). Implies `mustExist`.
   * Default false.
   */
  readonly readOnly?: boolean;
  /**
   * When commits reach the disk. Every commit survives a killed process either way (it is in
   * the write-ahead log before the call returns). `normal` (default): the log is synced to
   * disk at the first commit after every `syncIntervalMs` and when a run is finished or
   * marked interrupted, so power loss or an OS crash loses at most the cases saved in the
   * last interval (the file stays consistent). `full`: every commit is synced.
   */
  readonly synchronous?: 'full' | 'normal';
  /** With `synchronous: 'normal'`, the longest time between syncs to disk. Default 2000. */
  readonly syncIntervalMs?: number;
  /** Monotonic milliseconds, for `syncIntervalMs`. Default `performance.now`. */
  readonly now?: () => number;
  /** How long to wait for another process's write lock. Default 5000. */
  readonly busyTimeoutMs?: number;
  /** Source of the random part of run ids. Default: node:crypto. */
  readonly randomBytes?: (n: number) => Uint8Array;
  /** Sees the SQL of every statement run (diagnostics; tests count what a save reads). */
  readonly onStatement?: (sql: string) => void;
}

/** Thrown when no stored run matches an id or prefix. */
export class UnknownRunError extends DecidekitError {
  override readonly name = 'UnknownRunError';
  constructor(message: string, context: Record<string, unknown>) {
    super('unknown_run', message, { context });
  }
}

interface RunRow {
  id: string;
  created_at: string;
  status: StoredStatus;
  label: string | null;
  fingerprint: string;
  tool_version: string;
  model: string | null;
  endpoint_scheme: string;
  endpoint_host: string;
  endpoint_port: number;
  endpoint_path: string;
  embedded_model: string | null;
  dataset_id: string;
  dataset_revision: string | null;
  dataset_split: string;
  dataset_synthetic: number;
  case_count: number;
  filtered: number;
  config_json: string;
  summary_json: string | null;
  accuracy: number | null;
  kl: number | null;
  brier: number | null;
  ece: number | null;
  mean_confidence: number | null;
  decisions_total: number | null;
  decisions_correct: number | null;
  errors: number | null;
  latency_p50_ms: number | null;
  duration_ms: number | null;
  saved_cases: number;
}

interface CaseRow {
  case_id: string;
  workflow: string;
  request_status: 'answered' | 'failed';
  latency_ms: number | null;
  answered_model?: string | null;
  input_tokens: number | null;
  error_kind: string | null;
  error_message: string | null;
}

interface DecisionRow {
  case_id: string;
  question_id: string;
  type: QuestionType;
  answers_json: string;
  gold_label: string;
  gold_probabilities_json: string;
  status: 'answered' | 'failed';
  predicted: string | null;
  correct: number | null;
  confidence: number | null;
  kl: number | null;
  brier: number | null;
  probabilities_json: string | null;
  error_kind: string | null;
  error_message: string | null;
}

const HEAD_COLUMNS = `runs.*, (SELECT count(*) FROM cases WHERE cases.run_id = runs.id) AS saved_cases`;

/**
 * `runs list` reads neither the configuration (every case id) nor the summary text: only
 * whether a summary is stored ('' stands for it).
 */
const LIST_COLUMNS = `id, created_at, status, label, fingerprint, tool_version, model, endpoint_scheme, endpoint_host,
  endpoint_port, endpoint_path, embedded_model, dataset_id, dataset_revision, dataset_split, dataset_synthetic,
  case_count, filtered, '' AS config_json, CASE WHEN summary_json IS NULL THEN NULL ELSE '' END AS summary_json,
  accuracy, kl, brier, ece, mean_confidence, decisions_total, decisions_correct, errors, latency_p50_ms, duration_ms,
  (SELECT count(*) FROM cases WHERE cases.run_id = runs.id) AS saved_cases`;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

function wrapOpenError(path: string, err: unknown): DecidekitError {
  const message = messageOf(err);
  if ((err as { code?: unknown }).code === 'SQLITE_NOTADB') return notADatabaseError(path, err);
  if (isDamage(err)) return new StoreDamagedError(path, message, { cause: err });
  return new DecidekitError('store_unreadable', `cannot open run store: ${path} (${message})`, {
    context: { path },
    cause: err,
  });
}

/**
 * Opens (creating and migrating when needed) the SQLite run store at `path`. A database
 * written by a newer decidekit, or a SQLite file that is not a run store, is refused and
 * left unchanged.
 */
export function openRunStore(path: string, options: OpenRunStoreOptions = {}): RunStore {
  return openRunStoreConnection(path, options).store;
}

/**
 * `openRunStore`, with its connection, for reading the audit and probe tables of the same
 * file without opening it again (`store-overview.ts`). Closing the store closes it.
 */
export function openRunStoreConnection(
  path: string,
  options: OpenRunStoreOptions = {},
): { readonly store: RunStore; readonly db: Database.Database } {
  const readOnly = options.readOnly === true;
  const mustExist = options.mustExist === true || readOnly;
  refuseUnusableStoreLocation(path);
  if (mustExist && !existsSync(path)) {
    throw new DecidekitError(
      'store_missing',
      `no run store at ${path} (runs are saved there by 'decidekit bench'; pass --store PATH for another file)`,
      {
        context: { path },
      },
    );
  }
  if (readOnly && isEmptyFile(path)) {
    // SQLite reads an empty file as a database at version 0: no upgrade is needed, no run is there.
    throw new DecidekitError(
      'store_missing',
      `no run store at ${path} yet: the file is empty (runs are saved there by 'decidekit bench'; pass --store PATH for another file)`,
      { context: { path } },
    );
  }
  if (!mustExist) {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (err) {
      throw wrapOpenError(path, err);
    }
  }
  const onStatement = options.onStatement;
  const connect = (file: string, readonly = readOnly) =>
    new Database(file, {
      fileMustExist: mustExist,
      readonly,
      ...(onStatement === undefined ? {} : { verbose: (sql: unknown) => onStatement(String(sql)) }),
    });
  let db: Database.Database;
  let snapshotDir: string | null = null;
  try {
    db = connect(path);
    if (readOnly && !canReadInPlace(db)) {
      // A WAL database is read through its shared-memory file (-shm), which SQLite must be
      // able to create next to it; in a read-only folder it cannot. Read a copy instead.
      db.close();
      snapshotDir = makeCopyDir();
      db = connect(snapshotOf(path, snapshotDir));
    }
    if (readOnly && olderThanCurrent(db)) {
      // An older decidekit's store: reading it needs the migrations, which write. Read an
      // upgraded copy; the file itself is upgraded by the next command that writes to it.
      const copyDir = makeCopyDir();
      const copy = join(copyDir, 'runs.sqlite');
      try {
        // One consistent copy made by SQLite in a read transaction, whatever another process
        // writes meanwhile (copying the file and its log one after the other could mix two
        // moments).
        db.exec(`VACUUM INTO ${sqlString(copy)}`);
      } finally {
        db.close();
        if (snapshotDir !== null) dropCopyDir(snapshotDir);
        snapshotDir = copyDir;
      }
      db = connect(copy, false);
      refuseForeignOrNewerStore(db, path);
      migrate(db, path);
    }
  } catch (err) {
    if (snapshotDir !== null) dropCopyDir(snapshotDir);
    throw wrapOpenError(path, err);
  }
  const removeSnapshot = () => {
    if (snapshotDir !== null) dropCopyDir(snapshotDir);
  };
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
  try {
    // First: every later statement (even setting WAL) may meet another process's lock.
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    // A 2 MB page cache instead of better-sqlite3's 16 MB: a bench holds two connections (the
    // writer thread's and its own), and runs are written and read in order, which a bigger
    // cache does not speed up (BENCHMARKS.md, "Bench at scale").
    db.pragma(`cache_size = ${PAGE_CACHE_KIB}`);
    refuseForeignOrNewerStore(db, path);
    if (readOnly) {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version < READABLE_IN_PLACE_FROM) throw new StoreNeedsUpgradeError(path, version, SCHEMA_VERSION);
    } else {
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      migrate(db, path);
    }
    db.pragma('foreign_keys = ON');
    refuseMissingTables(db, path);
  } catch (err) {
    db.close();
    removeSnapshot();
    throw err instanceof DecidekitError ? err : wrapOpenError(path, err);
  }
  const store = new SqliteRunStore(
    db,
    path,
    options.randomBytes ?? ((n) => cryptoRandomBytes(n)),
    busyTimeoutMs,
    removeSnapshot,
    {
      everyCommit: options.synchronous === 'full',
      intervalMs: Math.max(0, options.syncIntervalMs ?? 2000),
      now: options.now ?? (() => performance.now()),
    },
  );
  return { store, db };
}

/**
 * A connection for the audit and probe tables of the store at `path`, opened, checked and
 * migrated as `openRunStore` opens it; every commit is synced unless `synchronous: 'normal'`.
 * `close` closes it (and drops a read-only snapshot).
 */
export function openStoreTables(
  path: string,
  options: OpenRunStoreOptions = {},
): { readonly db: Database.Database; close(): void } {
  const { store, db } = openRunStoreConnection(path, { ...options, synchronous: options.synchronous ?? 'full' });
  return { db, close: () => store.close() };
}

/** What the store's writer thread needs of a store: saving packed rows, and closing. */
export interface RowWriter {
  readonly path: string;
  /** `saveCases` of rows packed by `packCaseRows`: committed when it returns. */
  saveRows(runId: string, packed: PackedCaseRows, progress?: SaveProgress): void;
  close(): void;
}

/**
 * A stored run's cases as a source read in run order, one at a time, from a fresh read-only
 * connection each time it is iterated: a run of any size is never held whole, and it can be
 * read after the connection that wrote it closed. `length` is the number of saved cases.
 */
export function storedCases(path: string, runId: string, length: number): CaseSource {
  return {
    length,
    *[Symbol.iterator]() {
      const reader = openRunStore(path, { mustExist: true, readOnly: true });
      try {
        yield* reader.iterateCases(runId);
      } finally {
        reader.close();
      }
    },
  };
}

/** Opens an existing store to save packed rows into (the writer thread's connection). */
export function openRowWriter(path: string, options: OpenRunStoreOptions = {}): RowWriter {
  return openRunStore(path, { ...options, mustExist: true }) as SqliteRunStore;
}

/** An empty file with no write-ahead log beside it: what `touch` makes, no database yet. */
function isEmptyFile(path: string): boolean {
  try {
    return statSync(path).size === 0 && !existsSync(`${path}-wal`);
  } catch {
    return false;
  }
}

/**
 * The oldest schema version a read-only command reads in place: version 7 only added a
 * column that may be absent (a run's stored statistics, then read as none). Older stores
 * are read from an upgraded copy.
 */
const READABLE_IN_PLACE_FROM = 6;

/** True for a decidekit store too old to read in place (an unmarked file is not). */
function olderThanCurrent(db: Database.Database): boolean {
  const version = db.pragma('user_version', { simple: true }) as number;
  const appId = db.pragma('application_id', { simple: true }) as number;
  return appId === APPLICATION_ID && version > 0 && version < READABLE_IN_PLACE_FROM;
}

/** False when a read-only connection cannot read (a WAL file whose -shm cannot be created). */
function canReadInPlace(db: Database.Database): boolean {
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return true;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN')))
      return false;
    throw err;
  }
}

/** Copies the database and its write-ahead log (committed writes not yet in the file) into `dir`. */
function snapshotOf(path: string, dir: string): string {
  const copy = join(dir, 'runs.sqlite');
  copyFileSync(path, copy);
  if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
  return copy;
}

/** A store at the current version with a table missing was damaged (or edited by hand). */
function refuseMissingTables(db: Database.Database, path: string): void {
  const present = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
  );
  const missing = REQUIRED_TABLES.filter((t) => !present.has(t));
  if (missing.length > 0)
    throw new StoreDamagedError(path, `table${missing.length === 1 ? '' : 's'} ${missing.join(', ')} missing`);
}

/** Reads only: a refused file must stay byte-for-byte as it was. */
function refuseForeignOrNewerStore(db: Database.Database, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  const appId = db.pragma('application_id', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new DecidekitError(
      'store_too_new',
      `cannot open run store: ${path} has schema version ${version}, this decidekit reads up to ${SCHEMA_VERSION} (upgrade decidekit; the file was not changed)`,
      { context: { path, version, supported: SCHEMA_VERSION } },
    );
  }
  const objects = (db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number }).n;
  if (appId !== APPLICATION_ID && (appId !== 0 || objects > 0)) {
    throw new DecidekitError(
      'store_foreign',
      `cannot open run store: ${path} is a SQLite database but not a decidekit run store (the file was not changed; pass --store with another path)`,
      {
        context: { path },
      },
    );
  }
}

function migrate(db: Database.Database, path: string): void {
  const run = db.transaction(() => {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    const from = db.pragma('user_version', { simple: true }) as number;
    if (from > SCHEMA_VERSION)
      throw new DecidekitError(
        'store_too_new',
        `cannot open run store: ${path} was upgraded by a newer decidekit while opening`,
      );
    for (let v = from; v < SCHEMA_VERSION; v++) {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    }
    db.pragma(`application_id = ${APPLICATION_ID}`);
  });
  if ((db.pragma('user_version', { simple: true }) as number) < SCHEMA_VERSION) run.immediate();
}

/** Refuses an identity that could carry a secret; the message never repeats the value. */
function refuseMalformedEndpoint(config: RunConfig): void {
  const { host, path, scheme, port } = config.endpoint;
  const problems: string[] = [];
  if (!/^[a-z][a-z0-9+.-]*$/.test(scheme)) problems.push('scheme is not a URL scheme');
  if (host === '' || /[@/?#\s]/.test(host)) problems.push('host carries more than a host name');
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push('port is not a port number');
  if (!path.startsWith('/') || /[?#\s]/.test(path)) problems.push('path carries a query, fragment or whitespace');
  if (problems.length > 0) {
    throw new DecidekitError(
      'invalid_run',
      `cannot store run: endpoint identity ${problems.join('; ')} (store only scheme, host, port and path)`,
    );
  }
}

function headlineOf(row: RunRow): RunHeadline | null {
  if (row.summary_json === null || row.decisions_total === null) return null;
  return {
    accuracy: row.accuracy,
    kl: row.kl,
    brier: row.brier,
    ece: row.ece,
    meanConfidence: row.mean_confidence,
    total: row.decisions_total,
    correct: row.decisions_correct ?? 0,
    errors: row.errors ?? 0,
    latencyP50Ms: row.latency_p50_ms,
  };
}

function headOf(row: RunRow, answeredModels: readonly string[] | null): StoredRunHead {
  return {
    id: row.id,
    createdAt: row.created_at,
    status: row.status,
    label: row.label,
    fingerprint: row.fingerprint,
    toolVersion: row.tool_version,
    model: row.model,
    endpoint: {
      scheme: row.endpoint_scheme,
      host: row.endpoint_host,
      port: row.endpoint_port,
      path: row.endpoint_path,
    },
    embeddedServer: row.embedded_model === null ? null : { model: row.embedded_model },
    dataset: {
      id: row.dataset_id,
      revision: row.dataset_revision,
      split: row.dataset_split,
      synthetic: row.dataset_synthetic === 1,
    },
    caseCount: row.case_count,
    savedCases: row.saved_cases,
    filtered: row.filtered === 1,
    durationMs: row.duration_ms,
    headline: headlineOf(row),
    answeredModels,
  };
}

function summaryColumns(summary: BenchSummary | null) {
  return {
    summary_json: summary === null ? null : JSON.stringify(summary),
    accuracy: summary?.accuracy ?? null,
    kl: summary?.kl ?? null,
    brier: summary?.brier ?? null,
    ece: summary?.ece ?? null,
    mean_confidence: summary?.meanConfidence ?? null,
    decisions_total: summary?.total ?? null,
    decisions_correct: summary?.correct ?? null,
    errors: summary?.errors ?? null,
    latency_p50_ms: summary?.latencyMs.p50 ?? null,
  };
}

function parseStoredJson<T>(
  text: unknown,
  what: string,
  runId: string,
  path: string,
  isValid: (v: unknown) => boolean = () => true,
): T {
  let value: unknown;
  try {
    value = JSON.parse(String(text));
  } catch (err) {
    throw new StoreDamagedError(path, `run ${runId}: its ${what} is not valid JSON`, { runId, cause: err });
  }
  if (!isValid(value)) throw new StoreDamagedError(path, `run ${runId}: its ${what} has the wrong shape`, { runId });
  return value as T;
}

const isNumberArray = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'number');
const isStringArray = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
const isConfig = (v: unknown): boolean =>
  isObject(v) && isStringArray((v as { caseIds?: unknown }).caseIds) && isObject((v as { dataset?: unknown }).dataset);
const STATUSES: ReadonlySet<string> = new Set(['running', 'complete', 'incomplete', 'interrupted']);

function prepareStatements(db: Database.Database) {
  // A version 6 store read in place (read-only) has no statistics column: none kept, then.
  const statisticsColumn =
    (
      db.prepare("SELECT count(*) AS n FROM pragma_table_info('runs') WHERE name = 'statistics_json'").get() as {
        n: number;
      }
    ).n > 0;
  return {
    head: db.prepare(`SELECT ${HEAD_COLUMNS} FROM runs WHERE id = ?`),
    status: db.prepare('SELECT status, duration_ms FROM runs WHERE id = ?'),
    position: db.prepare('SELECT position FROM run_cases WHERE run_id = ? AND case_id = ?'),
    insertPosition: db.prepare('INSERT INTO run_cases (run_id, case_id, position) VALUES (?, ?, ?)'),
    duration: db.prepare('UPDATE runs SET duration_ms = ? WHERE id = ?'),
    deleteRun: db.prepare('DELETE FROM runs WHERE id = ?'),
    outsideCaseSet: db.prepare(
      'SELECT case_id FROM cases WHERE run_id = @id AND case_id NOT IN (SELECT case_id FROM run_cases WHERE run_id = @id) LIMIT 6',
    ),
    plannedCount: db.prepare('SELECT count(*) AS n FROM run_cases WHERE run_id = ?'),
    allIds: db.prepare('SELECT id FROM runs ORDER BY created_ms, id'),
    statusCounts: db.prepare('SELECT status, COUNT(*) AS n FROM runs GROUP BY status'),
    insertRun:
      db.prepare(`INSERT INTO runs (id, created_at, created_ms, status, label, fingerprint, tool_version, model,
        endpoint_scheme, endpoint_host, endpoint_port, endpoint_path, embedded_model, dataset_id, dataset_revision,
        dataset_split, dataset_synthetic, case_count, filtered, config_json)
      VALUES (@id, @created_at, @created_ms, 'running', @label, @fingerprint, @tool_version, @model,
        @endpoint_scheme, @endpoint_host, @endpoint_port, @endpoint_path, @embedded_model, @dataset_id, @dataset_revision,
        @dataset_split, @dataset_synthetic, @case_count, @filtered, @config_json)`),
    deleteDecisions: db.prepare('DELETE FROM decisions WHERE run_id = ? AND case_id = ?'),
    deleteCase: db.prepare('DELETE FROM cases WHERE run_id = ? AND case_id = ?'),
    insertCase:
      db.prepare(`INSERT INTO cases (run_id, case_id, position, workflow, request_status, latency_ms, input_tokens, error_kind, error_message, answered_model, digest)
      VALUES (@run_id, @case_id, @position, @workflow, @request_status, @latency_ms, @input_tokens, @error_kind, @error_message, @answered_model, @digest)`),
    // The usual save in one statement: the position comes from the run's case set, and a
    // case saved before (or not in the set) inserts nothing and takes the slow path.
    insertNewCase:
      db.prepare(`INSERT OR IGNORE INTO cases (run_id, case_id, position, workflow, request_status, latency_ms, input_tokens, error_kind, error_message, answered_model, digest)
      SELECT @run_id, @case_id, position, @workflow, @request_status, @latency_ms, @input_tokens, @error_kind, @error_message, @answered_model, @digest
      FROM run_cases WHERE run_id = @run_id AND case_id = @case_id`),
    digestCases: db.prepare(
      `SELECT ${CASE_DIGEST_COLUMNS.join(', ')}, digest FROM cases WHERE run_id = ? AND digest IS NOT NULL ORDER BY position`,
    ),
    digestDecisions: db.prepare(
      `SELECT ${DECISION_DIGEST_COLUMNS.join(', ')} FROM decisions WHERE run_id = ? AND case_id = ? ORDER BY position`,
    ),
    insertDecision:
      db.prepare(`INSERT INTO decisions (run_id, case_id, position, question_id, type, answers_json, gold_label,
        gold_probabilities_json, status, predicted, correct, confidence, kl, brier, probabilities_json, error_kind, error_message)
      VALUES (@run_id, @case_id, @position, @question_id, @type, @answers_json, @gold_label,
        @gold_probabilities_json, @status, @predicted, @correct, @confidence, @kl, @brier, @probabilities_json, @error_kind, @error_message)`),
    finish: db.prepare(`UPDATE runs SET status = @status, duration_ms = @duration_ms, summary_json = @summary_json,
        accuracy = @accuracy, kl = @kl, brier = @brier, ece = @ece, mean_confidence = @mean_confidence,
        decisions_total = @decisions_total, decisions_correct = @decisions_correct, errors = @errors,
        latency_p50_ms = @latency_p50_ms${statisticsColumn ? ', statistics_json = NULL' : ''}
      WHERE id = @id`),
    saveStatistics: statisticsColumn
      ? db.prepare('UPDATE runs SET statistics_json = ? WHERE id = ? AND summary_json IS NOT NULL')
      : null,
    statistics: db.prepare(
      `SELECT ${statisticsColumn ? 'statistics_json' : 'NULL AS statistics_json'} FROM runs WHERE id = ?`,
    ),
    cases: db.prepare(
      'SELECT case_id, workflow, request_status, latency_ms, input_tokens, error_kind, error_message, answered_model FROM cases WHERE run_id = ? ORDER BY position',
    ),
    decisions:
      db.prepare(`SELECT d.case_id, d.question_id, d.type, d.answers_json, d.gold_label, d.gold_probabilities_json, d.status,
        d.predicted, d.correct, d.confidence, d.kl, d.brier, d.probabilities_json, d.error_kind, d.error_message
      FROM decisions d JOIN cases c ON c.run_id = d.run_id AND c.case_id = d.case_id
      WHERE d.run_id = ? ORDER BY c.position, d.position`),
    caseDecisions:
      db.prepare(`SELECT case_id, question_id, type, answers_json, gold_label, gold_probabilities_json, status,
        predicted, correct, confidence, kl, brier, probabilities_json, error_kind, error_message
      FROM decisions WHERE run_id = ? AND case_id = ? ORDER BY position`),
    savedIds: db.prepare('SELECT case_id, request_status FROM cases WHERE run_id = ?'),
    answeredModels: db.prepare(
      'SELECT DISTINCT answered_model FROM cases WHERE run_id = ? AND answered_model IS NOT NULL ORDER BY answered_model',
    ),
    list: db.prepare(`SELECT ${LIST_COLUMNS} FROM runs ORDER BY created_ms DESC, id DESC LIMIT ?`),
    exactId: db.prepare('SELECT id FROM runs WHERE id = ?'),
    prefixIds: db.prepare('SELECT id FROM runs WHERE substr(id, 1, length(@p)) = @p ORDER BY id LIMIT 6'),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

class SqliteRunStore implements RunStore {
  private readonly statements: Statements;

  constructor(
    private readonly db: Database.Database,
    readonly path: string,
    private readonly randomBytes: (n: number) => Uint8Array,
    private readonly busyTimeoutMs: number,
    private readonly onClose: () => void = () => {},
    private readonly sync: { everyCommit: boolean; intervalMs: number; now: () => number } = {
      everyCommit: true,
      intervalMs: 0,
      now: () => 0,
    },
  ) {
    this.statements = prepareStatements(db);
    this.lastSyncMs = sync.now();
  }

  private lastSyncMs: number;

  /**
   * Runs a write transaction; with `durable` (or when the sync interval has passed) its
   * commit syncs the write-ahead log, and with it every earlier commit, to disk.
   */
  private committing<T>(write: () => T, durable: boolean): T {
    const now = this.sync.now();
    if (this.sync.everyCommit || (!durable && now - this.lastSyncMs < this.sync.intervalMs)) return write();
    this.db.pragma('synchronous = FULL');
    try {
      const result = write();
      this.lastSyncMs = now;
      return result;
    } finally {
      this.db.pragma('synchronous = NORMAL');
    }
  }

  /** Runs a write; whatever keeps it from the store becomes a `StoreWriteError` (or damage). */
  private writing<T>(runId: string | null, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof DecidekitError) throw err;
      if (isDamage(err))
        throw new StoreDamagedError(this.path, messageOf(err), { ...(runId ? { runId } : {}), cause: err });
      throw new StoreWriteError(this.path, runId, this.writeFailure(err), err);
    }
  }

  private writeFailure(err: unknown): string {
    const code = (err as { code?: unknown }).code;
    if (
      code === 'SQLITE_BUSY' ||
      code === 'SQLITE_LOCKED' ||
      (typeof code === 'string' && code.startsWith('SQLITE_BUSY'))
    )
      return `another process kept it locked for more than ${this.busyTimeoutMs / 1000} s (${messageOf(err)})`;
    if (typeof code === 'string' && code.startsWith('SQLITE_READONLY'))
      return 'the file or its folder is read-only (or it was opened for reading only)';
    if (code === 'SQLITE_FULL') return 'the disk is full';
    if (typeof code === 'string' && code.startsWith('SQLITE_IOERR'))
      return `the disk refused a write (${messageOf(err)}: the disk may be full, or the file over a size limit)`;
    return messageOf(err);
  }

  /** Runs a read; a SQLite failure names the store, damage says so. */
  private reading<T>(fn: () => T, runId?: string): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof DecidekitError) throw err;
      if (isDamage(err))
        throw new StoreDamagedError(this.path, messageOf(err), { ...(runId ? { runId } : {}), cause: err });
      if (!(err instanceof Database.SqliteError)) throw err;
      throw new DecidekitError('store_unreadable', `cannot read run store ${this.path} (${messageOf(err)})`, {
        context: { path: this.path },
        cause: err,
      });
    }
  }

  createRun(input: {
    readonly config: RunConfig;
    readonly label: string | null;
    readonly createdAt: string;
  }): StoredRunHead {
    const { config } = input;
    refuseMalformedEndpoint(config);
    const seen = new Set<string>();
    for (const id of config.caseIds) {
      if (seen.has(id))
        throw new DecidekitError(
          'invalid_run',
          `cannot store run: case ${JSON.stringify(id)} appears twice in the case set`,
        );
      seen.add(id);
    }
    const createdMs = Date.parse(input.createdAt);
    const row = {
      created_at: input.createdAt,
      created_ms: createdMs,
      label: input.label,
      fingerprint: fingerprintOf(config),
      tool_version: config.toolVersion,
      model: config.model,
      endpoint_scheme: config.endpoint.scheme,
      endpoint_host: config.endpoint.host,
      endpoint_port: config.endpoint.port,
      endpoint_path: config.endpoint.path,
      embedded_model: config.embeddedServer?.model ?? null,
      dataset_id: config.dataset.id,
      dataset_revision: config.dataset.revision,
      dataset_split: config.dataset.split,
      dataset_synthetic: config.dataset.synthetic ? 1 : 0,
      case_count: config.caseIds.length,
      filtered: isFiltered(config) ? 1 : 0,
      config_json: JSON.stringify(config),
    };
    const insert = this.db.transaction((id: string) => {
      this.statements.insertRun.run({ id, ...row });
      config.caseIds.forEach((caseId, position) => this.statements.insertPosition.run(id, caseId, position));
    });
    return this.writing(null, () => {
      for (let attempt = 0; ; attempt++) {
        const id = createRunId(input.createdAt, this.randomBytes(2));
        try {
          insert.immediate(id);
          return this.getHead(id)!;
        } catch (err) {
          // Two runs started in the same second drew the same suffix: draw again.
          if (attempt < 8 && err instanceof Database.SqliteError && err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
            continue;
          throw err;
        }
      }
    });
  }

  saveCases(runId: string, results: readonly CaseResult[], progress: SaveProgress = {}): void {
    this.saveRows(runId, packCaseRows(results), progress);
  }

  /** `saveCases` of rows packed by `packCaseRows` (what the writer thread receives). */
  saveRows(runId: string, packed: PackedCaseRows, progress: SaveProgress = {}): void {
    const write = this.db.transaction(() => {
      const row = this.statements.status.get(runId) as { status: StoredStatus; duration_ms: number | null } | undefined;
      if (!row) throw this.unknown(runId);
      const cases = unpackCaseRows(runId, packed);
      // A stored run that gets new cases (resume, retry) is running again: its old summary goes.
      if (row.status !== 'running' && cases.length > 0) this.writeSummary(runId, 'running', row.duration_ms, null);
      for (const rows of cases) this.insertCase(runId, rows);
      if (progress.durationMs !== undefined) this.statements.duration.run(progress.durationMs, runId);
    });
    // IMMEDIATE takes the write lock before the first read: a deferred transaction that
    // read first cannot be upgraded once another process has written (WAL), and fails at
    // once with "database is locked" instead of waiting out the busy timeout.
    this.writing(runId, () => this.committing(() => write.immediate(), false));
  }

  saveCase(runId: string, result: CaseResult): void {
    this.saveCases(runId, [result]);
  }

  private insertCase(runId: string, { caseRow, decisionRows }: CaseRows): void {
    const s = this.statements;
    const row = { ...caseRow, digest: caseDigest(caseRow, decisionRows) };
    if (s.insertNewCase.run(row).changes === 0) {
      // Saved before (a retry replaces it), or not in the run's case set.
      const found = s.position.get(runId, caseRow.case_id) as { position: number } | undefined;
      if (found === undefined) {
        throw new DecidekitError(
          'invalid_run',
          `cannot save case ${JSON.stringify(caseRow.case_id)}: it is not in the case set of run ${runId}`,
        );
      }
      s.deleteDecisions.run(runId, caseRow.case_id);
      s.deleteCase.run(runId, caseRow.case_id);
      s.insertCase.run({ ...row, position: found.position });
    }
    for (const d of decisionRows) s.insertDecision.run(d);
  }

  finishRun(runId: string, input: FinishRunInput): void {
    if (input.summary.status !== input.status) {
      throw new DecidekitError(
        'invalid_run',
        `cannot finish run ${runId}: status ${input.status} but its summary says ${input.summary.status}`,
      );
    }
    this.writing(runId, () =>
      this.committing(() => this.writeSummary(runId, input.status, input.durationMs, input.summary), true),
    );
  }

  private writeSummary(
    runId: string,
    status: StoredStatus,
    durationMs: number | null,
    summary: BenchSummary | null,
  ): void {
    const info = this.statements.finish.run({ id: runId, status, duration_ms: durationMs, ...summaryColumns(summary) });
    if (info.changes === 0) throw this.unknown(runId);
  }

  deleteRun(runId: string): boolean {
    // Cases, decisions and positions go with it (ON DELETE CASCADE, foreign keys on).
    return this.writing(runId, () => this.statements.deleteRun.run(runId).changes > 0);
  }

  markInterrupted(runId: string): void {
    const update = this.db.transaction(() => {
      const row = this.statements.head.get(runId) as RunRow | undefined;
      if (!row) throw this.unknown(runId);
      if (this.statusOf(row) !== 'running') return;
      const config = parseStoredJson<RunConfig>(row.config_json, 'configuration', runId, this.path, isConfig);
      // Summarized case by case: a killed run of any size is marked without loading it whole.
      const summary = summarizeRun(config, this.iterateCases(runId), { interrupted: true });
      this.writeSummary(runId, 'interrupted', row.duration_ms, summary);
    });
    this.writing(runId, () => this.committing(() => update.immediate(), true));
  }

  reopenRun(runId: string): void {
    this.writing(runId, () => {
      const head = this.getHead(runId);
      if (!head) throw this.unknown(runId);
      this.writeSummary(runId, 'running', head.durationMs, null);
    });
  }

  getHead(id: string): StoredRunHead | null {
    return this.reading(() => {
      const row = this.statements.head.get(id) as RunRow | undefined;
      return row ? this.headOf(row) : null;
    }, id);
  }

  private headOf(row: RunRow): StoredRunHead {
    this.statusOf(row);
    // Only a run that asked for no model needs its answers' models to say which one it got.
    const asked = row.model !== null || row.embedded_model !== null;
    const answered = asked
      ? null
      : (this.statements.answeredModels.all(row.id) as { answered_model: string }[]).map((r) => r.answered_model);
    return headOf(row, answered);
  }

  private statusOf(row: RunRow): StoredStatus {
    if (!STATUSES.has(row.status))
      throw new StoreDamagedError(this.path, `run ${row.id}: unknown status ${JSON.stringify(row.status)}`, {
        runId: row.id,
      });
    return row.status;
  }

  getRun(id: string): BenchRun | null {
    const read = this.db.transaction((): BenchRun | null => {
      let cases: CaseResult[] | null = null;
      const info = this.runInfoOf(id, (config) => {
        cases = this.readCases(id);
        return summarizeRun(config, cases);
      });
      if (info === null) return null;
      return { ...info, cases: cases ?? this.readCases(id) };
    });
    // One read transaction: cases and summary come from the same snapshot.
    return this.reading(() => read.deferred(), id);
  }

  getRunInfo(id: string): StoredRunInfo | null {
    const read = this.db.transaction(() =>
      // A run still `running` has no stored summary: one is computed case by case.
      this.runInfoOf(id, (config) => summarizeRun(config, this.iterateCases(id))),
    );
    return this.reading(() => read.deferred(), id);
  }

  getRunInfoWithStatistics(
    id: string,
  ): { readonly info: StoredRunInfo; readonly statistics: RunStatistics | null } | null {
    const read = this.db.transaction(() => {
      const info = this.runInfoOf(id, (config) => summarizeRun(config, this.iterateCases(id)));
      return info === null ? null : { info, statistics: this.getStatistics(id) };
    });
    return this.reading(() => read.deferred(), id);
  }

  saveStatistics(id: string, statistics: RunStatistics): void {
    this.writing(id, () =>
      this.committing(() => {
        // A run without a stored summary (still running) keeps none.
        this.statements.saveStatistics?.run(JSON.stringify(statistics), id);
      }, true),
    );
  }

  getStatistics(id: string): RunStatistics | null {
    const row = this.reading(() => this.statements.statistics.get(id), id) as
      { statistics_json: string | null } | undefined;
    if (row === undefined) throw this.unknown(id);
    return row.statistics_json === null
      ? null
      : parseStoredJson<RunStatistics>(row.statistics_json, 'statistics', id, this.path, isObject);
  }

  /** The run without its cases; `summarizeSaved` gives the summary of a run that has none stored. */
  private runInfoOf(id: string, summarizeSaved: (config: RunConfig) => BenchSummary): StoredRunInfo | null {
    const row = this.statements.head.get(id) as RunRow | undefined;
    if (!row) return null;
    this.statusOf(row);
    const config = parseStoredJson<RunConfig>(row.config_json, 'configuration', id, this.path, isConfig);
    const summary =
      row.summary_json === null
        ? summarizeSaved(config)
        : parseStoredJson<BenchSummary>(row.summary_json, 'summary', id, this.path, isObject);
    return {
      id: row.id,
      createdAt: row.created_at,
      durationMs: row.duration_ms,
      label: row.label,
      fingerprint: row.fingerprint,
      config,
      summary,
    };
  }

  private damaged(runId: string, detail: string): StoreDamagedError {
    return new StoreDamagedError(this.path, `run ${runId}: ${detail}`, { runId });
  }

  private readCases(runId: string): CaseResult[] {
    const caseRows = this.statements.cases.all(runId) as CaseRow[];
    const decisionRows = this.statements.decisions.all(runId) as DecisionRow[];
    const byCase = new Map<string, Decision[]>();
    for (const d of decisionRows) {
      let list = byCase.get(d.case_id);
      if (!list) byCase.set(d.case_id, (list = []));
      list.push(this.decisionOf(runId, d));
    }
    return caseRows.map((c) => this.caseOf(runId, c, byCase.get(c.case_id) ?? []));
  }

  *iterateCases(runId: string): Generator<CaseResult> {
    if (this.reading(() => this.statements.exactId.get(runId), runId) === undefined) throw this.unknown(runId);
    // One read transaction, so every page comes from the same snapshot; the cases stream
    // from SQLite's sorter and each case's decisions are one primary-key range.
    const own = !this.db.inTransaction;
    if (own) this.db.exec('BEGIN');
    let rows: IterableIterator<CaseRow> | null = null;
    try {
      const open = this.reading(() => this.statements.cases.iterate(runId) as IterableIterator<CaseRow>, runId);
      rows = open;
      for (;;) {
        const next = this.reading(() => open.next(), runId);
        if (next.done === true) break;
        const c = next.value;
        const decisions = this.reading(
          () =>
            (this.statements.caseDecisions.all(runId, c.case_id) as DecisionRow[]).map((d) =>
              this.decisionOf(runId, d),
            ),
          runId,
        );
        yield this.caseOf(runId, c, decisions);
      }
    } finally {
      // An iteration stopped early must release its statement before the connection is used again.
      rows?.return?.();
      if (own && this.db.inTransaction) this.db.exec('COMMIT');
    }
  }

  private caseOf(runId: string, c: CaseRow, decisions: Decision[]): CaseResult {
    let request: RequestOutcome;
    if (c.request_status === 'answered') {
      if (typeof c.latency_ms !== 'number') throw this.damaged(runId, `case ${c.case_id} has no latency`);
      request = {
        status: 'answered',
        latencyMs: c.latency_ms,
        inputTokens: c.input_tokens,
        ...(c.answered_model ? { model: c.answered_model } : {}),
      };
    } else if (c.request_status === 'failed') {
      if (!FAILURE_KINDS.includes(c.error_kind as FailureKind))
        throw this.damaged(runId, `case ${c.case_id} has an unknown failure kind ${JSON.stringify(c.error_kind)}`);
      request = {
        status: 'failed',
        failure: { kind: c.error_kind as FailureKind, message: c.error_message ?? '' },
        latencyMs: c.latency_ms,
      };
    } else {
      throw this.damaged(runId, `case ${c.case_id} has an unknown status ${JSON.stringify(c.request_status)}`);
    }
    return { caseId: c.case_id, workflow: c.workflow, request, decisions };
  }

  private decisionOf(runId: string, d: DecisionRow): Decision {
    const json = <T>(text: unknown, what: string, isValid: (v: unknown) => boolean) =>
      parseStoredJson<T>(text, `${what} of case ${d.case_id}`, runId, this.path, isValid);
    let outcome: DecisionOutcome;
    if (d.status === 'answered') {
      const numbers = [d.confidence, d.kl, d.brier];
      if (
        typeof d.predicted !== 'string' ||
        numbers.some((n) => typeof n !== 'number') ||
        (d.correct !== 0 && d.correct !== 1)
      )
        throw this.damaged(runId, `case ${d.case_id} question ${d.question_id}: an answered decision lacks its scores`);
      outcome = {
        status: 'answered',
        probabilities: json<number[]>(d.probabilities_json, 'predicted distribution', isNumberArray),
        predicted: d.predicted,
        confidence: d.confidence!,
        correct: d.correct === 1,
        kl: d.kl!,
        brier: d.brier!,
      };
    } else if (d.status === 'failed') {
      if (!FAILURE_KINDS.includes(d.error_kind as FailureKind))
        throw this.damaged(runId, `case ${d.case_id} question ${d.question_id}: unknown failure kind`);
      outcome = { status: 'failed', failure: { kind: d.error_kind as FailureKind, message: d.error_message ?? '' } };
    } else {
      throw this.damaged(runId, `case ${d.case_id} question ${d.question_id}: unknown status`);
    }
    return {
      questionId: d.question_id,
      type: d.type,
      answers: json<string[]>(d.answers_json, 'answers', isStringArray),
      gold: {
        label: d.gold_label,
        probabilities: json<number[]>(d.gold_probabilities_json, 'gold distribution', isNumberArray),
      },
      outcome,
    };
  }

  savedCaseIds(runId: string, options: { readonly includeFailed?: boolean } = {}): Set<string> {
    const { answered, failed } = this.savedCasesByOutcome(runId);
    if (options.includeFailed === true) for (const id of failed) answered.add(id);
    return answered;
  }

  savedCasesByOutcome(runId: string): { readonly answered: Set<string>; readonly failed: Set<string> } {
    return this.reading(() => {
      if (this.statements.exactId.get(runId) === undefined) throw this.unknown(runId);
      const answered = new Set<string>();
      const failed = new Set<string>();
      for (const r of this.statements.savedIds.all(runId) as { case_id: string; request_status: string }[])
        (r.request_status === 'answered' ? answered : failed).add(r.case_id);
      return { answered, failed };
    }, runId);
  }

  listRuns(options: { readonly limit?: number } = {}): StoredRunHead[] {
    const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit));
    return this.reading(() => (this.statements.list.all(limit) as RunRow[]).map((r) => this.headOf(r)));
  }

  countRuns(): Readonly<Record<StoredStatus, number>> {
    const counts: Record<StoredStatus, number> = { running: 0, complete: 0, incomplete: 0, interrupted: 0 };
    for (const { status, n } of this.reading(
      () => this.statements.statusCounts.all() as { status: string; n: number }[],
    ))
      if (STATUSES.has(status)) counts[status as StoredStatus] += n;
    return counts;
  }

  checkRun(id: string): RunCheck {
    // One read transaction: a bench writing the run meanwhile is not seen half way (its
    // summary from one moment and its cases from another would look like damage).
    return this.reading(() => this.db.transaction(() => this.checkRunNow(id)).deferred(), id);
  }

  private checkRunNow(id: string): RunCheck {
    const row = this.statements.head.get(id) as RunRow | undefined;
    if (!row) throw this.unknown(id);
    const base = { id, status: STATUSES.has(row.status) ? row.status : null, savedCases: row.saved_cases };
    let problems: string[];
    let configured: number;
    try {
      // The cases are read as they are checked (twice: their records, then the summary).
      const info = this.getRunInfo(id)!;
      configured = info.config.caseIds.length;
      const cases = { length: row.saved_cases, [Symbol.iterator]: () => this.iterateCases(id) };
      problems = checkRunRecords(
        { ...info, cases },
        {
          status: row.status,
          summaryStored: row.summary_json !== null,
          headline: headlineOf(row),
          caseCount: row.case_count,
        },
      );
    } catch (err) {
      if (err instanceof StoreDamagedError) return { ...base, problems: [err.detail] };
      throw err;
    }
    problems.push(...this.changedCases(id));
    const outside = (this.statements.outsideCaseSet.all({ id }) as { case_id: string }[]).map((r) => r.case_id);
    if (outside.length > 0) problems.push(`saved cases outside the run's case set: ${outside.join(', ')}`);
    const planned = (this.statements.plannedCount.get(id) as { n: number }).n;
    if (planned !== configured)
      problems.push(`${planned} case positions stored for ${configured} cases in the configuration`);
    return { ...base, problems };
  }

  /** Cases whose rows no longer match the digest written with them. */
  private changedCases(id: string): string[] {
    // Case by case, so a run of any size is checked without holding its rows.
    const changed: string[] = [];
    for (const c of this.statements.digestCases.iterate(id) as Iterable<Record<string, unknown>>) {
      const decisions = this.statements.digestDecisions.all(id, c['case_id']) as Record<string, unknown>[];
      if (caseDigest(c, decisions) !== c['digest']) changed.push(String(c['case_id']));
    }
    return changed.length === 0
      ? []
      : [
          `${changed.length} case${changed.length === 1 ? '' : 's'} changed since saved (their stored rows no longer match their digest): ${changed.slice(0, 10).join(', ')}${changed.length > 10 ? ` and ${changed.length - 10} more` : ''}`,
        ];
  }

  checkStore(options: { readonly runIds?: readonly string[] } = {}): StoreCheck {
    return this.reading(() => {
      const integrity = (this.db.pragma('quick_check') as { quick_check: string }[])
        .map((r) => r.quick_check)
        .filter((line) => line !== 'ok');
      const ids = options.runIds ?? (this.statements.allIds.all() as { id: string }[]).map((r) => r.id);
      return { path: this.path, integrity, runs: ids.map((id) => this.checkRun(id)) };
    });
  }

  resolveId(prefix: string, askedBy?: AskedBy): string {
    const p = prefix.trim();
    if (p === '')
      throw new UnknownRunError(
        `unknown run: an empty run id was given (see: decidekit runs list --store ${shellWord(this.path)})`,
        { path: this.path },
      );
    if (this.reading(() => this.statements.exactId.get(p)) !== undefined) return p;
    const ids = this.reading(() => this.statements.prefixIds.all({ p }) as { id: string }[]).map((r) => r.id);
    if (ids.length === 1) return ids[0]!;
    if (ids.length === 0) {
      this.reading(() => refuseIdOfOtherKind(this.db, this.path, p, 'run', askedBy));
      throw new UnknownRunError(
        `unknown run: no stored run id starts with ${JSON.stringify(p)} in ${this.path} (see 'decidekit runs list')`,
        { path: this.path, id: p },
      );
    }
    const shown = ids.slice(0, 5).join(', ');
    throw new DecidekitError(
      'ambiguous_run',
      `ambiguous run id: ${JSON.stringify(p)} matches ${ids.length > 5 ? 'more than 5 runs' : `${ids.length} runs`} (${shown}${ids.length > 5 ? ', ...' : ''}); give more characters`,
      {
        context: { path: this.path, id: p },
      },
    );
  }

  close(): void {
    this.db.close();
    this.onClose();
  }

  private unknown(runId: string): UnknownRunError {
    return new UnknownRunError(`unknown run: ${JSON.stringify(runId)} is not in ${this.path}`, {
      path: this.path,
      id: runId,
    });
  }
}
