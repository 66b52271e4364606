import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { DecidekitError } from '../../core/errors.js';
import { openSqliteStore } from '../sqlite/open-sqlite-store.js';
import { StoreWriteError } from '../store-errors.js';
import { answeredCase, failedCase, rightAnswers, runConfig, wrongAnswers } from '../test-support/run-fixtures.js';
import { startCaseWriter, type CaseWriter } from './case-writer.js';
import { tempFoldersRemovedAfterEach } from '../../datasets/test-support/temp-folders.js';

const freshFolder = tempFoldersRemovedAfterEach('decidekit-case-writer-');
let dir: string;
const writers: CaseWriter[] = [];

beforeEach(() => {
  dir = freshFolder();
});
afterEach(async () => {
  for (const w of writers.splice(0)) await w.close();
});

const caseIdsOf = (n: number) =>
  Array.from({ length: n }, (_, i) => `customer_service_${String(i + 1).padStart(6, '0')}`);

/** Every fifth case failed, one answered wrongly, latencies and tokens that differ. */
function casesOf(ids: readonly string[]): CaseResult[] {
  return ids.map((id, i) =>
    i % 5 === 4
      ? failedCase(id, 40 + i)
      : answeredCase(id, i === 1 ? wrongAnswers() : rightAnswers(i), 10.125 + i, i % 3 === 0 ? null : 300 + i),
  );
}

/** A store with one run of `n` cases created (what `bench` does before its writer saves). */
function storeWithRun(name: string, n: number) {
  const path = join(dir, name);
  const store = openSqliteStore(path);
  const config = runConfig({ caseIds: caseIdsOf(n) });
  const { id } = store.runs.create({ config, label: null, createdAt: '2026-12-01T05:00:00.000Z' });
  return { path, store, id, config };
}

function writerFor(path: string, options: Parameters<typeof startCaseWriter>[1] = {}): CaseWriter {
  const w = startCaseWriter(path, options);
  writers.push(w);
  return w;
}

/** The stored rows of a run as read by SQLite itself (digests included), in a stable order. */
function rowsOf(path: string, runId: string) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      cases: db.prepare('SELECT * FROM cases WHERE run_id = ? ORDER BY position').all(runId),
      decisions: db.prepare('SELECT * FROM decisions WHERE run_id = ? ORDER BY case_id, position').all(runId),
      duration: (db.prepare('SELECT duration_ms FROM runs WHERE id = ?').get(runId) as { duration_ms: number })
        .duration_ms,
    };
  } finally {
    db.close();
  }
}

