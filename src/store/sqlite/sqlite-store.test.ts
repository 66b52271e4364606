import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { RunConfig } from '../../core/bench/run.js';
import { DecidekitError } from '../../core/errors.js';
import { endpointIdentity } from '../../protocol/wire/endpoint.js';
import type { Store } from '../store.js';
import { summarizeRun } from '../run-summary.js';
import { openSqliteStore, type OpenSqliteStoreOptions } from './open-sqlite-store.js';
import { SCHEMA_VERSION } from './schema.js';
import {
  answeredCase,
  failedCase,
  rightAnswers,
  runConfig,
  wrongAnswers,
} from '../../core/bench/test-support/run-fixtures.js';
import { tempFoldersRemovedAfterEach } from '../../datasets/test-support/temp-folders.js';

const freshFolder = tempFoldersRemovedAfterEach('decidekit-store-');
let dir: string;
const open: Store[] = [];

beforeEach(() => {
  dir = freshFolder();
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

function storeAt(name = 'runs.sqlite', options: OpenSqliteStoreOptions = {}): Store {
  const s = openSqliteStore(join(dir, name), options);
  open.push(s);
  return s;
}

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

/** Stores a finished run: answered, failed and token-less cases, saved out of order. */
function seedFinished(store: Store, config: RunConfig = runConfig(), createdAt = '2026-11-30T04:15:12.000Z') {
  const [a, b, c, d] = config.caseIds as [string, string, string, string];
  const cases: CaseResult[] = [
    answeredCase(a, rightAnswers(), 87.5, 321),
    failedCase(b, 10_000.25),
    answeredCase(c, wrongAnswers(), 0.1 + 0.2, null),
    failedCase(d, null),
  ];
  const head = store.runs.create({ config, label: 'baseline', createdAt });
  for (const i of [2, 0, 3, 1]) store.cases.save(head.id, [cases[i]!]);
  const summary = summarizeRun(config, cases);
  store.runs.finish(head.id, { status: summary.status, durationMs: 1234.5, summary });
  return { head, cases, summary };
}

describe('openSqliteStore', () => {
  it('creates the schema in an empty file, in WAL mode', () => {
    storeAt();
    closeAll();
    const db = new Database(join(dir, 'runs.sqlite'), { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name").all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    expect(tables).toEqual([
      'audit_verdicts',
      'audits',
      'cases',
      'decision_rows',
      'decisions',
      'probes',
      'run_cases',
      'run_listings',
      'runs',
    ]);
    db.close();
  });

  it('creates missing parent directories', () => {
    const s = storeAt(join('a', 'b', 'runs.sqlite'));
    expect(s.runs.list()).toEqual([]);
  });

  it('refuses a database from a newer version and leaves its bytes unchanged', () => {
    const path = join(dir, 'future.sqlite');
    const db = new Database(path);
    db.exec('CREATE TABLE runs (id TEXT)');
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = readFileSync(path);
    const err = errorOf(() => openSqliteStore(path));
    expect(err.code).toBe('store_too_new');
    expect(err.message).toContain(`schema version ${SCHEMA_VERSION + 1}`);
    expect(err.message).toContain(path);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a SQLite file that is not a run store and leaves it unchanged', () => {
    const path = join(dir, 'other.sqlite');
    const db = new Database(path);
    db.exec('CREATE TABLE notes (body TEXT)');
    db.close();
    const before = readFileSync(path);
    expect(errorOf(() => openSqliteStore(path)).code).toBe('store_foreign');
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('names the file when it is not a database at all', () => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'this is not sqlite, just some text that is long enough to look like a header'.repeat(20));
    const err = errorOf(() => openSqliteStore(path));
    expect(err.code).toBe('store_foreign');
    expect(err.message).toContain(path);
    expect(err.message).toContain('not a SQLite database at all, so not a run store: it looks like a text file');
    expect(err.message).not.toContain('damaged');
  });

  it('does not create a file when it must exist', () => {
    const path = join(dir, 'missing.sqlite');
    expect(errorOf(() => openSqliteStore(path, { mustExist: true })).code).toBe('store_missing');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('secrets', () => {
  const SECRET = 'sekret-4f9a';

  function bytesOfStoreFiles(): string {
    return readdirSync(dir)
      .map((f) => readFileSync(join(dir, f)).toString('latin1'))
      .join('\n');
  }

  it('keeps credentials, query and fragment of the base URL out of every file', () => {
    // Built the way bench builds it: the protocol layer's identity of the base URL.
    const endpoint = endpointIdentity(`http://user:${SECRET}@models.example:8443/v1/systemone?key=${SECRET}#${SECRET}`);
    const store = storeAt();
    seedFinished(store, runConfig({ endpoint }));
    expect(bytesOfStoreFiles()).not.toContain(SECRET);
    closeAll();
    expect(bytesOfStoreFiles()).not.toContain(SECRET);
    expect(bytesOfStoreFiles()).toContain('models.example');
  });

  it('writes nothing of an endpoint identity it refuses to any file', () => {
    const store = storeAt();
    for (const endpoint of [
      { scheme: 'http', host: `user:${SECRET}@host`, port: 80, path: '/v1' },
      { scheme: 'http', host: 'host', port: 80, path: `/v1/systemone?key=${SECRET}` },
      { scheme: 'http', host: 'host', port: 80, path: `/v1/systemone#${SECRET}` },
    ]) {
      const err = errorOf(() =>
        store.runs.create({ config: runConfig({ endpoint }), label: null, createdAt: '2026-11-30T04:15:12Z' }),
      );
      expect(err.code).toBe('invalid_run');
    }
    closeAll();
    expect(bytesOfStoreFiles()).not.toContain(SECRET);
  });
});

describe('durability', () => {
  it('keeps every case saved before the process was killed with SIGKILL', () => {
    const path = join(dir, 'killed.sqlite');
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '..', 'test-support', 'save-then-kill.ts'), path, '7'],
      {
        cwd: join(import.meta.dirname, '..', '..', '..'),
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(child.stderr).toBe('');
    expect(child.signal).toBe('SIGKILL');
    const runId = child.stdout.trim();
    expect(runId).toMatch(/^20261130-041512-[0-9a-f]{4}$/);

    const store = storeAt('killed.sqlite', { mustExist: true });
    expect(store.runs.head(runId)).toMatchObject({ status: 'running', savedCases: 7, caseCount: 10 });
    expect(store.cases.savedIds(runId, { includeFailed: true }).size).toBe(7);
    expect(store.cases.savedIds(runId).size).toBe(5);
    const run = store.runs.get(runId)!;
    expect(run.cases.map((c) => c.caseId)).toEqual(run.config.caseIds.slice(0, 7));
    store.runs.markInterrupted(runId);
    expect(store.runs.head(runId)?.status).toBe('interrupted');
    expect(store.runs.get(runId)!.summary.status).toBe('interrupted');
  });
});

describe('syncing to disk', () => {
  it('syncs a commit to disk once the interval has passed and when a run finishes, not at every save', () => {
    let now = 0;
    const statements: string[] = [];
    const store = storeAt('runs.sqlite', {
      syncIntervalMs: 2000,
      now: () => now,
      onStatement: (sql) => statements.push(sql),
    });
    const config = runConfig();
    const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12.000Z' });
    const fullSyncs = () => statements.filter((s) => /synchronous = FULL/i.test(s)).length;
    now = 500;
    store.cases.save(head.id, [answeredCase(config.caseIds[0]!, rightAnswers())]);
    now = 1500;
    store.cases.save(head.id, [answeredCase(config.caseIds[1]!, rightAnswers())]);
    expect(fullSyncs()).toBe(0);
    now = 2600;
    store.cases.save(head.id, [answeredCase(config.caseIds[2]!, rightAnswers())]);
    expect(fullSyncs()).toBe(1);
    now = 2700;
    store.cases.save(head.id, [answeredCase(config.caseIds[3]!, rightAnswers())]);
    expect(fullSyncs()).toBe(1);
    const summary = summarizeRun(config, store.runs.get(head.id)!.cases);
    store.runs.finish(head.id, { status: summary.status, durationMs: 1, summary });
    expect(fullSyncs()).toBe(2);
  });

  it('syncs every commit with synchronous full', () => {
    const statements: string[] = [];
    const store = storeAt('full.sqlite', { synchronous: 'full', onStatement: (sql) => statements.push(sql) });
    const config = runConfig();
    const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12.000Z' });
    store.cases.save(head.id, [answeredCase(config.caseIds[0]!, rightAnswers())]);
    const db = new Database(join(dir, 'full.sqlite'), { readonly: true });
    expect(statements.filter((s) => /synchronous = NORMAL/i.test(s))).toHaveLength(0);
    db.close();
  });
});
