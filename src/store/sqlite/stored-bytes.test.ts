/**
 * The bytes a save stores, pinned: every column of every `cases` and `decisions` row of a
 * fixed run, with SQLite's own storage class (`quote()` tells 1 from 1.0 and text from a
 * number), and each case's digest, hashed and compared with the value recorded when this
 * test was written. A faster save must keep all of them, whichever thread commits it.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { scoreCase, type CaseResult } from '../../core/typed-decisions/case-result.js';
import { tempFoldersRemovedAfterEach } from '../../datasets/test-support/temp-folders.js';
import {
  answeredCase,
  benchCase,
  failedCase,
  rightAnswers,
  runConfig,
  wrongAnswers,
} from '../test-support/run-fixtures.js';
import { startCaseWriter } from '../writer/case-writer.js';
import { openSqliteStore } from './open-sqlite-store.js';

const freshFolder = tempFoldersRemovedAfterEach('decidekit-stored-bytes-');
let dir: string;
beforeEach(() => {
  dir = freshFolder();
});

const ids = Array.from({ length: 9 }, (_, i) => `customer_service_${String(i + 1).padStart(6, '0')}`);

/** Answered (right, wrong, with and without tokens and a model), failed with and without a latency, a quote and non-ASCII text. */
function fixedCases(): CaseResult[] {
  const withModel = scoreCase(benchCase(ids[2]!), {
    status: 'answered',
    latencyMs: 7,
    inputTokens: 12,
    predicted: rightAnswers(2),
    model: 'laya-mini-2026 "é"',
  });
  const oddFailure = scoreCase(benchCase(ids[7]!, 'billing'), {
    status: 'failed',
    failure: { kind: 'http', message: 'HTTP 503: “busy” \u2028 line\nnext' },
    latencyMs: 0.1 + 0.2,
  });
  return [
    answeredCase(ids[0]!, rightAnswers(0), 120.25, 321),
    answeredCase(ids[1]!, wrongAnswers(), 10, null),
    withModel,
    failedCase(ids[3]!, null),
    answeredCase(ids[4]!, rightAnswers(4), 1e-7, 0),
    failedCase(ids[5]!, 40.5),
    answeredCase(ids[6]!, rightAnswers(6), 123456.789, 2 ** 40),
    oddFailure,
    answeredCase(ids[8]!, rightAnswers(8), 3, 4),
  ];
}

/**
 * Every column of the run's rows as SQLite quotes them, in a stable order (the run id replaced).
 * The replica column, added after the pin, must be null in every row of a run on one server
 * and is left out, so the pin still covers every byte those rows held before. So is a
 * decision's case position, added when the decisions were keyed in run order: it must be its
 * case's position (the cases' rows, pinned, hold that).
 */
function quotedRows(path: string, runId: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const withReplica = db.prepare('SELECT count(*) AS n FROM cases WHERE run_id = ? AND replica IS NOT NULL');
    expect((withReplica.get(runId) as { n: number }).n).toBe(0);
    const misplaced = db.prepare(
      `SELECT count(*) AS n FROM decisions d WHERE run_id = ? AND NOT EXISTS
        (SELECT 1 FROM cases c WHERE c.run_id = d.run_id AND c.position = d.case_position AND c.case_id = d.case_id)`,
    );
    expect((misplaced.get(runId) as { n: number }).n).toBe(0);
    const quoted = (table: string, order: string) => {
      const columns = (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[])
        .map((c) => c.name)
        .filter((c) => c !== 'run_id' && c !== 'replica' && c !== 'case_position');
      const sql = `SELECT ${columns.map((c) => `quote(${c})`).join(" || '|' || ")} AS row FROM ${table} WHERE run_id = ? ORDER BY ${order}`;
      return (db.prepare(sql).all(runId) as { row: string }[]).map((r) => r.row).join('\n');
    };
    return `${quoted('cases', 'position')}\n--\n${quoted('decisions', 'case_id, position')}`;
  } finally {
    db.close();
  }
}

/** The digests depend on the run id: a fixed one keeps them fixed. */
function storeWithFixedRun(name: string) {
  const path = join(dir, name);
  const store = openSqliteStore(path, { randomBytes: () => new Uint8Array([0xab, 0xcd]) });
  const { id } = store.runs.create({
    config: runConfig({ caseIds: ids }),
    label: null,
    createdAt: '2026-12-01T05:00:00.000Z',
  });
  return { path, store, id };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Recorded from the store's save before its writer was made faster. */
const PINNED = {
  runId: '20261201-050000-abcd',
  rows: '2e97b3671f99ef09c2151ee2a38f902d2e3f3625bd2b06ddf754d5502ae2c468',
};

describe('the bytes a save stores', () => {
  it('are the pinned ones, saved in process in batches with a retried case', () => {
    const { path, store, id } = storeWithFixedRun('in-process.sqlite');
    const cases = fixedCases();
    store.cases.save(id, cases.slice(0, 4), { durationMs: 10 });
    store.cases.save(id, cases.slice(4), { durationMs: 20 });
    // A retry replaces the first result of a case.
    store.cases.save(id, [answeredCase(ids[3]!, rightAnswers(3), 55.5, 66)], { durationMs: 30 });
    store.close();
    expect(id).toBe(PINNED.runId);
    expect(sha256(quotedRows(path, id))).toBe(PINNED.rows);
  });

  it('are the same from the writer thread', async () => {
    const { path, store, id } = storeWithFixedRun('threaded.sqlite');
    store.close();
    const cases = fixedCases();
    const writer = startCaseWriter(path);
    try {
      expect(writer.thread).toBe('worker');
      await writer.save(id, cases.slice(0, 4), { durationMs: 10 });
      await writer.save(id, cases.slice(4), { durationMs: 20 });
      await writer.save(id, [answeredCase(ids[3]!, rightAnswers(3), 55.5, 66)], { durationMs: 30 });
    } finally {
      await writer.close();
    }
    expect(sha256(quotedRows(path, id))).toBe(PINNED.rows);
  });
});
