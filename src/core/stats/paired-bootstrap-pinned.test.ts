/**
 * The bootstrap's numbers, pinned to the last digit on seeded samples: paired, large enough
 * to be dealt into blocks, with many questions (sparse ECE cells) and with one (dense cells);
 * runs over different cases, runs with failed decisions, runs small enough to resample case
 * by case, and one run's own intervals. However the resamples are summed, the same draws
 * give the same bits.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../seeded-random.js';
import { bootstrapIntervals, pairedBootstrap, STAT_METRICS, type StatMetric } from './bootstrap.js';
import { CaseSampleBuilder, type CaseSample } from './case-sample.js';
import { withConventions, type Conventions } from './conventions.js';

/** `failures`: the share of decisions that failed (counted, not answered). `from`: the first case number. */
function sampleOf(
  seed: number,
  cases: number,
  questions: number,
  skill: number,
  more: { readonly failures?: number; readonly from?: number } = {},
): CaseSample {
  const random = createSeededRandom(seed);
  const b = new CaseSampleBuilder();
  const from = more.from ?? 0;
  for (let i = from; i < from + cases; i++) {
    const n = 1 + Math.floor(random() * 4);
    const failed = more.failures !== undefined && random() < more.failures ? 1 : 0;
    const decisions = Array.from({ length: n - failed }, (_, k) => {
      const confidence = 0.3 + random() * 0.7;
      return { confidence, hit: random() < confidence * skill, question: `q${(i + k) % questions}` };
    });
    const correct = decisions.filter((d) => d.hit).length;
    b.addCase(`case-${(i * 7919) % (from + cases)}`, {
      decisions: n,
      correct,
      answered: n - failed,
      kl: random() * n,
      brier: decisions.reduce((s, d) => s + (d.hit ? (1 - d.confidence) ** 2 : d.confidence ** 2), 0),
      logLoss: random() * 2 * n,
    });
    for (const d of decisions) b.addDecision(d.confidence, d.hit, d.question);
  }
  return b.build();
}

const digest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const perQuestion: Conventions = withConventions({ seed: 5, eceAverage: 'per-question', eceBinning: 'equal-mass' });

describe('the paired bootstrap of two 15,000-case runs', () => {
  const conventions = withConventions({ seed: 11 });
  it('gives the same numbers with many questions', () => {
    const r = pairedBootstrap(sampleOf(1, 15_000, 40, 0.9), sampleOf(1, 15_000, 40, 1), conventions);
    expect(digest(r)).toBe('11d8361a4900e17db63cde7862be477072640b3a7892a694ed9ecc32f4f3a96e');
  });
  it('gives the same numbers with one question', () => {
    const r = pairedBootstrap(sampleOf(2, 15_000, 1, 1), sampleOf(2, 15_000, 1, 0.97), conventions);
    expect(digest(r)).toBe('0e09a58f0ba561575d64bd12f641e9d89075010de367fa9a3ab797f8027bd5aa');
  });
});

describe('the paired bootstrap of other runs', () => {
  it('gives the same numbers for runs over different cases', () => {
    const r = pairedBootstrap(
      sampleOf(3, 12_000, 1, 0.9),
      sampleOf(4, 12_000, 1, 1, { from: 300 }),
      withConventions({ seed: 2 }),
    );
    expect(r.onlyFirst + r.onlySecond).toBeGreaterThan(0);
    expect(digest(r)).toBe('c7990f6cb58c53c591d69cffacca8cff45e3c151a751ac65e2b7a444170c222c');
  });
  it('gives the same numbers for runs with failed decisions', () => {
    const r = pairedBootstrap(
      sampleOf(5, 12_000, 3, 0.9, { failures: 0.1 }),
      sampleOf(5, 12_000, 3, 1, { failures: 0.02 }),
      withConventions({ seed: 3 }),
    );
    expect(digest(r)).toBe('61ae0b23e50b863c9e4ce3f3be1152426dc8bb56ceccca2555feffe5838a9679');
  });
  it('gives the same numbers for runs resampled case by case, ECE per question', () => {
    const r = pairedBootstrap(sampleOf(6, 3_000, 7, 0.9), sampleOf(6, 3_000, 7, 1), perQuestion);
    expect(digest(r)).toBe('49881dbc63873866c11c7af6e80a7f5f49dd3381b007a4181f93071b90d7b2a3');
  });
});

describe("one run's bootstrap intervals", () => {
  it('gives the same numbers dealt into blocks', () => {
    expect(digest(bootstrapIntervals(sampleOf(7, 15_000, 1, 0.95), withConventions({ seed: 4 })))).toBe(
      'c3fb67c27d573b72d66c51e7f8c2e3d4e611fe512dfcc309aa136b34fb5b2eea',
    );
  });
  it('gives the same numbers case by case, ECE per question', () => {
    expect(digest(bootstrapIntervals(sampleOf(8, 2_500, 9, 0.95, { failures: 0.05 }), perQuestion))).toBe(
      '46673aa9342a27cbca4b595b906b9eb97e8264d6853795396d9087d33ee25cd4',
    );
  });
});

describe('the paired bootstrap of chosen metrics', () => {
  it("gives each chosen metric's interval to the last digit, and the others their numbers without one", () => {
    const first = sampleOf(9, 12_000, 1, 0.9);
    const second = sampleOf(9, 12_000, 1, 1);
    const conventions = withConventions({ seed: 6 });
    const all = pairedBootstrap(first, second, conventions);
    for (const chosen of [['accuracy'], ['kl', 'ece'], ['logLoss'], ['brier']] as const) {
      const some = pairedBootstrap(first, second, conventions, { metrics: chosen });
      for (const m of STAT_METRICS) {
        const { first: x, second: y, difference } = all.metrics[m];
        expect(some.metrics[m]).toEqual(
          (chosen as readonly StatMetric[]).includes(m)
            ? all.metrics[m]
            : { first: x, second: y, difference, interval: null, verdict: null },
        );
      }
    }
  });
});
