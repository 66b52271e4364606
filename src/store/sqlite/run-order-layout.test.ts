/**
 * A run's cases and decisions keyed in run order (schema version 11), and stores of every
 * older version migrated to it with every row, digest and read the same.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';
import {
  answeredCase,
  failedCase,
  rightAnswers,
  runConfig,
  wrongAnswers,
} from '../../core/bench/test-support/run-fixtures.js';
import { writeStoreAtVersion } from '../test-support/store-at-version.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { SCHEMA_VERSION } from './schema.js';

const dir = tempFolderRemovedAfterAll('decidekit-run-order-');

/** Ids in no useful order: `…~r10` sorts before `…~r2`, as a scale dataset's do. */
const ids = Array.from({ length: 12 }, (_, i) => `customer_service_${String(i % 3).padStart(3, '0')}~r${11 - i}`);

function runCases(): CaseResult[] {
  return ids.map((id, i) =>
    i % 4 === 3
      ? failedCase(id, i % 8 === 3 ? null : 40.5)
      : answeredCase(id, i === 1 ? wrongAnswers() : rightAnswers(i), 10 + i),
  );
}

/** The SQL that made each table and index of the store. */
function schemaOf(path: string): Map<string, string> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare('SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL').all() as {
      name: string;
      sql: string;
    }[];
    return new Map(rows.map((r) => [r.name, r.sql.replace(/\s+/g, ' ')]));
  } finally {
    db.close();
  }
}

/** A store as decidekit wrote it at schema `version`, its run of `ids` holding `cases`. */
function storeAtVersion(path: string, version: number, cases: readonly CaseResult[]): string {
  return writeStoreAtVersion(path, version, ids, cases);
}

/** The cases in save order: every other one first, then the rest backwards. */
function savedOutOfOrder(cases: readonly CaseResult[]): CaseResult[] {
  const even = cases.filter((_, i) => i % 2 === 0);
  const odd = cases.filter((_, i) => i % 2 === 1).reverse();
  return [...odd, ...even];
}

describe("a run's rows in run order", () => {
  it('key its cases by position and its decisions by their case position, with no key on the case id', () => {
    const path = join(dir, 'fresh.sqlite');
    const store = openSqliteStore(path);
    const cases = runCases();
    const { id } = store.runs.create({
      config: runConfig({ caseIds: ids }),
      label: null,
      createdAt: '2026-12-06T09:00:00.000Z',
    });
    store.cases.save(id, savedOutOfOrder(cases).slice(0, 5), { durationMs: 10 });
    store.cases.save(id, savedOutOfOrder(cases).slice(5), { durationMs: 20 });
    // A retry replaces a case: its row and its decisions stay at its position.
    store.cases.save(id, [answeredCase(ids[3]!, rightAnswers(3), 55.5, 66)], { durationMs: 30 });
    const expected = cases.map((c, i) => (i === 3 ? answeredCase(ids[3]!, rightAnswers(3), 55.5, 66) : c));
    expect(store.runs.get(id)!.cases).toEqual(expected);
    expect(store.runs.check(id).problems).toEqual([]);
    store.close();

    const schema = schemaOf(path);
    expect(schema.get('cases')).toContain('PRIMARY KEY (run_id, position)');
    expect(schema.get('decisions')).toMatch(/PRIMARY KEY \(run_id, case_position, position\).*\) WITHOUT ROWID$/);
    const indexed = [...schema.entries()].filter(
      ([, sql]) => /^CREATE (UNIQUE )?INDEX/.test(sql) && /ON (cases|decisions) /.test(sql),
    );
    expect(indexed).toEqual([]);
    const db = new Database(path, { readonly: true });
    const rows = db
      .prepare(
        'SELECT d.case_id AS d, c.case_id AS c FROM decisions d JOIN cases c ON c.run_id = d.run_id AND c.position = d.case_position WHERE d.run_id = ? ORDER BY d.case_position, d.position',
      )
      .all(id) as { d: string; c: string }[];
    db.close();
    expect(rows.every((r) => r.c === r.d)).toBe(true);
    expect(rows).toHaveLength(expected.reduce((n, c) => n + c.decisions.length, 0));
  });

  it.each(Array.from({ length: SCHEMA_VERSION - 1 }, (_, i) => i + 1))(
    'come from a version %i store, migrated, every case, decision and digest kept',
    (version) => {
      const path = join(dir, `v${version}.sqlite`);
      const cases = runCases();
      const id = storeAtVersion(path, version, savedOutOfOrder(cases));
      // Read read-only first: from an upgraded copy, the file left as it was.
      const before = readFileSync(path);
      const reader = openSqliteStore(path, { mustExist: true, readOnly: true });
      expect(reader.runs.get(id)!.cases).toEqual(cases);
      expect(reader.runs.statistics(id)).toBeNull();
      expect(reader.runs.check(id).problems).toEqual([]);
      reader.close();
      expect(readFileSync(path).equals(before)).toBe(true);

      const store = openSqliteStore(path, { mustExist: true });
      expect(store.runs.get(id)!.cases).toEqual(cases);
      expect([...store.cases.iterate(id)]).toEqual(cases);
      expect(store.runs.check(id).problems).toEqual([]);
      expect(store.check().integrity).toEqual([]);
      // Saving into the migrated run works, a retry included; deleting it removes every row.
      store.cases.save(id, [answeredCase(ids[0]!, wrongAnswers(), 1, 2)]);
      expect(store.runs.get(id)!.cases[0]).toEqual(answeredCase(ids[0]!, wrongAnswers(), 1, 2));
      expect(store.runs.check(id).problems).toEqual([]);
      expect(store.runs.delete(id)).toBe(true);
      store.close();

      const db = new Database(path, { readonly: true });
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT (SELECT count(*) FROM cases) + (SELECT count(*) FROM decisions) AS n').get()).toEqual({
        n: 0,
      });
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE '%by_case_id%'").get()).toEqual({
        n: 0,
      });
      db.close();
      expect(schemaOf(path).get('decisions')).toContain('WITHOUT ROWID');
    },
  );
});
