/** The contract of record ids (made, resolved across kinds) and of two connections to one store. */
import { describe, expect, it } from 'vitest';
import { AUDIT_CONFIG } from '../test-support/audit-fixture.js';
import { probeRun } from '../test-support/probe-fixture.js';
import { answeredCase, rightAnswers, runConfig } from '../test-support/run-fixtures.js';
import { errorOf, freshStorePerTest, type FreshStore } from './contract-support.js';

export function describeIdsContract(fresh: FreshStore): void {
  describe('ids', () => {
    const open = freshStorePerTest(fresh);

    it('makes sortable ids from the creation time and injected randomness', () => {
      const store = open({ randomBytes: () => Uint8Array.of(0xab, 0x12) });
      const head = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T04:15:12.345Z' });
      expect(head.id).toBe('20261130-041512-ab12');
      expect(store.audits.create({ config: AUDIT_CONFIG, label: null, createdAt: '2026-11-30T04:15:12Z' })).toBe(
        'audit-20261130-041512-ab12',
      );
      expect(store.probes.save(probeRun('2026-11-30T04:15:12Z', 0))).toBe('probe-20261130-041512-ab12');
    });

    it('draws again when two runs in the same second get the same id', () => {
      const draws = [Uint8Array.of(1, 2), Uint8Array.of(1, 2), Uint8Array.of(3, 4)];
      const store = open({ randomBytes: () => draws.shift()! });
      const a = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T04:15:12Z' });
      const b = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T04:15:12Z' });
      expect([a.id, b.id]).toEqual(['20261130-041512-0102', '20261130-041512-0304']);
    });

    it('resolves a full id, a unique prefix, and refuses ambiguous or unknown prefixes', () => {
      const bytes = [Uint8Array.of(0xab, 0x12), Uint8Array.of(0xab, 0x34), Uint8Array.of(0xcd, 0x00)];
      const store = open({ randomBytes: () => bytes.shift()! });
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
      // Prefixes match characters, not patterns: wildcards are ordinary characters.
      expect(errorOf(() => store.resolveId('%', 'run')).code).toBe('unknown_run');
      expect(errorOf(() => store.resolveId('2026_', 'run')).code).toBe('unknown_run');
    });

    it('resolves audit and probe ids with or without their kind, and names an id of another kind as such', () => {
      const store = open();
      const run = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T04:15:12Z' }).id;
      const audit = store.audits.create({ config: AUDIT_CONFIG, label: null, createdAt: '2026-11-30T05:00:00Z' });
      const probe = store.probes.save(probeRun('2026-11-30T06:00:00Z', 0));
      expect(store.resolveId(audit, 'audit')).toBe(audit);
      expect(store.resolveId(audit.slice('audit-'.length), 'audit')).toBe(audit);
      expect(store.resolveId('probe-20261130-06', 'probe')).toBe(probe);
      const asked = { command: 'runs show', storeArg: 'runs.sqlite' };
      const auditAsRun = errorOf(() => store.resolveId(audit, 'run', asked));
      expect(auditAsRun.code).toBe('unknown_run');
      expect(auditAsRun.message).toContain(
        `${audit} is an answer audit, not a bench run: 'runs show' takes bench runs only`,
      );
      expect(auditAsRun.message).toContain(`decidekit runs show ${audit} --store runs.sqlite`);
      expect(errorOf(() => store.resolveId(run, 'probe')).message).toContain(
        `${run} is a bench run, not a server probe`,
      );
      expect(errorOf(() => store.resolveId(probe, 'audit')).message).toContain(
        'is a server probe, not an answer audit',
      );
      expect(errorOf(() => store.resolveId('probe-1999', 'probe')).message).toContain('no probe "probe-1999"');
    });
  });

  describe('two connections to one store', () => {
    const open = freshStorePerTest(fresh);

    it('lets a second connection read a run while the first one is still saving cases', () => {
      const writer = open();
      const reader = open();
      const config = runConfig();
      const head = writer.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
      writer.cases.save(head.id, [answeredCase(config.caseIds[0]!, rightAnswers())]);
      expect(reader.runs.head(head.id)).toMatchObject({ status: 'running', savedCases: 1 });
      writer.cases.save(head.id, [answeredCase(config.caseIds[1]!, rightAnswers())]);
      expect(reader.cases.savedIds(head.id).size).toBe(2);
      expect(reader.runs.list().map((h) => h.id)).toEqual([head.id]);
    });

    it('takes saves to one run from both connections, and each reads what the other saved', () => {
      const a = open();
      const b = open();
      const config = runConfig();
      const head = a.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
      a.cases.save(head.id, [answeredCase(config.caseIds[0]!, rightAnswers())]);
      b.cases.save(head.id, [answeredCase(config.caseIds[1]!, rightAnswers(1))]);
      a.cases.save(head.id, [answeredCase(config.caseIds[2]!, rightAnswers(2))]);
      for (const s of [a, b]) expect(s.cases.savedIds(head.id).size).toBe(3);
      b.runs.markInterrupted(head.id);
      expect(a.runs.head(head.id)).toMatchObject({ status: 'interrupted', savedCases: 3 });
    });
  });
}
