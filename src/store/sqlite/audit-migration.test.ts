import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { runConfig } from '../test-support/run-fixtures.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { AUDIT_CONFIG as CONFIG } from '../test-support/audit-fixture.js';

const dir = tempFolderRemovedAfterAll('decidekit-audit-store-');

describe('the audit tables in SQLite', () => {
  it('migrates a version-1 run store to the audit tables and keeps its runs', () => {
    const path = join(dir, 'v1.sqlite');
    const db = new Database(path);
    db.exec(MIGRATIONS[0]!);
    db.pragma('user_version = 1');
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.close();
    const runs = openSqliteStore(path);
    const head = runs.runs.create({ config: runConfig(), label: 'old', createdAt: '2026-11-30T04:15:12.000Z' });
    runs.close();
    const audits = openSqliteStore(path, { mustExist: true });
    audits.audits.create({ config: CONFIG, label: null, createdAt: '2026-12-01T00:15:00.000Z' });
    expect(audits.audits.list().length).toBe(1);
    audits.close();
    const again = openSqliteStore(path, { mustExist: true });
    expect(again.runs.list().map((r) => r.id)).toEqual([head.id]);
    again.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    check.close();
  });
});
