/** The contract of `Store.runs` creating runs: what a new run is, and what is refused. */
import { describe, expect, it } from 'vitest';
import { CASE_IDS, runConfig } from '../test-support/run-fixtures.js';
import { errorOf, freshStorePerTest, seedFinished, type FreshStore } from './contract-support.js';

export function describeRunsContract(fresh: FreshStore): void {
  describe('runs: creating', () => {
    const open = freshStorePerTest(fresh);

    it('keeps runs across reopening', () => {
      const { head } = seedFinished(open());
      expect(open().runs.head(head.id)?.status).toBe('incomplete');
    });

    it('marks filtered runs', () => {
      const head = open().runs.create({
        config: runConfig({ caseIds: CASE_IDS.slice(0, 2), filters: { limit: 2, workflow: null } }),
        label: null,
        createdAt: '2026-11-30T04:15:12Z',
      });
      expect(head.filtered).toBe(true);
    });

    it('rejects a creation time that is not a date', () => {
      expect(
        errorOf(() => open().runs.create({ config: runConfig(), label: null, createdAt: 'yesterday' })).message,
      ).toContain('"yesterday"');
    });

    it('refuses a case set that names a case twice', () => {
      const config = runConfig({ caseIds: [CASE_IDS[0]!, CASE_IDS[0]!] });
      const err = errorOf(() => open().runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' }));
      expect(err.code).toBe('invalid_run');
      expect(err.message).toContain('appears twice');
    });

    it('refuses an endpoint identity that carries a secret, without repeating it', () => {
      const SECRET = 'sekret-4f9a';
      const store = open();
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
    });
  });
}
