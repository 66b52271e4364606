/**
 * The paired bootstrap's numbers, pinned to the last digit on seeded samples large enough to
 * be dealt into blocks: with many questions (sparse ECE cells) and with one (dense cells).
 * However the resamples are summed, the same draws give the same bits.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../seeded-random.js';
import { pairedBootstrap } from './bootstrap.js';
import { CaseSampleBuilder, type CaseSample } from './case-sample.js';
import { withConventions } from './conventions.js';

function sampleOf(seed: number, cases: number, questions: number, skill: number): CaseSample {
  const random = createSeededRandom(seed);
  const b = new CaseSampleBuilder();
  for (let i = 0; i < cases; i++) {
    const n = 1 + Math.floor(random() * 4);
    const decisions = Array.from({ length: n }, (_, k) => {
      const confidence = 0.3 + random() * 0.7;
      return { confidence, hit: random() < confidence * skill, question: `q${(i + k) % questions}` };
    });
    const correct = decisions.filter((d) => d.hit).length;
    b.addCase(`case-${(i * 7919) % cases}`, {
      decisions: n,
      correct,
      answered: n,
      kl: random() * n,
      brier: decisions.reduce((s, d) => s + (d.hit ? (1 - d.confidence) ** 2 : d.confidence ** 2), 0),
      logLoss: random() * 2 * n,
    });
    for (const d of decisions) b.addDecision(d.confidence, d.hit, d.question);
  }
  return b.build();
}

const digest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

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
