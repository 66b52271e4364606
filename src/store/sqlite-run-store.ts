import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { isFiltered, type BenchRun, type RunConfig } from '../core/bench/run.js';
import type { CaseResult, Decision, DecisionOutcome, FailureKind, RequestOutcome } from '../core/bench/case-result.js';
import type { BenchSummary } from '../core/bench/summary.js';
import { DecidekitError } from '../core/errors.js';
import type { QuestionType } from '../core/question.js';
import { fingerprintOf } from './fingerprint.js';
import { createRunId } from './run-id.js';
import type { FinishRunInput, RunHeadline, RunStore, StoredRunHead, StoredRunStatus } from './run-store.js';
import { summarizeRun } from './run-summary.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './store-schema.js';

export interface OpenRunStoreOptions {
  /** Refuse to create a new database when the file is missing (read-only commands). Default false. */
  readonly mustExist?: boolean;
  /**
   * `full` (default) fsyncs the write-ahead log at every commit, so a saved case survives
   * power loss as well as a killed process. `normal` survives a killed process only; it
   * exists to measure what `full` costs.
   */
  readonly synchronous?: 'full' | 'normal';
  /** How long to wait for another process's write lock. Default 5000. */
  readonly busyTimeoutMs?: number;
  /** Source of the random part of run ids. Default: node:crypto. */
  readonly randomBytes?: (n: number) => Uint8Array;
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
  status: StoredRunStatus;
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

function wrapOpenError(path: string, err: unknown): DecidekitError {
  const message = err instanceof Error ? err.message : String(err);
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
  if (options.mustExist === true && !existsSync(path)) {
    throw new DecidekitError(
      'store_missing',
      `no run store at ${path} (runs are saved there by 'decidekit bench'; pass --store PATH for another file)`,
      {
        context: { path },
      },
    );
  }
  if (options.mustExist !== true) {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (err) {
      throw wrapOpenError(path, err);
    }
  }
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: options.mustExist === true });
  } catch (err) {
    throw wrapOpenError(path, err);
  }
  try {
    checkCompatible(db, path);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    migrate(db, path);
  } catch (err) {
    db.close();
    throw err instanceof DecidekitError ? err : wrapOpenError(path, err);
  }
  return new SqliteRunStore(db, path, options.randomBytes ?? ((n) => cryptoRandomBytes(n)));
}

