import { describe, expect, it } from 'vitest';
import { CaseSampleBuilder, type CaseSample } from './case-sample.js';

/** Feeds `cases` cases of 0-3 decisions each, numbers derived from the index. */
function fill(builder: CaseSampleBuilder, cases: number): CaseSampleBuilder {
  for (let i = 0; i < cases; i++) {
    const decisions = i % 4;
    builder.addCase(`case-${i}`, {
      decisions,
      correct: decisions === 0 ? 0 : i % 2,
      answered: decisions,
      kl: i / 7,
      brier: i / 11,
      logLoss: i / 13,
    });
    for (let d = 0; d < decisions; d++) builder.addDecision(((i + d) % 10) / 10, (i + d) % 3 === 0, `w/q${d}`);
  }
  return builder;
}

/** The sample with its columns as plain arrays (typed arrays of different lengths compare by value). */
const plain = (s: CaseSample) =>
  Object.fromEntries(Object.entries(s).map(([k, v]) => [k, ArrayBuffer.isView(v) ? [...(v as Float64Array)] : v]));

describe('CaseSampleBuilder', () => {
  it('gives the same sample whatever it expected: exact, too few (its columns grow) or none', () => {
    const reference = plain(fill(new CaseSampleBuilder(), 300).build());
    expect(reference.nCases).toBe(300);
    expect(reference.nDecisions).toBe(75 * (0 + 1 + 2 + 3));
    for (const expected of [
      { cases: 300, decisions: 450 },
      { cases: 20, decisions: 20 },
      { cases: 5000, decisions: 9000 },
    ])
      expect(plain(fill(new CaseSampleBuilder(expected), 300).build())).toEqual(reference);
  });

  it('sizes a built sample to what was added, not to what was expected', () => {
    const sample = fill(new CaseSampleBuilder({ cases: 5000, decisions: 9000 }), 10).build();
    expect(sample.decisions).toHaveLength(10);
    expect(sample.confidence).toHaveLength(0 + 1 + 2 + 3 + 0 + 1 + 2 + 3 + 0 + 1);
    expect([...sample.kl]).toEqual(Array.from({ length: 10 }, (_, i) => i / 7));
  });
});
