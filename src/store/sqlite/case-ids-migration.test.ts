import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../../core/bench/run.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';
import { answeredCase, rightAnswers, runConfig } from '../../core/bench/test-support/run-fixtures.js';
import { fingerprintOf } from '../fingerprint.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './schema.js';

const dir = tempFolderRemovedAfterAll('decidekit-case-ids-');

const idsOf = (n: number) => Array.from({ length: n }, (_, i) => `case_${String(n - i).padStart(6, '0')}`);

/** The stored configuration text of a run, as its `runs` row holds it. */
function storedConfigText(path: string, runId: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT config_json FROM runs WHERE id = ?').get(runId) as { config_json: string }).config_json;
  } finally {
    db.close();
  }
}

/**
 * A store as the schema before the case ids left the run row made it: the run's
 * configuration with every case id, and its positions in `run_cases`.
 */
function storeOfPreviousSchema(path: string, config: RunConfig): string {
  const db = new Database(path);
  for (const migration of MIGRATIONS.slice(0, 7)) db.exec(migration);
  db.pragma('user_version = 7');
  db.pragma(`application_id = ${APPLICATION_ID}`);
  const id = '20261130-041512-abcd';
  db.prepare(
    `INSERT INTO runs (id, created_at, created_ms, status, label, fingerprint, tool_version, model, endpoint_scheme,
      endpoint_host, endpoint_port, endpoint_path, dataset_id, dataset_revision, dataset_split, dataset_synthetic,
      case_count, filtered, config_json)
    VALUES (?, '2026-11-30T04:15:12.000Z', 1764476112000, 'running', 'old', ?, ?, ?, 'http', '127.0.0.1', 8080,
      '/v1/systemone', ?, ?, ?, 1, ?, 0, ?)`,
  ).run(
    id,
    fingerprintOf(config),
    config.toolVersion,
    config.model,
    config.dataset.id,
    config.dataset.revision,
    config.dataset.split,
    config.caseIds.length,
    JSON.stringify(config),
  );
  const position = db.prepare('INSERT INTO run_cases (run_id, case_id, position) VALUES (?, ?, ?)');
  config.caseIds.forEach((caseId, i) => position.run(id, caseId, i));
  // Two failed cases, saved out of run order, with one and two decisions.
  const insertCase = db.prepare(
    `INSERT INTO cases (run_id, case_id, position, workflow, request_status, latency_ms, error_kind, error_message)
    VALUES (?, ?, ?, 'customer_service', 'failed', 5, 'timeout', 'no answer')`,
  );
  const insertDecision = db.prepare(
    `INSERT INTO decisions (run_id, case_id, position, question_id, type, answers_json, gold_label,
      gold_probabilities_json, status, error_kind, error_message)
    VALUES (?, ?, ?, ?, 'noul', '["yes","no"]', 'yes', '[1,0]', 'failed', 'timeout', 'no answer')`,
  );
  insertCase.run(id, config.caseIds[5], 5);
  insertDecision.run(id, config.caseIds[5], 0, 'urgent');
  insertDecision.run(id, config.caseIds[5], 1, 'route');
  insertCase.run(id, config.caseIds[2], 2);
  insertDecision.run(id, config.caseIds[2], 0, 'urgent');
  db.close();
  return id;
}

describe("a run's case ids", () => {
  it('stay out of the run row, which does not grow with the case count', () => {
    const path = join(dir, 'sizes.sqlite');
    const store = openSqliteStore(path);
    const small = runConfig({ caseIds: idsOf(4) });
    const big = runConfig({ caseIds: idsOf(5000) });
    const a = store.runs.create({ config: small, label: null, createdAt: '2026-12-01T05:00:00.000Z' });
    const b = store.runs.create({ config: big, label: null, createdAt: '2026-12-01T05:00:01.000Z' });
    expect(storedConfigText(path, b.id).length).toBe(storedConfigText(path, a.id).length);
    // Read back in their order, the configuration's keys in theirs.
    expect(JSON.stringify(store.runs.info(b.id)!.config)).toBe(JSON.stringify(big));
    expect(store.runs.get(a.id)!.config).toEqual(small);
    store.cases.save(b.id, [answeredCase(big.caseIds[4999]!, rightAnswers())]);
    expect(store.runs.get(b.id)!.cases.map((c) => c.caseId)).toEqual([big.caseIds[4999]]);
    expect(store.runs.check(b.id).problems).toEqual([]);
    store.close();
  });

  it('move out of the run row of a store made by the previous schema, which reads the same', () => {
    const path = join(dir, 'v7.sqlite');
    const config = runConfig({ caseIds: idsOf(300), timeoutMs: 0.1 + 0.2 });
    const id = storeOfPreviousSchema(path, config);
    // Read in place (read-only): the old row still holds the ids.
    const reader = openSqliteStore(path, { mustExist: true, readOnly: true });
    expect(JSON.stringify(reader.runs.info(id)!.config)).toBe(JSON.stringify(config));
    // Without the index of run order, the same reads sort instead.
    const inPlace = [...reader.cases.iterate(id)];
    expect(inPlace.map((c) => [c.caseId, c.decisions.map((d) => d.questionId)])).toEqual([
      [config.caseIds[2], ['urgent']],
      [config.caseIds[5], ['urgent', 'route']],
    ]);
    reader.close();
    const store = openSqliteStore(path, { mustExist: true });
    expect(JSON.stringify(store.runs.info(id)!.config)).toBe(JSON.stringify(config));
    expect(storedConfigText(path, id)).toBe(JSON.stringify({ ...config, caseIds: [] }));
    store.cases.save(id, [answeredCase(config.caseIds[7]!, rightAnswers())]);
    expect(store.runs.get(id)!.cases.map((c) => c.caseId)).toEqual([2, 5, 7].map((i) => config.caseIds[i]));
    expect([...store.cases.iterate(id)]).toEqual(store.runs.get(id)!.cases);
    store.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    check.close();
  });
});
