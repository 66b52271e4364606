import { describe, expect, it } from 'vitest';
import { DEFAULT_CONVENTIONS } from '../stats/conventions.js';
import { offlineCaseSample, OfflineCaseRecord } from './case-record.js';
import { offlineIntervals, pairOffline } from './statistics.js';
import { summarizeOffline } from './summary.js';
import type { OfflineCase, OfflineResult } from './case.js';

describe('offline intervals', () => {
  const cases: OfflineCase[] = Array.from({ length: 200 }, (_, i) => ({
    id: `c${i}`,
    kind: 'yes_no',
    correct: i % 3 !== 0,
  }));
  const results = (shift: number): OfflineResult[] =>
    cases.map((c, i) => ({
      caseId: c.id,
      model: 'm',
      decision: { kind: 'yes_no', probability: ((i * 37 + shift) % 100) / 100 },
    }));
  it('records nothing without a case index', () => {
    const record = new OfflineCaseRecord(cases.length);
    const rs = results(0);
    summarizeOffline(
      cases.map((c, i) => ({ case: c, result: rs[i]! })),
      { record },
    );
    expect(record.decided.reduce((x, y) => x + y, 0)).toBe(0);
  });

  it('records each decision by case index and puts intervals around the summary’s numbers', async () => {
    const { createOfflineAccumulator } = await import('./summary.js');
    const record = new OfflineCaseRecord(cases.length);
    const acc = createOfflineAccumulator({ record });
    const rs = results(0);
    cases.forEach((c, i) => acc.add(c, rs[i]!, i));
    const summary = acc.summarize(cases.length);
    expect(record.decided.reduce((a, b) => a + b, 0)).toBe(200);
    expect(record.hit.reduce((a, b) => a + b, 0)).toBe(summary.counts.nCorrect);
    const sample = offlineCaseSample(record, { ids: cases.map((c) => c.id), questionOf: () => '' });
    const stats = offlineIntervals(summary, sample, DEFAULT_CONVENTIONS);
    for (const [m, v] of [
      ['accuracy', summary.accuracy],
      ['brier', summary.brier],
      ['logLoss', summary.logLoss],
      ['ece', summary.ece],
    ] as const) {
      expect(stats.intervals[m]!.low).toBeLessThanOrEqual(v!);
      expect(stats.intervals[m]!.high).toBeGreaterThanOrEqual(v!);
    }
    expect(stats.noiseFloor!.withinNoise).toBe(summary.ece! <= stats.noiseFloor!.p95);
  });

  it('counts McNemar’s discordant decisions by case', async () => {
    const { createOfflineAccumulator } = await import('./summary.js');
    const keys = { ids: cases.map((c) => c.id), questionOf: () => '' };
    const kept = (shift: number) => {
      const record = new OfflineCaseRecord(cases.length);
      const acc = createOfflineAccumulator({ record });
      const rs = results(shift);
      cases.forEach((c, i) => acc.add(c, rs[i]!, i));
      return { record, sample: offlineCaseSample(record, keys) };
    };
    const a = kept(0);
    const b = kept(13);
    let onlyA = 0;
    let onlyB = 0;
    for (let i = 0; i < cases.length; i++) {
      if (a.record.hit[i]! > b.record.hit[i]!) onlyA++;
      if (b.record.hit[i]! > a.record.hit[i]!) onlyB++;
    }
    const p = pairOffline(a, b, DEFAULT_CONVENTIONS);
    expect(p.mcnemar.onlyFirstCorrect).toBe(onlyA);
    expect(p.mcnemar.onlySecondCorrect).toBe(onlyB);
    expect(p.paired.metrics.accuracy.difference).toBeCloseTo((onlyB - onlyA) / 200, 12);
  });
});
