/** The contract of `Store.audits`: planned audits checkpointed, verdicts saved one at a time. */
import { describe, expect, it } from 'vitest';
import type { AuditItem, AuditRecord } from '../../core/audit/run.js';
import { AUDIT_CONFIG as CONFIG } from '../test-support/audit-fixture.js';
import { errorOf, freshStorePerTest, type FreshStore } from './contract-support.js';

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

export function describeAuditsContract(fresh: FreshStore): void {
  describe('audits', () => {
    const open = freshStorePerTest(fresh);

    it('keeps planned audits pending until judged, then reads verdicts and probes back exactly', () => {
      const s = open();
      const id = s.audits.create({ config: CONFIG, label: 'nightly', createdAt: '2026-12-01T00:15:00.000Z' });
      expect(id).toMatch(/^audit-20261201-001500-[0-9a-f]{4}$/);
      s.audits.savePending(id, [
        { position: 0, item: item('t1') },
        { position: 1, item: item('t2', 'not_claimed') },
        { position: 2, item: item('t3') },
      ]);
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
    });

    it('refuses an endpoint identity that could carry a secret', () => {
      const s = open();
      expect(() =>
        s.audits.create({
          config: { ...CONFIG, judgeEndpoint: { ...CONFIG.judgeEndpoint, host: 'user:pw@host' } },
          label: null,
          createdAt: '2026-12-01T00:15:00.000Z',
        }),
      ).toThrow(/judge endpoint carries more/);
      expect(s.audits.list()).toEqual([]);
    });

    it('reopens an audit with the config it continues with, and deletes one with its verdicts', () => {
      const s = open();
      const id = s.audits.create({ config: CONFIG, label: null, createdAt: '2026-12-01T00:15:00.000Z' });
      const other = s.audits.create({ config: CONFIG, label: null, createdAt: '2026-12-01T01:15:00.000Z' });
      s.audits.savePending(id, [{ position: 0, item: item('t1') }]);
      s.audits.saveRecord(id, agrees);
      s.audits.finish(id, { status: 'complete', durationMs: 5 });
      s.audits.reopen(id, { ...CONFIG, judgeModel: 'judge-2' });
      expect(s.audits.get(id)).toMatchObject({ status: 'running', config: { judgeModel: 'judge-2' } });
      expect(s.audits.get(id)!.records).toEqual([agrees]);
      expect(s.audits.count()).toEqual({ running: 2, complete: 0, incomplete: 0, interrupted: 0 });
      expect(s.audits.delete(id)).toBe(true);
      expect(s.audits.delete(id)).toBe(false);
      expect(s.audits.get(id)).toBeNull();
      expect(s.audits.list().map((a) => a.id)).toEqual([other]);
      expect(errorOf(() => s.audits.finish(id, { status: 'complete', durationMs: 1 })).code).toBe('unknown_run');
    });
  });
}
