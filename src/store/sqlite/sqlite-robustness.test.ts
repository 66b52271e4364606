import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, cpSync, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { DecidekitError } from '../../core/errors.js';
import type { Store } from '../store.js';
import { summarizeRun } from '../run-summary.js';
import { openSqliteStore, type OpenSqliteStoreOptions } from './open-sqlite-store.js';
import { StoreWriteError } from '../store-errors.js';
import { APPLICATION_ID, MIGRATIONS } from './schema.js';
import type { RunListings } from '../../core/bench/run-listings.js';
import { answeredCase, failedCase, rightAnswers, runConfig, wrongAnswers } from '../test-support/run-fixtures.js';
import { tempFoldersRemovedAfterEach } from '../../datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SUPPORT = join(import.meta.dirname, '..', 'test-support');

const freshFolder = tempFoldersRemovedAfterEach('decidekit-store-robust-');
let dir: string;
const open: Store[] = [];

beforeEach(() => {
  dir = freshFolder();
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  chmodSync(dir, 0o700);
});

function storeAt(name = 'runs.sqlite', options: OpenSqliteStoreOptions = {}): Store {
  const s = openSqliteStore(join(dir, name), options);
  open.push(s);
  return s;
}

const EMPTY_LISTINGS: RunListings = {
  answeredModels: [],
  failureCauses: [],
  failedCases: [],
  failedCount: 0,
  disagreements: [],
  disagreementCount: 0,
  majority: {},
  confusion: [],
  latenciesMs: [],
  traceIndex: { every: 32, decisionsBefore: [0] },
};

function closeAll(): void {
  for (const s of open.splice(0)) s.close();
}

function errorOf(fn: () => unknown): DecidekitError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DecidekitError) return err;
    throw err;
  }
  throw new Error('expected a DecidekitError');
}

const caseIdsOf = (n: number) =>
  Array.from({ length: n }, (_, i) => `customer_service_${String(i + 1).padStart(6, '0')}`);

/** A finished run of `n` cases (every fifth failed, one wrong), saved two at a time. */
function seedRun(store: Store, n = 6, label = 'seeded') {
  const config = runConfig({ caseIds: caseIdsOf(n) });
  const cases: CaseResult[] = config.caseIds.map((id, i) =>
    i % 5 === 4 ? failedCase(id, 50) : answeredCase(id, i === 1 ? wrongAnswers() : rightAnswers(i), 10 + i),
  );
  const head = store.runs.create({ config, label, createdAt: '2026-11-30T04:15:12.000Z' });
  for (let i = 0; i < n; i += 2) store.cases.save(head.id, cases.slice(i, i + 2), { durationMs: 100 * (i + 2) });
  const summary = summarizeRun(config, cases);
  store.runs.finish(head.id, { status: summary.status, durationMs: 999, summary });
  return { id: head.id, config, cases, summary };
}

/**
 * A folder any user can read holding the child script, the built `dist/` and better-sqlite3:
 * another user may not be able to read the clone (one under a private folder, mode 0700).
 */
function readableByAnyUser(script: string): string {
  const at = freshFolder();
  chmodSync(at, 0o755);
  cpSync(join(ROOT, 'dist'), join(at, 'dist'), { recursive: true });
  const modules = join(ROOT, 'node_modules');
  const runtimeOnly = (source: string) => !/[/\\](deps|src|obj|obj\.target)$|\.a$/.test(source);
  for (const pkg of ['better-sqlite3', 'bindings', 'file-uri-to-path'])
    cpSync(join(modules, pkg), join(at, 'node_modules', pkg), { recursive: true, filter: runtimeOnly });
  copyFileSync(join(SUPPORT, script), join(at, script));
  return at;
}

/** Runs a plain-JavaScript test-support script as `nobody` (when this runs as root), from a folder any user can read. */
function runScriptAsOtherUser(script: string, args: string[]) {
  const asNobody = process.getuid?.() === 0;
  const at = readableByAnyUser(script);
  return spawnSync(process.execPath, [join(at, script), ...args], {
    cwd: at,
    encoding: 'utf8',
    timeout: 30_000,
    ...(asNobody ? { uid: 65534, gid: 65534, env: { PATH: process.env.PATH ?? '', HOME: tmpdir() } } : {}),
  });
}

