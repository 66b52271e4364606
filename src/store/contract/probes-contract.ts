/** The contract of `Store.probes`: each probe kept whole. */
import { describe, expect, it } from 'vitest';
import { probeRun as run } from '../test-support/probe-fixture.js';
import { freshStorePerTest, type FreshStore } from './contract-support.js';

export function describeProbesContract(fresh: FreshStore): void {
  describe('probes', () => {
    const open = freshStorePerTest(fresh);

    it('keeps a probe whole and lists it newest first with its counts', () => {
      const s = open();
      const older = s.probes.save(run('2026-12-01T03:00:00.000Z', 0));
      const newer = s.probes.save(run('2026-12-01T04:00:00.000Z', 2));
      expect(newer).toMatch(/^probe-20261201-040000-[0-9a-f]{4}$/);
      expect(s.probes.get(older)).toEqual({ id: older, ...run('2026-12-01T03:00:00.000Z', 0) });
      expect(s.probes.get('probe-none')).toBeNull();
      expect(s.probes.list().map((h) => [h.id, h.conformance, h.robustness, h.cases, h.scope])).toEqual([
        [newer, { passed: 18, failed: 2, ran: 20 }, null, 2, 'conformance'],
        [older, { passed: 20, failed: 0, ran: 20 }, null, 2, 'conformance'],
      ]);
      expect(s.probes.list({ limit: 1 })).toHaveLength(1);
      expect(s.probes.count()).toBe(2);
    });

    it('refuses an endpoint that carries more than scheme, host, port and path', () => {
      const s = open();
      const bad = run('2026-12-01T03:00:00.000Z', 0);
      expect(() =>
        s.probes.save({ ...bad, config: { ...bad.config, endpoint: { ...bad.config.endpoint, host: 'u:p@h' } } }),
      ).toThrow(/more than scheme, host, port and path/);
      expect(s.probes.count()).toBe(0);
    });

    it('deletes one probe, and says whether there was one', () => {
      const s = open();
      const a = s.probes.save(run('2026-12-01T03:00:00.000Z', 0));
      const b = s.probes.save(run('2026-12-01T04:00:00.000Z', 1));
      expect(s.probes.delete(a)).toBe(true);
      expect(s.probes.delete(a)).toBe(false);
      expect(s.probes.get(a)).toBeNull();
      expect(s.probes.list().map((h) => h.id)).toEqual([b]);
    });
  });
}