/** Reads only: a refused file must stay byte-for-byte as it was. */
function checkCompatible(db: Database.Database, path: string): void {
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
function checkEndpointIdentity(config: RunConfig): void {
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

function headOf(row: RunRow): StoredRunHead {
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

function parseStoredJson<T>(text: string, what: string, runId: string, path: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new DecidekitError(
      'store_corrupt',
      `cannot read run ${runId}: its ${what} in ${path} is not valid JSON (the file was edited or damaged)`,
      {
        context: { path, runId },
        cause: err,
      },
    );
  }
}

function prepareStatements(db: Database.Database) {
  return {
    head: db.prepare(`SELECT ${HEAD_COLUMNS} FROM runs WHERE id = ?`),
    status: db.prepare('SELECT status, config_json FROM runs WHERE id = ?'),
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
      db.prepare(`INSERT INTO cases (run_id, case_id, position, workflow, request_status, latency_ms, input_tokens, error_kind, error_message)
      VALUES (@run_id, @case_id, @position, @workflow, @request_status, @latency_ms, @input_tokens, @error_kind, @error_message)`),
    insertDecision:
      db.prepare(`INSERT INTO decisions (run_id, case_id, position, question_id, type, answers_json, gold_label,
        gold_probabilities_json, status, predicted, correct, confidence, kl, brier, probabilities_json, error_kind, error_message)
      VALUES (@run_id, @case_id, @position, @question_id, @type, @answers_json, @gold_label,
        @gold_probabilities_json, @status, @predicted, @correct, @confidence, @kl, @brier, @probabilities_json, @error_kind, @error_message)`),
    finish: db.prepare(`UPDATE runs SET status = @status, duration_ms = @duration_ms, summary_json = @summary_json,
        accuracy = @accuracy, kl = @kl, brier = @brier, ece = @ece, mean_confidence = @mean_confidence,
        decisions_total = @decisions_total, decisions_correct = @decisions_correct, errors = @errors,
        latency_p50_ms = @latency_p50_ms
      WHERE id = @id`),
    cases: db.prepare(
      'SELECT case_id, workflow, request_status, latency_ms, input_tokens, error_kind, error_message FROM cases WHERE run_id = ? ORDER BY position',
    ),
    decisions:
      db.prepare(`SELECT d.case_id, d.question_id, d.type, d.answers_json, d.gold_label, d.gold_probabilities_json, d.status,
        d.predicted, d.correct, d.confidence, d.kl, d.brier, d.probabilities_json, d.error_kind, d.error_message
      FROM decisions d JOIN cases c ON c.run_id = d.run_id AND c.case_id = d.case_id
      WHERE d.run_id = ? ORDER BY c.position, d.position`),
    savedIds: db.prepare('SELECT case_id, request_status FROM cases WHERE run_id = ?'),
    list: db.prepare(`SELECT ${HEAD_COLUMNS} FROM runs ORDER BY created_ms DESC, id DESC LIMIT ?`),
    exactId: db.prepare('SELECT id FROM runs WHERE id = ?'),
    prefixIds: db.prepare('SELECT id FROM runs WHERE substr(id, 1, length(@p)) = @p ORDER BY id LIMIT 6'),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

class SqliteRunStore implements RunStore {
  /** caseId -> position in config.caseIds, per run, so saveCase does not re-parse the config. */
  private readonly positions = new Map<string, Map<string, number>>();
  private readonly statements: Statements;

  constructor(
    private readonly db: Database.Database,
    readonly path: string,
    private readonly randomBytes: (n: number) => Uint8Array,
  ) {
    this.statements = prepareStatements(db);
  }

  createRun(input: {
    readonly config: RunConfig;
    readonly label: string | null;
    readonly createdAt: string;
  }): StoredRunHead {
    const { config } = input;
    checkEndpointIdentity(config);
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
    for (let attempt = 0; ; attempt++) {
      const id = createRunId(input.createdAt, this.randomBytes(2));
      try {
        this.statements.insertRun.run({ id, ...row });
        return this.getHead(id)!;
      } catch (err) {
        // Two runs started in the same second drew the same suffix: draw again.
        if (attempt < 8 && err instanceof Database.SqliteError && err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') continue;
        throw err;
      }
    }
  }

  private positionsOf(runId: string): Map<string, number> {
    const cached = this.positions.get(runId);
    if (cached) return cached;
    const row = this.statements.status.get(runId) as { status: StoredRunStatus; config_json: string } | undefined;
    if (!row) throw this.unknown(runId);
    const config = parseStoredJson<RunConfig>(row.config_json, 'configuration', runId, this.path);
    const map = new Map(config.caseIds.map((id, i) => [id, i] as const));
    this.positions.set(runId, map);
    return map;
  }

  private statusOf(runId: string): StoredRunStatus {
    const row = this.statements.status.get(runId) as { status: StoredRunStatus } | undefined;
    if (!row) throw this.unknown(runId);
    return row.status;
  }

  saveCases(runId: string, results: readonly CaseResult[]): void {
    // Nested transactions become savepoints: one commit, one fsync for the batch.
    this.db.transaction(() => {
      for (const result of results) this.saveCase(runId, result);
    })();
  }

  saveCase(runId: string, result: CaseResult): void {
    const position = this.positionsOf(runId).get(result.caseId);
    if (position === undefined) {
      throw new DecidekitError(
        'invalid_run',
        `cannot save case ${JSON.stringify(result.caseId)}: it is not in the case set of run ${runId}`,
      );
    }
    const write = this.db.transaction(() => {
      // A stored run that gets new cases (resume, retry) is running again: its old summary goes.
      if (this.statusOf(runId) !== 'running')
        this.writeSummary(runId, 'running', this.getHead(runId)!.durationMs, null);
      const s = this.statements;
      s.deleteDecisions.run(runId, result.caseId);
      s.deleteCase.run(runId, result.caseId);
      const r = result.request;
      s.insertCase.run({
        run_id: runId,
        case_id: result.caseId,
        position,
        workflow: result.workflow,
        request_status: r.status,
        latency_ms: r.latencyMs,
        input_tokens: r.status === 'answered' ? r.inputTokens : null,
        error_kind: r.status === 'failed' ? r.failure.kind : null,
        error_message: r.status === 'failed' ? r.failure.message : null,
      });
      result.decisions.forEach((d, i) => {
        const o = d.outcome;
        s.insertDecision.run({
          run_id: runId,
          case_id: result.caseId,
          position: i,
          question_id: d.questionId,
          type: d.type,
          answers_json: JSON.stringify(d.answers),
          gold_label: d.gold.label,
          gold_probabilities_json: JSON.stringify(d.gold.probabilities),
          status: o.status,
          predicted: o.status === 'answered' ? o.predicted : null,
          correct: o.status === 'answered' ? (o.correct ? 1 : 0) : null,
          confidence: o.status === 'answered' ? o.confidence : null,
          kl: o.status === 'answered' ? o.kl : null,
          brier: o.status === 'answered' ? o.brier : null,
          probabilities_json: o.status === 'answered' ? JSON.stringify(o.probabilities) : null,
          error_kind: o.status === 'failed' ? o.failure.kind : null,
          error_message: o.status === 'failed' ? o.failure.message : null,
        });
      });
    });
    // IMMEDIATE takes the write lock up front, so a concurrent reader never forces a retry mid-way.
    write.immediate();
  }

  finishRun(runId: string, input: FinishRunInput): void {
    if (input.summary.status !== input.status) {
      throw new DecidekitError(
        'invalid_run',
        `cannot finish run ${runId}: status ${input.status} but its summary says ${input.summary.status}`,
      );
    }
    this.writeSummary(runId, input.status, input.durationMs, input.summary);
  }

  private writeSummary(
    runId: string,
    status: StoredRunStatus,
    durationMs: number | null,
    summary: BenchSummary | null,
  ): void {
    const info = this.statements.finish.run({ id: runId, status, duration_ms: durationMs, ...summaryColumns(summary) });
    if (info.changes === 0) throw this.unknown(runId);
  }

  deleteRun(runId: string): boolean {
    // Cases and decisions go with it (ON DELETE CASCADE, foreign keys on).
    return this.db.prepare('DELETE FROM runs WHERE id = ?').run(runId).changes > 0;
  }

  markInterrupted(runId: string): void {
    const update = this.db.transaction(() => {
      const head = this.getHead(runId);
      if (!head) throw this.unknown(runId);
      if (head.status !== 'running') return;
      const run = this.getRun(runId)!;
      this.writeSummary(
        runId,
        'interrupted',
        head.durationMs,
        summarizeRun(run.config, run.cases, { interrupted: true }),
      );
    });
    update.immediate();
  }

  reopenRun(runId: string): void {
    const head = this.getHead(runId);
    if (!head) throw this.unknown(runId);
    this.writeSummary(runId, 'running', head.durationMs, null);
  }

  getHead(id: string): StoredRunHead | null {
    const row = this.statements.head.get(id) as RunRow | undefined;
    return row ? headOf(row) : null;
  }

  getRun(id: string): BenchRun | null {
    const read = this.db.transaction((): BenchRun | null => {
      const row = this.statements.head.get(id) as RunRow | undefined;
      if (!row) return null;
      const config = parseStoredJson<RunConfig>(row.config_json, 'configuration', id, this.path);
      const cases = this.readCases(id);
      const summary =
        row.summary_json === null
          ? summarizeRun(config, cases)
          : parseStoredJson<BenchSummary>(row.summary_json, 'summary', id, this.path);
      return {
        id: row.id,
        createdAt: row.created_at,
        durationMs: row.duration_ms,
        label: row.label,
        fingerprint: row.fingerprint,
        config,
        summary,
        cases,
      };
    });
    // One read transaction: cases and summary come from the same snapshot.
    return read.deferred();
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
    return caseRows.map((c) => {
      const request: RequestOutcome =
        c.request_status === 'answered'
          ? { status: 'answered', latencyMs: c.latency_ms!, inputTokens: c.input_tokens }
          : {
              status: 'failed',
              failure: { kind: c.error_kind as FailureKind, message: c.error_message ?? '' },
              latencyMs: c.latency_ms,
            };
      return { caseId: c.case_id, workflow: c.workflow, request, decisions: byCase.get(c.case_id) ?? [] };
    });
  }

  private decisionOf(runId: string, d: DecisionRow): Decision {
    const json = <T>(text: string, what: string) =>
      parseStoredJson<T>(text, `${what} of case ${d.case_id}`, runId, this.path);
    const outcome: DecisionOutcome =
      d.status === 'answered'
        ? {
            status: 'answered',
            probabilities: json<number[]>(d.probabilities_json ?? 'null', 'predicted distribution'),
            predicted: d.predicted!,
            confidence: d.confidence!,
            correct: d.correct === 1,
            kl: d.kl!,
            brier: d.brier!,
          }
        : { status: 'failed', failure: { kind: d.error_kind as FailureKind, message: d.error_message ?? '' } };
    return {
      questionId: d.question_id,
      type: d.type,
      answers: json<string[]>(d.answers_json, 'answers'),
      gold: { label: d.gold_label, probabilities: json<number[]>(d.gold_probabilities_json, 'gold distribution') },
      outcome,
    };
  }

  savedCaseIds(runId: string, options: { readonly includeFailed?: boolean } = {}): Set<string> {
    if (this.statements.exactId.get(runId) === undefined) throw this.unknown(runId);
    const rows = this.statements.savedIds.all(runId) as { case_id: string; request_status: string }[];
    return new Set(
      rows.filter((r) => options.includeFailed === true || r.request_status === 'answered').map((r) => r.case_id),
    );
  }

  listRuns(options: { readonly limit?: number } = {}): StoredRunHead[] {
    const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit));
    return (this.statements.list.all(limit) as RunRow[]).map(headOf);
  }

  resolveId(prefix: string): string {
    const p = prefix.trim();
    if (p === '')
      throw new UnknownRunError(
        `unknown run: an empty run id was given (see 'decidekit runs list --store ${this.path}')`,
        { path: this.path },
      );
    if (this.statements.exactId.get(p) !== undefined) return p;
    const ids = (this.statements.prefixIds.all({ p }) as { id: string }[]).map((r) => r.id);
    if (ids.length === 1) return ids[0]!;
    if (ids.length === 0) {
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
  }

  private unknown(runId: string): UnknownRunError {
    return new UnknownRunError(`unknown run: ${JSON.stringify(runId)} is not in ${this.path}`, {
      path: this.path,
      id: runId,
    });
  }
}