describe('the case writer', () => {
  it('commits from a worker thread exactly the rows an in-process save stores', async () => {
    const threaded = storeWithRun('threaded.sqlite', 12);
    const inProcess = storeWithRun('in-process.sqlite', 12);
    const cases = casesOf(threaded.config.caseIds);
    // A retried case replaces its first result, in both.
    const retry = answeredCase(cases[4]!.caseId, rightAnswers(7), 99.5, 123);
    const batches = [cases.slice(0, 5), cases.slice(5, 6), cases.slice(6), [retry]];

    const writer = writerFor(threaded.path);
    expect(writer.thread).toBe('worker');
    for (const [i, batch] of batches.entries()) await writer.save(threaded.id, batch, { durationMs: 100 * (i + 1) });
    for (const [i, batch] of batches.entries())
      inProcess.store.cases.save(inProcess.id, batch, { durationMs: 100 * (i + 1) });

    const strip = (rows: ReturnType<typeof rowsOf>) => ({
      ...rows,
      cases: rows.cases.map((c) => ({ ...(c as object), run_id: 'R' })),
      decisions: rows.decisions.map((d) => ({ ...(d as object), run_id: 'R' })),
    });
    const got = rowsOf(threaded.path, threaded.id);
    expect(got.cases).toHaveLength(12);
    expect(got.decisions.length).toBeGreaterThan(12);
    expect(got.duration).toBe(400);
    // The digests cover the run id, so the same cases in another run differ by digest only.
    const digestless = (rows: ReturnType<typeof rowsOf>) => ({
      ...strip(rows),
      cases: strip(rows).cases.map((c) => ({ ...c, digest: null })),
    });
    expect(digestless(got)).toEqual(digestless(rowsOf(inProcess.path, inProcess.id)));
    expect(threaded.store.runs.get(threaded.id)!.cases).toEqual([...cases.slice(0, 4), retry, ...cases.slice(5)]);
    expect(threaded.store.runs.check(threaded.id).problems).toEqual([]);
    threaded.store.close();
    inProcess.store.close();
  });

  it('resolves a batch only once it is committed, so another connection already reads it', async () => {
    const { path, store, id, config } = storeWithRun('visible.sqlite', 30);
    const writer = writerFor(path);
    const cases = casesOf(config.caseIds);
    const reader = new Database(path, { readonly: true });
    const count = () => (reader.prepare('SELECT count(*) AS n FROM cases WHERE run_id = ?').get(id) as { n: number }).n;
    try {
      for (let i = 0; i < 30; i += 10) {
        await writer.save(id, cases.slice(i, i + 10));
        expect(count()).toBe(i + 10);
      }
    } finally {
      reader.close();
    }
    store.close();
  });

  it('rejects a batch with a StoreWriteError naming the store and run when another process keeps the lock, keeping what it committed', async () => {
    const { path, store, id, config } = storeWithRun('locked.sqlite', 10);
    const writer = writerFor(path, { busyTimeoutMs: 50 });
    const cases = casesOf(config.caseIds);
    await writer.save(id, cases.slice(0, 4));
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    let err: unknown;
    try {
      await writer.save(id, cases.slice(4, 8)).catch((e: unknown) => (err = e));
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(err).toBeInstanceOf(StoreWriteError);
    expect((err as StoreWriteError).code).toBe('store_write_failed');
    expect((err as Error).message).toBe(
      `cannot save to run store ${path} (run ${id}): another process kept it locked for more than 0.05 s (database is locked)`,
    );
    // Nothing of the refused batch is kept; the committed one is.
    expect([...store.cases.savedIds(id, { includeFailed: true })].sort()).toEqual(config.caseIds.slice(0, 4));
    // The writer keeps going once the lock is released.
    await writer.save(id, cases.slice(4, 8));
    expect(store.cases.savedIds(id, { includeFailed: true }).size).toBe(8);
    store.close();
  });

  it("keeps a refusal's code: a case outside the run's case set, a run that is not stored", async () => {
    const { path, store, id } = storeWithRun('refused.sqlite', 3);
    const writer = writerFor(path);
    const outside = await writer.save(id, [answeredCase('other_case_000001', rightAnswers())]).catch((e: unknown) => e);
    expect(outside).toBeInstanceOf(DecidekitError);
    expect((outside as DecidekitError).code).toBe('invalid_run');
    expect((outside as Error).message).toBe(
      `cannot save case "other_case_000001": it is not in the case set of run ${id}`,
    );
    const unknown = await writer.save('20261201-000000-0000', casesOf(caseIdsOf(1))).catch((e: unknown) => e);
    expect((unknown as DecidekitError).code).toBe('unknown_run');
    expect(store.cases.savedIds(id, { includeFailed: true }).size).toBe(0);
    store.close();
  });

  it('shares one store with another writer thread and with saves in this thread', async () => {
    const path = join(dir, 'shared.sqlite');
    const store = openSqliteStore(path);
    const runs = [0, 1, 2].map((k) => {
      const config = runConfig({ caseIds: caseIdsOf(60) });
      return { config, id: store.runs.create({ config, label: `r${k}`, createdAt: '2026-12-01T05:00:00.000Z' }).id };
    });
    const [a, b] = [writerFor(path), writerFor(path)];
    const saving = [a, b].map(async (w, k) => {
      const { id, config } = runs[k]!;
      const cases = casesOf(config.caseIds);
      for (let i = 0; i < 60; i += 3) await w.save(id, cases.slice(i, i + 3));
    });
    const third = casesOf(runs[2]!.config.caseIds);
    for (let i = 0; i < 60; i += 3) {
      store.cases.save(runs[2]!.id, third.slice(i, i + 3));
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(saving);
    for (const { id } of runs) {
      expect(store.cases.savedIds(id, { includeFailed: true }).size).toBe(60);
      expect(store.runs.check(id).problems).toEqual([]);
    }
    store.close();
  });

  it('stays on this thread when asked, with the same results', async () => {
    const { path, store, id, config } = storeWithRun('inline.sqlite', 5);
    const writer = writerFor(path, { thread: 'inline' });
    expect(writer.thread).toBe('inline');
    const cases = casesOf(config.caseIds);
    await writer.save(id, cases, { durationMs: 7 });
    expect(store.runs.get(id)!.cases).toEqual(cases);
    expect(store.runs.head(id)!.durationMs).toBe(7);
    store.close();
  });
});