describe('two processes on one store', () => {
  it('lets four processes save to one store at once, and all of them complete', async () => {
    const path = join(dir, 'shared.sqlite');
    openSqliteStore(path).close(); // schema in place: the race is about saving, not migrating
    const start = Date.now() + 3000;
    const children = [0, 1, 2, 3].map(
      (i) =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            ['--import', 'tsx', join(SUPPORT, 'save-concurrently.ts'), path, '40', String(start), `p${i}`],
            { cwd: ROOT },
          );
          let out = '';
          child.stdout.on('data', (b: Buffer) => (out += b.toString()));
          child.stderr.on('data', (b: Buffer) => (out += b.toString()));
          child.on('close', (code) => resolve({ code, out }));
        }),
    );
    const results = await Promise.all(children);
    expect(results.map((r) => r.out.trim()).filter((o) => !/^\d{8}-\d{6}-[0-9a-f]{4}$/.test(o))).toEqual([]);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const store = storeAt('shared.sqlite');
    const heads = store.runs.list();
    expect(heads.map((h) => [h.label, h.status, h.savedCases]).sort()).toEqual([
      ['p0', 'incomplete', 40],
      ['p1', 'incomplete', 40],
      ['p2', 'incomplete', 40],
      ['p3', 'incomplete', 40],
    ]);
    const check = store.check();
    expect(check.integrity).toEqual([]);
    expect(check.runs.flatMap((r) => r.problems)).toEqual([]);
  }, 60_000);

  it('turns a write lock held past the busy timeout into a StoreWriteError naming the store and run', () => {
    const store = storeAt('locked.sqlite', { busyTimeoutMs: 50 });
    const config = runConfig();
    const { id } = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12.000Z' });
    const other = new Database(join(dir, 'locked.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const err = errorOf(() => store.cases.save(id, [answeredCase(config.caseIds[0]!, rightAnswers())]));
      expect(err).toBeInstanceOf(StoreWriteError);
      expect(err.code).toBe('store_write_failed');
      expect(err.message).toContain(join(dir, 'locked.sqlite'));
      expect(err.message).toContain(id);
      expect(err.message).toMatch(/locked for more than 0\.05 s/);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(store.cases.savedIds(id, { includeFailed: true }).size).toBe(0);
  });
});

describe('saving cost', () => {
  /** The SQL a store runs while saving one batch of two cases into a run of `n` cases. */
  function statementsOfSave(n: number): string[] {
    const seen: string[] = [];
    const store = storeAt(`cost-${n}.sqlite`, { onStatement: (sql) => seen.push(sql) });
    const config = runConfig({ caseIds: caseIdsOf(n) });
    const { id } = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12.000Z' });
    store.cases.save(id, [answeredCase(config.caseIds[0]!, rightAnswers())]);
    seen.length = 0;
    store.cases.save(id, [answeredCase(config.caseIds[n - 2]!, rightAnswers()), failedCase(config.caseIds[n - 1]!)], {
      durationMs: 5,
    });
    return seen;
  }

  it('never reads the run configuration while saving, and runs as many statements for 10 cases as for 5,000', () => {
    const small = statementsOfSave(10);
    const large = statementsOfSave(5000);
    expect(small.length).toBeGreaterThan(0);
    expect(small.filter((sql) => /config_json|FROM runs\b[^;]*\bruns\.\*/i.test(sql))).toEqual([]);
    expect(large.filter((sql) => /config_json/i.test(sql))).toEqual([]);
    expect(large.length).toBe(small.length);
  });
});

