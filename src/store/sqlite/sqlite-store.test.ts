import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scoreCase, type CaseResult } from '../../core/typed-decisions/case-result.js';
import type { RunConfig } from '../../core/bench/run.js';
import { DecidekitError } from '../../core/errors.js';
import { endpointIdentity } from '../../protocol/wire/endpoint.js';
import type { Store } from '../store.js';
import { summarizeRun } from '../run-summary.js';
import { openSqliteStore, type OpenSqliteStoreOptions } from './open-sqlite-store.js';
import { SCHEMA_VERSION } from './schema.js';
import {
  answeredCase,
  benchCase,
  CASE_IDS,
  failedCase,
  headlineOf,
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

describe('openRunStore', () => {
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
      'runs',
    ]);
    db.close();
  });

  it('saves a batch of cases in one transaction: all of it or none', () => {
    const s = storeAt();
    const { id } = s.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T04:00:00.000Z' });
    s.cases.save(id, [answeredCase(CASE_IDS[0]!, rightAnswers()), failedCase(CASE_IDS[1]!)]);
    expect([...s.cases.savedIds(id, { includeFailed: true })].sort()).toEqual([CASE_IDS[0], CASE_IDS[1]]);
    expect(() =>
      s.cases.save(id, [answeredCase(CASE_IDS[2]!, rightAnswers()), answeredCase('not_in_the_run', rightAnswers())]),
    ).toThrow(/not in the case set/);
    expect(s.cases.savedIds(id, { includeFailed: true }).has(CASE_IDS[2]!)).toBe(false);
  });

  it('creates missing parent directories', () => {
    const s = storeAt(join('a', 'b', 'runs.sqlite'));
    expect(s.runs.list()).toEqual([]);
  });

  it('keeps runs across reopening', () => {
    const { head } = seedFinished(storeAt());
    closeAll();
    expect(storeAt().runs.head(head.id)?.status).toBe('incomplete');
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

describe('round trip', () => {
  it('returns the saved cases, config and summary unchanged, in case-set order', () => {
    const store = storeAt();
    const config = runConfig();
    const { head, cases, summary } = seedFinished(store, config);
    const run = store.runs.get(head.id)!;
    expect(run.cases).toEqual(cases);
    expect(run.config).toEqual(config);
    expect(run.summary).toEqual(summary);
    expect(summarizeRun(run.config, run.cases)).toEqual(run.summary);
    expect(run).toMatchObject({
      id: head.id,
      createdAt: '2026-11-30T04:15:12.000Z',
      durationMs: 1234.5,
      label: 'baseline',
      fingerprint: head.fingerprint,
    });
  });

  it('reads back every double exactly (property)', () => {
    const store = storeAt();
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    const dist = (n: number) => fc.array(unit, { minLength: n, maxLength: n });
    let k = 0;
    fc.assert(
      fc.property(dist(2), dist(3), dist(3), fc.double({ min: 0, max: 1e7, noNaN: true }), (p1, p2, p3, latencyMs) => {
        const id = `customer_service_${String(++k).padStart(6, '0')}`;
        const config = runConfig({ caseIds: [id] });
        const head = store.runs.create({ config, label: null, createdAt: '2026-01-01T00:00:00Z' });
        const result = scoreCase(benchCase(id), {
          status: 'answered',
          latencyMs,
          inputTokens: 7,
          predicted: [p1, p2, p3],
        });
        store.cases.save(head.id, [result]);
        expect(store.runs.get(head.id)!.cases).toEqual([result]);
      }),
      { seed: 42, numRuns: 60 },
    );
  });

  it('computes a summary for a run that is still running', () => {
    const store = storeAt();
    const config = runConfig();
    const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
    const one = answeredCase(config.caseIds[0]!, rightAnswers());
    store.cases.save(head.id, [one]);
    const run = store.runs.get(head.id)!;
    expect(run.summary).toEqual(summarizeRun(config, [one]));
    expect(run.summary.status).toBe('incomplete');
    expect(store.runs.head(head.id)).toMatchObject({ status: 'running', savedCases: 1, caseCount: 4, headline: null });
  });

  it('returns null for an unknown run', () => {
    expect(storeAt().runs.get('20260101-000000-0000')).toBeNull();
  });
});

describe('saveCase', () => {
  it('replaces an earlier result of the same case', () => {
    const store = storeAt();
    const config = runConfig();
    const id = config.caseIds[0]!;
    const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
    store.cases.save(head.id, [failedCase(id)]);
    const retried = answeredCase(id, rightAnswers());
    store.cases.save(head.id, [retried]);
    expect(store.runs.get(head.id)!.cases).toEqual([retried]);
  });

  it('lists answered cases, and failed ones only when asked', () => {
    const store = storeAt();
    const config = runConfig();
    const [a, b] = config.caseIds as [string, string];
    const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
    store.cases.save(head.id, [answeredCase(a, rightAnswers())]);
    store.cases.save(head.id, [failedCase(b)]);
    expect(store.cases.savedIds(head.id)).toEqual(new Set([a]));
    expect(store.cases.savedIds(head.id, { includeFailed: true })).toEqual(new Set([a, b]));
  });

  it('rejects a case outside the run and an unknown run', () => {
    const store = storeAt();
    const other = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T05:00:00Z' });
    expect(
      errorOf(() => store.cases.save(other.id, [answeredCase('invoice_processing_000009', rightAnswers())])).message,
    ).toContain('not in the case set');
    expect(errorOf(() => store.cases.save('nope', [answeredCase(CASE_IDS[0]!, rightAnswers())])).code).toBe(
      'unknown_run',
    );
    expect(store.runs.get(other.id)!.cases).toEqual([]);
  });

  it('puts a finished run back to running when a case is saved to it (retrying a failed case)', () => {
    const store = storeAt();
    const config = runConfig();
    const { head, cases } = seedFinished(store, config);
    const retried = answeredCase(config.caseIds[1]!, rightAnswers());
    store.cases.save(head.id, [retried]);
    expect(store.runs.head(head.id)).toMatchObject({ status: 'running', headline: null, durationMs: 1234.5 });
    const all = [cases[0]!, retried, cases[2]!, cases[3]!];
    expect(store.runs.get(head.id)!.cases).toEqual(all);
    expect(store.runs.get(head.id)!.summary).toEqual(summarizeRun(config, all));
  });
});

describe('run lifecycle', () => {
  it('rejects a summary whose status contradicts the finishing status', () => {
    const store = storeAt();
    const config = runConfig();
    const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
    const summary = summarizeRun(config, []);
    expect(errorOf(() => store.runs.finish(head.id, { status: 'complete', durationMs: 1, summary })).code).toBe(
      'invalid_run',
    );
  });

  it('marks a running run interrupted with a summary of its saved cases, and leaves finished runs alone', () => {
    const store = storeAt();
    const config = runConfig();
    const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
    const one = answeredCase(config.caseIds[1]!, wrongAnswers());
    store.cases.save(head.id, [one]);
    store.runs.markInterrupted(head.id);
    expect(store.runs.head(head.id)?.status).toBe('interrupted');
    expect(store.runs.get(head.id)!.summary).toEqual(summarizeRun(config, [one], { interrupted: true }));

    const finished = seedFinished(store);
    store.runs.markInterrupted(finished.head.id);
    expect(store.runs.head(finished.head.id)?.status).toBe('incomplete');
  });

  it('reopens a stored run for resuming and accepts its missing cases', () => {
    const store = storeAt();
    const config = runConfig();
    const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
    store.cases.save(head.id, [answeredCase(config.caseIds[0]!, rightAnswers())]);
    store.runs.finish(head.id, {
      status: 'interrupted',
      durationMs: 50,
      summary: summarizeRun(config, store.runs.get(head.id)!.cases, { interrupted: true }),
    });
    store.runs.reopen(head.id);
    expect(store.runs.head(head.id)).toMatchObject({ status: 'running', durationMs: 50, headline: null });
    store.cases.save(head.id, [answeredCase(config.caseIds[1]!, rightAnswers())]);
    expect(store.cases.savedIds(head.id).size).toBe(2);
  });
});

describe('ids, listing and prefixes', () => {
  it('makes sortable ids from the creation time and injected randomness', () => {
    const store = storeAt('ids.sqlite', { randomBytes: () => Uint8Array.of(0xab, 0x12) });
    const head = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T04:15:12.345Z' });
    expect(head.id).toBe('20261130-041512-ab12');
  });

  it('draws again when two runs in the same second get the same id', () => {
    const draws = [Uint8Array.of(1, 2), Uint8Array.of(1, 2), Uint8Array.of(3, 4)];
    const store = storeAt('ids.sqlite', { randomBytes: () => draws.shift()! });
    const a = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T04:15:12Z' });
    const b = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T04:15:12Z' });
    expect([a.id, b.id]).toEqual(['20261130-041512-0102', '20261130-041512-0304']);
  });

  it('rejects a creation time that is not a date', () => {
    expect(
      errorOf(() => storeAt().runs.create({ config: runConfig(), label: null, createdAt: 'yesterday' })).message,
    ).toContain('"yesterday"');
  });

  it('lists newest first with headline metrics from the summary, and honours the limit', () => {
    const store = storeAt();
    const older = seedFinished(store, runConfig(), '2026-11-29T23:59:59Z');
    const newer = seedFinished(store, runConfig({ model: 'other' }), '2026-11-30T08:00:00+02:00');
    const running = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T07:00:00Z' });
    const list = store.runs.list();
    expect(list.map((h) => h.id)).toEqual([running.id, newer.head.id, older.head.id]);
    expect(list[1]!.headline).toEqual(headlineOf(newer.summary));
    expect(list[1]).toMatchObject({
      model: 'other',
      savedCases: 4,
      caseCount: 4,
      filtered: false,
      label: 'baseline',
      durationMs: 1234.5,
    });
    expect(list[0]!.headline).toBeNull();
    expect(store.runs.list({ limit: 1 }).map((h) => h.id)).toEqual([running.id]);
  });

  it('marks filtered runs', () => {
    const store = storeAt();
    const head = store.runs.create({
      config: runConfig({ caseIds: CASE_IDS.slice(0, 2), filters: { limit: 2, workflow: null } }),
      label: null,
      createdAt: '2026-11-30T04:15:12Z',
    });
    expect(head.filtered).toBe(true);
  });

  it('resolves a full id, a unique prefix, and refuses ambiguous or unknown prefixes', () => {
    const bytes = [Uint8Array.of(0xab, 0x12), Uint8Array.of(0xab, 0x34), Uint8Array.of(0xcd, 0x00)];
    const store = storeAt('p.sqlite', { randomBytes: () => bytes.shift()! });
    const a = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T04:15:12Z' }).id;
    const b = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T04:15:12Z' }).id;
    store.runs.create({ config: runConfig(), label: null, createdAt: '2026-12-01T00:00:00Z' });
    expect(store.resolveId(a, 'run')).toBe(a);
    expect(store.resolveId('20261130-041512-ab3', 'run')).toBe(b);
    expect(store.resolveId('202612', 'run')).toBe('20261201-000000-cd00');
    const ambiguous = errorOf(() => store.resolveId('20261130-041512-ab', 'run'));
    expect(ambiguous.code).toBe('ambiguous_run');
    expect(ambiguous.message).toContain(a);
    expect(ambiguous.message).toContain(b);
    expect(errorOf(() => store.resolveId('1999', 'run')).code).toBe('unknown_run');
    expect(errorOf(() => store.resolveId('', 'run')).code).toBe('unknown_run');
    // substr() matching, not LIKE: wildcards are ordinary characters.
    expect(errorOf(() => store.resolveId('%', 'run')).code).toBe('unknown_run');
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

  it('refuses an endpoint identity that carries a secret, without repeating it', () => {
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
      expect(err.message).not.toContain(SECRET);
    }
    expect(store.runs.list()).toEqual([]);
    expect(bytesOfStoreFiles()).not.toContain(SECRET);
  });
});

describe('concurrent access', () => {
  it('lets a second connection read a run while the first one is still saving cases', () => {
    const writer = storeAt('shared.sqlite');
    const reader = storeAt('shared.sqlite');
    const config = runConfig();
    const head = writer.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
    writer.cases.save(head.id, [answeredCase(config.caseIds[0]!, rightAnswers())]);
    expect(reader.runs.head(head.id)).toMatchObject({ status: 'running', savedCases: 1 });
    writer.cases.save(head.id, [answeredCase(config.caseIds[1]!, rightAnswers())]);
    expect(reader.cases.savedIds(head.id).size).toBe(2);
    expect(reader.runs.list().map((h) => h.id)).toEqual([head.id]);
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

describe('reading large runs', () => {
  it('iterates the saved cases in run order, as getRun returns them', () => {
    const store = storeAt();
    const { head } = seedFinished(store);
    const whole = store.runs.get(head.id)!;
    expect([...store.cases.iterate(head.id)]).toEqual(whole.cases);
    // The iteration may stop early and the store stays usable.
    for (const c of store.cases.iterate(head.id)) {
      expect(c.caseId).toBe(whole.cases[0]!.caseId);
      break;
    }
    store.runs.reopen(head.id);
    expect(store.runs.head(head.id)!.status).toBe('running');
  });

  it('gives a run without its cases: the stored summary, or one computed for a running run', () => {
    const store = storeAt();
    const { head, summary } = seedFinished(store);
    const { cases: _cases, ...info } = store.runs.get(head.id)!;
    expect(store.runs.info(head.id)).toEqual(info);
    expect(info.summary).toEqual(summary);
    store.runs.reopen(head.id);
    const running = store.runs.info(head.id)!;
    expect(running.summary).toEqual(summarizeRun(running.config, store.runs.get(head.id)!.cases));
    expect(store.runs.info('nope')).toBeNull();
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
