/** The contract of reading runs back: exactly as saved, whole or without their cases, listed newest first. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreCase } from '../../core/typed-decisions/case-result.js';
import { summarizeRun } from '../run-summary.js';
import { answeredCase, benchCase, headlineOf, rightAnswers, runConfig } from '../test-support/run-fixtures.js';
import { freshStorePerTest, seedFinished, type FreshStore } from './contract-support.js';

export function describeRunReadsContract(fresh: FreshStore): void {
  describe('reading runs', () => {
    const open = freshStorePerTest(fresh);

    it('returns the saved cases, config and summary unchanged, in case-set order', () => {
      const store = open();
      const config = runConfig();
      const { head, cases, summary } = seedFinished(store, config);
      const run = store.runs.get(head.id)!;
      expect(run.cases).toEqual(cases);
      expect(run.config).toEqual(config);
      expect(run.summary).toEqual(summary);
      expect(summarizeRun(run.config, run.cases)).toEqual(run.summary);
      expect(run).toMatchObject({
        id: head.id,
        createdAt: '2026-11-30T04:15:12.000Z',
        durationMs: 1234.5,
        label: 'baseline',
        fingerprint: head.fingerprint,
      });
    });

    it('reads back every double exactly (property)', () => {
      const store = open();
      const unit = fc.double({ min: 0, max: 1, noNaN: true });
      const dist = (n: number) => fc.array(unit, { minLength: n, maxLength: n });
      let k = 0;
      fc.assert(
        fc.property(
          dist(2),
          dist(3),
          dist(3),
          fc.double({ min: 0, max: 1e7, noNaN: true }),
          (p1, p2, p3, latencyMs) => {
            const id = `customer_service_${String(++k).padStart(6, '0')}`;
            const config = runConfig({ caseIds: [id] });
            const head = store.runs.create({ config, label: null, createdAt: '2026-01-01T00:00:00Z' });
            const result = scoreCase(benchCase(id), {
              status: 'answered',
              latencyMs,
              inputTokens: 7,
              predicted: [p1, p2, p3],
            });
            store.cases.save(head.id, [result]);
            expect(store.runs.get(head.id)!.cases).toEqual([result]);
          },
        ),
        { seed: 42, numRuns: 60 },
      );
    });

    it('computes a summary for a run that is still running', () => {
      const store = open();
      const config = runConfig();
      const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
      const one = answeredCase(config.caseIds[0]!, rightAnswers());
      store.cases.save(head.id, [one]);
      const run = store.runs.get(head.id)!;
      expect(run.summary).toEqual(summarizeRun(config, [one]));
      expect(run.summary.status).toBe('incomplete');
      expect(store.runs.head(head.id)).toMatchObject({
        status: 'running',
        savedCases: 1,
        caseCount: 4,
        headline: null,
      });
    });

    it('returns null for an unknown run', () => {
      const store = open();
      expect(store.runs.get('20260101-000000-0000')).toBeNull();
      expect(store.runs.head('20260101-000000-0000')).toBeNull();
      expect(store.runs.info('20260101-000000-0000')).toBeNull();
    });

    it('gives a run without its cases: the stored summary, or one computed for a running run', () => {
      const store = open();
      const { head, summary } = seedFinished(store);
      const { cases: _cases, ...info } = store.runs.get(head.id)!;
      expect(store.runs.info(head.id)).toEqual(info);
      expect(info.summary).toEqual(summary);
      store.runs.reopen(head.id);
      const running = store.runs.info(head.id)!;
      expect(running.summary).toEqual(summarizeRun(running.config, store.runs.get(head.id)!.cases));
      expect(store.runs.info('nope')).toBeNull();
    });

    it('lists newest first with headline metrics from the summary, and honours the limit', () => {
      const store = open();
      const older = seedFinished(store, runConfig(), '2026-11-29T23:59:59Z');
      const newer = seedFinished(store, runConfig({ model: 'other' }), '2026-11-30T08:00:00+02:00');
      const running = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T07:00:00Z' });
      const list = store.runs.list();
      expect(list.map((h) => h.id)).toEqual([running.id, newer.head.id, older.head.id]);
      expect(list[1]!.headline).toEqual(headlineOf(newer.summary));
      expect(list[1]).toMatchObject({
        model: 'other',
        savedCases: 4,
        caseCount: 4,
        filtered: false,
        label: 'baseline',
        durationMs: 1234.5,
      });
      expect(list[0]!.headline).toBeNull();
      expect(store.runs.list({ limit: 1 }).map((h) => h.id)).toEqual([running.id]);
    });
  });
}