describe('reading cost', () => {
  /** The SQL a store runs while reading back a run of `n` cases saved in reverse order, and the cases read. */
  function statementsOfRead(n: number): { sql: string[]; cases: CaseResult[]; ids: readonly string[] } {
    const sql: string[] = [];
    const store = storeAt(`read-${n}.sqlite`, { onStatement: (s) => sql.push(s) });
    const config = runConfig({ caseIds: caseIdsOf(n) });
    const { id } = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12.000Z' });
    const saved = config.caseIds.map((c, i) => (i % 3 === 1 ? failedCase(c, i) : answeredCase(c, rightAnswers(i))));
    store.cases.save(id, saved.slice().reverse());
    // A retried case keeps its place in the run.
    store.cases.save(id, [answeredCase(config.caseIds[1]!, wrongAnswers())]);
    sql.length = 0;
    const cases = [...store.cases.iterate(id)];
    return { sql, cases, ids: config.caseIds };
  }

  it("reads a run's cases and decisions in as many queries for 200 cases as for 3, in run order", () => {
    const small = statementsOfRead(3);
    const large = statementsOfRead(200);
    expect(large.sql.length).toBe(small.sql.length);
    expect(large.cases.map((c) => c.caseId)).toEqual(large.ids);
    expect(large.cases[1]!.decisions.map((d) => d.outcome.status)).toEqual(['answered', 'answered', 'answered']);
    expect(large.cases[4]!.request.status).toBe('failed');
    expect(large.cases.every((c) => c.decisions.length === 3)).toBe(true);
  });

  it('pairs each decision with the case at its position, passing over decision rows no case row has', () => {
    const store = storeAt();
    const { id, config, cases } = seedRun(store);
    const raw = new Database(join(dir, 'runs.sqlite'));
    // A case row gone without its decisions (a store written with foreign keys off).
    raw.pragma('foreign_keys = OFF');
    raw.prepare('DELETE FROM cases WHERE run_id = ? AND case_id = ?').run(id, config.caseIds[1]);
    raw.close();
    const kept = cases.filter((_, i) => i !== 1);
    expect([...store.cases.iterate(id)]).toEqual(kept);
    expect([...store.cases.iterate(id, { fromPosition: 1 })]).toEqual(kept.slice(1));
    expect([...store.cases.iterate(id, { fromPosition: 3 })]).toEqual(cases.slice(3));
    // The export's flat read pairs them the same way.
    const flat = [...store.cases.decisionValues(id)];
    expect(flat.map((v) => [v[0], v[6]])).toEqual(
      kept.flatMap((c) => c.decisions.map((d) => [c.caseId, d.questionId])),
    );
  });

  it("checks a run's stored rows against their digests in as many queries for 200 cases as for 3", () => {
    const queriesOfCheck = (n: number) => {
      const sql: string[] = [];
      const store = storeAt(`check-${n}.sqlite`, { onStatement: (s) => sql.push(s) });
      const config = runConfig({ caseIds: caseIdsOf(n) });
      const { id } = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12.000Z' });
      store.cases.save(id, config.caseIds.map((c, i) => answeredCase(c, rightAnswers(i))).reverse());
      sql.length = 0;
      expect(store.runs.check(id).problems).toEqual([]);
      return sql.length;
    };
    expect(queriesOfCheck(200)).toBe(queriesOfCheck(3));
  });
});

