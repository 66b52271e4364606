/**
 * The contract of what a report of a big run reads from the store: the listings kept beside a
 * finished run's summary (`StoreRuns.saveListings`), and its cases from a place in the run on
 * (`StoreCases.iterate` with `fromPosition`, and a source's `from`).
 */
import { describe, expect, it } from 'vitest';
import { ListingsAccumulator } from '../../core/bench/run-listings.js';
import { runConfig } from '../test-support/run-fixtures.js';
import { errorOf, freshStorePerTest, seedFinished, type FreshStore } from './contract-support.js';

const CREATED = '2026-11-30T04:15:12Z';

export function describeReportReadsContract(fresh: FreshStore): void {
  describe('what reports read', () => {
    const open = freshStorePerTest(fresh);

    it('keeps the report listings of a finished run until its summary is written again', () => {
      const store = open();
      const { head, cases } = seedFinished(store);
      expect(store.runs.listings(head.id)).toBeNull();
      const gathered = new ListingsAccumulator();
      cases.forEach((c, position) => gathered.add(c, position));
      const listings = gathered.listings();
      store.runs.saveListings(head.id, listings);
      expect(store.runs.listings(head.id)).toEqual(listings);
      store.runs.finish(head.id, { status: 'incomplete', durationMs: 1, summary: store.runs.info(head.id)!.summary });
      expect(store.runs.listings(head.id)).toBeNull();
      store.runs.saveListings(head.id, listings);
      // New cases put the run back in running: what it listed goes with its summary.
      store.cases.save(head.id, [cases[1]!]);
      expect(store.runs.listings(head.id)).toBeNull();
      // A run without a stored summary keeps none.
      store.runs.saveListings(head.id, listings);
      expect(store.runs.listings(head.id)).toBeNull();
      const other = seedFinished(store, runConfig(), '2026-11-30T05:00:00.000Z');
      store.runs.saveListings(other.head.id, listings);
      store.runs.markInterrupted(other.head.id);
      expect(store.runs.listings(other.head.id)).toEqual(listings);
      store.runs.reopen(other.head.id);
      expect(store.runs.listings(other.head.id)).toBeNull();
      expect(errorOf(() => store.runs.listings('20260101-000000-0000')).code).toBe('unknown_run');
    });

    it('removes the listings kept with a run when the run is removed', () => {
      const store = open();
      const { head, cases } = seedFinished(store);
      const gathered = new ListingsAccumulator();
      cases.forEach((c, position) => gathered.add(c, position));
      store.runs.saveListings(head.id, gathered.listings());
      expect(store.runs.delete(head.id)).toBe(true);
      expect(errorOf(() => store.runs.listings(head.id)).code).toBe('unknown_run');
    });

    it('reads the cases from a place in the run on, skipping the places of cases never saved', () => {
      const store = open();
      const { head, cases } = seedFinished(store);
      // Without the case at position 1: a run whose second case was never sent.
      const config = runConfig();
      const gap = store.runs.create({ config, label: null, createdAt: CREATED });
      store.cases.save(gap.id, [cases[3]!, cases[0]!, cases[2]!]);
      expect([...store.cases.iterate(head.id, { fromPosition: 2 })]).toEqual([cases[2], cases[3]]);
      expect([...store.cases.iterate(head.id, { fromPosition: 0 })]).toEqual(cases);
      expect([...store.cases.iterate(head.id, { fromPosition: 4 })]).toEqual([]);
      expect([...store.cases.iterate(gap.id, { fromPosition: 1 })]).toEqual([cases[2], cases[3]]);
      const source = store.cases.source(head.id, 4);
      store.close();
      expect([...source.from!(3)]).toEqual([cases[3]]);
      expect([...source.from!(1)]).toEqual(cases.slice(1));
    });
  });
}
