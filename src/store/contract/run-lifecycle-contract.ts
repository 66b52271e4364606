/** The contract of `Store.runs` after creation: finished, interrupted, reopened, deleted, counted, checked, its statistics kept. */
import { describe, expect, it } from 'vitest';
import { createRunStatistics } from '../../core/bench/test-support/bench-run-fixture.js';
import { summarizeRun } from '../run-summary.js';
import { answeredCase, rightAnswers, runConfig, wrongAnswers } from '../test-support/run-fixtures.js';
import { errorOf, freshStorePerTest, seedFinished, type FreshStore } from './contract-support.js';

export function describeRunLifecycleContract(fresh: FreshStore): void {
  describe('runs: lifecycle', () => {
    const open = freshStorePerTest(fresh);

    it('rejects a summary whose status contradicts the finishing status', () => {
      const store = open();
      const config = runConfig();
      const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
      const summary = summarizeRun(config, []);
      expect(errorOf(() => store.runs.finish(head.id, { status: 'complete', durationMs: 1, summary })).code).toBe(
        'invalid_run',
      );
    });

    it('marks a running run interrupted with a summary of its saved cases, and leaves finished runs alone', () => {
      const store = open();
      const config = runConfig();
      const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
      const one = answeredCase(config.caseIds[1]!, wrongAnswers());
      store.cases.save(head.id, [one]);
      store.runs.markInterrupted(head.id);
      expect(store.runs.head(head.id)?.status).toBe('interrupted');
      expect(store.runs.get(head.id)!.summary).toEqual(summarizeRun(config, [one], { interrupted: true }));

      const finished = seedFinished(store);
      store.runs.markInterrupted(finished.head.id);
      expect(store.runs.head(finished.head.id)?.status).toBe('incomplete');
    });

    it('reopens a stored run for resuming and accepts its missing cases', () => {
      const store = open();
      const config = runConfig();
      const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
      store.cases.save(head.id, [answeredCase(config.caseIds[0]!, rightAnswers())]);
      store.runs.finish(head.id, {
        status: 'interrupted',
        durationMs: 50,
        summary: summarizeRun(config, store.runs.get(head.id)!.cases, { interrupted: true }),
      });
      store.runs.reopen(head.id);
      expect(store.runs.head(head.id)).toMatchObject({ status: 'running', durationMs: 50, headline: null });
      store.cases.save(head.id, [answeredCase(config.caseIds[1]!, rightAnswers())]);
      expect(store.cases.savedIds(head.id).size).toBe(2);
    });

    it('deletes a run with its cases, and says whether there was one', () => {
      const store = open();
      const { head } = seedFinished(store);
      const other = seedFinished(store, runConfig(), '2026-11-30T05:00:00.000Z');
      expect(store.runs.delete(head.id)).toBe(true);
      expect(store.runs.delete(head.id)).toBe(false);
      expect(store.runs.head(head.id)).toBeNull();
      expect(store.runs.get(head.id)).toBeNull();
      expect(store.runs.list().map((h) => h.id)).toEqual([other.head.id]);
      expect(store.runs.get(other.head.id)!.cases).toEqual(other.cases);
    });

    it('counts every run by status, whatever a list is limited to', () => {
      const store = open();
      seedFinished(store);
      seedFinished(store, runConfig(), '2026-11-30T05:00:00.000Z');
      const running = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T06:00:00Z' });
      store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T07:00:00Z' });
      store.runs.markInterrupted(running.id);
      expect(store.runs.count()).toEqual({ running: 1, complete: 0, incomplete: 2, interrupted: 1 });
      expect(store.runs.list({ limit: 1 })).toHaveLength(1);
    });

    it('keeps statistics with a finished run until its summary is written again', () => {
      const store = open();
      const { head } = seedFinished(store);
      expect(store.runs.statistics(head.id)).toBeNull();
      const statistics = createRunStatistics(store.runs.get(head.id)!);
      store.runs.saveStatistics(head.id, statistics);
      expect(store.runs.statistics(head.id)).toEqual(statistics);
      expect(store.runs.infoWithStatistics(head.id)).toEqual({ info: store.runs.info(head.id), statistics });
      store.runs.reopen(head.id);
      expect(store.runs.statistics(head.id)).toBeNull();
      // A run without a stored summary keeps none.
      store.runs.saveStatistics(head.id, statistics);
      expect(store.runs.statistics(head.id)).toBeNull();
      expect(errorOf(() => store.runs.statistics('20260101-000000-0000')).code).toBe('unknown_run');
      expect(store.runs.infoWithStatistics('20260101-000000-0000')).toBeNull();
    });

    it('finds nothing wrong in runs saved as they were', () => {
      const store = open();
      const { head } = seedFinished(store);
      const running = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T06:00:00Z' });
      store.cases.save(running.id, [answeredCase(runConfig().caseIds[0]!, rightAnswers())]);
      expect(store.runs.check(head.id)).toEqual({ id: head.id, status: 'incomplete', savedCases: 4, problems: [] });
      const all = store.check();
      expect(all.integrity).toEqual([]);
      expect(all.runs.map((r) => [r.id, r.problems])).toEqual([
        [head.id, []],
        [running.id, []],
      ]);
      expect(store.check({ runIds: [running.id] }).runs.map((r) => r.id)).toEqual([running.id]);
    });
  });
}

/** The contract of the notes of replicas set aside, kept with a run (`runs.noteSetAside`). */
export function describeReplicaNotesContract(fresh: FreshStore): void {
  describe('runs: replicas set aside', () => {
    const open = freshStorePerTest(fresh);

    it('keeps the notes of replicas set aside with the run, in order, through a resume and into its reads', () => {
      const store = open();
      const { head } = seedFinished(store);
      expect(store.runs.info(head.id)!.setAside).toBeUndefined();
      const first = {
        replica: 'http://127.0.0.1:9001',
        reason: 'nothing is listening at 127.0.0.1:9001; is the server running?',
        at: '2026-11-30T04:15:13.250Z',
        answeredCases: 9,
      };
      const second = {
        ...first,
        replica: 'http://127.0.0.1:9002',
        reason: '5 requests in a row failed (last: HTTP 503)',
        answeredCases: 0,
      };
      store.runs.noteSetAside(head.id, first);
      store.runs.reopen(head.id);
      store.runs.noteSetAside(head.id, second);
      expect(store.runs.info(head.id)!.setAside).toEqual([first, second]);
      expect(store.runs.get(head.id)!.setAside).toEqual([first, second]);
      expect(store.runs.infoWithStatistics(head.id)!.info.setAside).toEqual([first, second]);
      expect(errorOf(() => store.runs.noteSetAside('20260101-000000-0000', first)).code).toBe('unknown_run');
      // Another run keeps none.
      expect(
        store.runs.info(seedFinished(store, runConfig(), '2026-11-30T05:00:00.000Z').head.id)!.setAside,
      ).toBeUndefined();
    });
  });
}