describe('read-only stores', () => {
  it('reads a store opened read-only, and refuses to write to it with a StoreWriteError', () => {
    const { id } = seedRun(storeAt());
    closeAll();
    const path = join(dir, 'runs.sqlite');
    const before = readFileSync(path);
    const store = storeAt('runs.sqlite', { readOnly: true });
    expect(store.runs.list().map((h) => h.id)).toEqual([id]);
    expect(store.runs.get(id)!.cases).toHaveLength(6);
    const err = errorOf(() => store.runs.reopen(id));
    expect(err.code).toBe('store_write_failed');
    expect(err.message).toContain('read-only');
    closeAll();
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('reads a store whose file and folder cannot be written (as another user)', () => {
    const { id } = seedRun(storeAt());
    closeAll();
    const path = join(dir, 'runs.sqlite');
    chmodSync(path, 0o444);
    chmodSync(dir, 0o555);
    const child = runScriptAsOtherUser('list-read-only.mjs', [path]);
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe(`${id} incomplete 6\n`);
    expect(child.status).toBe(0);
  });

  it('reads a version 11 store in place without listings, and keeps listings once a write upgrades it', () => {
    const path = join(dir, 'v11.sqlite');
    const { id, cases } = seedRun(storeAt('v11.sqlite'));
    closeAll();
    const raw = new Database(path);
    // What versions 12 and 13 added, taken away again.
    raw.exec('DROP TABLE run_listings; ALTER TABLE runs DROP COLUMN set_aside_json');
    raw.pragma('user_version = 11');
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    const before = readFileSync(path);
    const reader = openSqliteStore(path, { readOnly: true });
    try {
      expect(reader.runs.listings(id)).toBeNull();
      expect(reader.runs.get(id)!.cases).toEqual(cases);
    } finally {
      reader.close();
    }
    expect(readFileSync(path).equals(before)).toBe(true);
    const writer = storeAt('v11.sqlite');
    const listings = { ...EMPTY_LISTINGS, failedCount: 1 };
    writer.runs.saveListings(id, listings);
    expect(writer.runs.listings(id)).toEqual(listings);
  });

  it('reads read-only a store that needs a migration from an upgraded copy, leaving the file unchanged', () => {
    const path = join(dir, 'old.sqlite');
    const { id } = writeVersion1Store(path);
    const before = readFileSync(path);
    const store = openSqliteStore(path, { readOnly: true });
    try {
      expect(store.runs.list().map((r) => r.id)).toEqual([id]);
      expect(store.runs.get(id)!.cases.length).toBeGreaterThan(0);
      expect(store.runs.statistics(id)).toBeNull();
    } finally {
      store.close();
    }
    expect(readFileSync(path).equals(before)).toBe(true);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
    raw.close();
  });

  it('migrates a version 1 store: its runs keep their cases, and saving into them works', () => {
    const path = join(dir, 'old.sqlite');
    const { id, config } = writeVersion1Store(path);
    const store = storeAt('old.sqlite');
    expect(store.runs.get(id)!.cases.map((c) => c.caseId)).toEqual([config.caseIds[1]]);
    store.cases.save(id, [answeredCase(config.caseIds[0]!, rightAnswers())]);
    expect(store.runs.get(id)!.cases.map((c) => c.caseId)).toEqual([config.caseIds[0], config.caseIds[1]]);
    expect(store.runs.check(id).problems).toEqual([]);
  });
});

/** A store as decidekit wrote it at schema version 1: one running run with one saved case. */
function writeVersion1Store(path: string) {
  const config = runConfig();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(MIGRATIONS[0]!);
  db.pragma('user_version = 1');
  db.pragma(`application_id = ${APPLICATION_ID}`);
  const id = '20261130-041512-ab12';
  db.prepare(
    `INSERT INTO runs (id, created_at, created_ms, status, fingerprint, tool_version, model, endpoint_scheme, endpoint_host,
      endpoint_port, endpoint_path, dataset_id, dataset_split, dataset_synthetic, case_count, filtered, config_json)
     VALUES (?, '2026-11-30T04:15:12.000Z', 0, 'running', 'f', '0.1.0', 'm', 'http', 'h', 80, '/v1/systemone', 'd', 'test', 0, ?, 0, ?)`,
  ).run(id, config.caseIds.length, JSON.stringify(config));
  db.prepare(
    `INSERT INTO cases (run_id, case_id, position, workflow, request_status, latency_ms, error_kind, error_message)
     VALUES (?, ?, 1, 'customer_service', 'failed', 5, 'timeout', 'no answer')`,
  ).run(id, config.caseIds[1]);
  const failed = failedCase(config.caseIds[1]!);
  failed.decisions.forEach((d, i) =>
    db
      .prepare(
        `INSERT INTO decisions (run_id, case_id, position, question_id, type, answers_json, gold_label, gold_probabilities_json, status, error_kind, error_message)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'failed', 'timeout', 'no answer')`,
      )
      .run(
        id,
        config.caseIds[1],
        i,
        d.questionId,
        d.type,
        JSON.stringify(d.answers),
        d.gold.label,
        JSON.stringify(d.gold.probabilities),
      ),
  );
  db.close();
  return { id, config };
}

describe('a damaged store', () => {
  it('finds nothing wrong in runs saved as they were', () => {
    seedRun(storeAt(), 6, 'a');
    seedRun(storeAt(), 11, 'b');
    const check = storeAt().check();
    expect(check.integrity).toEqual([]);
    expect(check.runs).toHaveLength(2);
    expect(check.runs.flatMap((r) => r.problems)).toEqual([]);
  });

  it('detects a flipped byte in a stored answer', () => {
    const store = storeAt();
    const { id, config } = seedRun(store);
    const raw = new Database(join(dir, 'runs.sqlite'));
    // "shipping" -> "shipqing": the gold label and the predicted answer no longer name an answer.
    raw
      .prepare(
        "UPDATE decisions SET answers_json = replace(answers_json, 'shipping', 'shipqing') WHERE run_id = ? AND case_id = ?",
      )
      .run(id, config.caseIds[0]);
    raw.close();
    const check = store.runs.check(id);
    expect(check.problems.join('\n')).toContain(`case ${config.caseIds[0]} question route`);
    expect(check.problems.join('\n')).toMatch(/not one of its answers|predicted/);
  });

  it('detects a decision whose stored status no longer matches the stored summary', () => {
    const store = storeAt();
    const { id, config } = seedRun(store);
    const raw = new Database(join(dir, 'runs.sqlite'));
    // A wrong decision marked correct, its predicted label made consistent: only the summary can tell.
    raw
      .prepare('UPDATE decisions SET correct = 1 - correct WHERE run_id = ? AND case_id = ? AND position = 0')
      .run(id, config.caseIds[1]);
    raw.close();
    const problems = store.runs.check(id).problems.join('\n');
    expect(problems).toContain(`case ${config.caseIds[1]} question urgent: stored correct`);
    expect(problems).toMatch(/stored summary differs .* in .*accuracy/);
  });

  it('names the store and says it is damaged when an answered decision lost its scores', () => {
    const store = storeAt();
    const { id, config } = seedRun(store);
    const raw = new Database(join(dir, 'runs.sqlite'));
    raw.prepare('UPDATE decisions SET predicted = NULL WHERE run_id = ? AND case_id = ?').run(id, config.caseIds[0]);
    raw.close();
    const err = errorOf(() => store.runs.get(id));
    expect(err.code).toBe('store_damaged');
    expect(err.message).toContain(`run store ${join(dir, 'runs.sqlite')} is damaged`);
    const flat = errorOf(() => [...store.cases.decisionValues(id)]);
    expect(flat.code).toBe('store_damaged');
    expect(flat.message).toContain(`case ${config.caseIds[0]} question`);
    expect(store.runs.check(id).problems.join('\n')).toContain('lacks its scores');
  });

  it('names the store and says it is damaged when a table is missing', () => {
    seedRun(storeAt());
    closeAll();
    const raw = new Database(join(dir, 'runs.sqlite'));
    raw.exec('DROP VIEW decision_rows; DROP TABLE decisions');
    raw.close();
    const err = errorOf(() => storeAt());
    expect(err.code).toBe('store_damaged');
    expect(err.message).toMatch(/is damaged: table decisions missing/);
  });

  it('names the store and says it is damaged when its pages are overwritten', () => {
    const store = storeAt();
    for (let i = 0; i < 4; i++) seedRun(store, 40, `r${i}`);
    closeAll();
    const path = join(dir, 'runs.sqlite');
    const fd = openSync(path, 'r+');
    const size = fstatSync(fd).size;
    const garbage = Buffer.alloc(4096 * 3, 0x5a);
    writeSync(fd, garbage, 0, garbage.length, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
    const errors: string[] = [];
    let reopened: Store | null = null;
    try {
      reopened = storeAt();
      for (const h of reopened.runs.list()) reopened.runs.get(h.id);
      const check = reopened.check();
      errors.push(...check.integrity, ...check.runs.flatMap((r) => r.problems));
    } catch (err) {
      expect(err).toBeInstanceOf(DecidekitError);
      expect((err as DecidekitError).code).toBe('store_damaged');
      expect((err as Error).message).toContain(`run store ${path} is damaged`);
      errors.push((err as Error).message);
    }
    expect(errors.length).toBeGreaterThan(0);
  });
});

describe('duration of a killed run', () => {
  it('keeps the duration given with each saved batch, so a run killed before finishing has one', () => {
    const store = storeAt();
    const config = runConfig();
    const { id } = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12.000Z' });
    store.cases.save(id, [answeredCase(config.caseIds[0]!, rightAnswers())], { durationMs: 1500 });
    store.cases.save(id, [answeredCase(config.caseIds[1]!, rightAnswers())], { durationMs: 2750.5 });
    closeAll(); // as if killed: no finishRun
    const again = storeAt();
    expect(again.runs.head(id)?.durationMs).toBe(2750.5);
    again.runs.markInterrupted(id);
    expect(again.runs.get(id)?.durationMs).toBe(2750.5);
  });
});
