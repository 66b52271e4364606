import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { AuditItem, AuditRecord } from '../../core/audit/run.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { runConfig } from '../test-support/run-fixtures.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { AUDIT_CONFIG as CONFIG } from '../test-support/audit-fixture.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-audit-store-');

const item = (transcriptId: string, label = 'claimed'): AuditItem => ({
  transcriptId,
  tags: ['injection'],
  checkId: 'claim-v1',
  questionSha256: 'a'.repeat(64),
  scope: 'messages',
  questionJson: '{"type":"choice"}',
  input: `{"state":"${transcriptId}"}`,
  label,
});

describe('the audit store', () => {
  it('keeps planned audits pending until judged, then reads verdicts and probes back exactly', () => {
    const path = join(dir, 'a.sqlite');
    const s = openSqliteStore(path);
    const id = s.audits.create({ config: CONFIG, label: 'nightly', createdAt: '2026-12-01T00:15:00.000Z' });
    expect(id).toMatch(/^audit-20261201-001500-[0-9a-f]{4}$/);
    s.audits.savePending(id, [
      { position: 0, item: item('t1') },
      { position: 1, item: item('t2', 'not_claimed') },
      { position: 2, item: item('t3') },
    ]);
    const agrees: AuditRecord = {
      ...item('t1'),
      outcome: { status: 'agrees', answer: { choice: 'claimed', probabilities: { claimed: 0.7, not_claimed: 0.3 } } },
      elapsedMs: 12.5,
      orderSwap: {
        kind: 'answered',
        answer: { choice: 'not_claimed', probabilities: { not_claimed: 0.6, claimed: 0.4 } },
        elapsedMs: 3,
      },
    };
    const unavailable: AuditRecord = {
      ...item('t2', 'not_claimed'),
      outcome: { status: 'unavailable', reason: 'timeout', message: 'no valid answer within the 10 s deadline' },
      elapsedMs: 10_000,
      orderSwap: null,
    };
    s.audits.saveRecord(id, agrees);
    s.audits.saveRecord(id, unavailable);
    const run = s.audits.get(id)!;
    expect(run.records).toEqual([agrees, unavailable]);
    expect(run.pending.map((p) => p.transcriptId)).toEqual(['t3']);
    expect(run.summary.counts).toEqual({ agrees: 1, disagrees: 0, abstained: 0, unavailable: 1 });
    expect(run.summary.checks[0]!.orderProbe).toEqual({ pairs: 1, flipRate: 1, flipped: ['t1'] });
    expect(s.audits.list()[0]).toMatchObject({
      kind: 'audit',
      id,
      status: 'running',
      planned: 3,
      finished: 2,
      counts: null,
      noVerdict: null,
    });
    s.audits.finish(id, { status: 'interrupted', durationMs: 42 });
    expect(s.audits.list()[0]).toMatchObject({
      status: 'interrupted',
      counts: { agrees: 1, disagrees: 0, abstained: 0, unavailable: 1 },
      noVerdict: 1,
      durationMs: 42,
    });
    expect(s.resolveId(id.slice('audit-'.length, 'audit-'.length + 8), 'audit')).toBe(id);
    expect(() => s.resolveId('1999', 'audit')).toThrow(/no audit "1999"/);
    expect(() => s.audits.saveRecord(id, { ...unavailable, transcriptId: 'never-planned' })).toThrow(/never planned/);
    s.close();
  });

  it('refuses an endpoint identity that could carry a secret', () => {
    const s = openSqliteStore(join(dir, 'b.sqlite'));
    expect(() =>
      s.audits.create({
        config: { ...CONFIG, judgeEndpoint: { ...CONFIG.judgeEndpoint, host: 'user:pw@host' } },
        label: null,
        createdAt: '2026-12-01T00:15:00.000Z',
      }),
    ).toThrow(/judge endpoint carries more/);
    s.close();
  });

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
