import { describe, expect, it } from 'vitest';
import { summarizeRobustness, totalVariation, type DecisionPair, type ProbePairs } from './robustness.js';

const NO_LOSS = { requests: 0, decisions: 0 };
let n = 0;
function pair(before: number[], after: number[], caseId = `c${n++}`): DecisionPair {
  return {
    caseId,
    questionId: 'q',
    type: 'choice',
    answers: ['a', 'b', 'c'].slice(0, before.length),
    goldIndex: 0,
    variant: 'v',
    before,
    after,
  };
}
const same = (k: number) => Array.from({ length: k }, () => pair([0.6, 0.4], [0.6, 0.4]));
const probes = (over: Partial<Record<string, DecisionPair[]>>): Record<string, ProbePairs> =>
  Object.fromEntries(
    ['determinism', 'stale-cache', 'question-order', 'question-names', 'isolation', 'option-order'].map((id) => [
      id,
      { pairs: over[id] ?? same(40), lost: NO_LOSS },
    ]),
  );

describe('summarizeRobustness', () => {
  it('passes every probe of a server whose answers never move, with a deterministic zero floor', () => {
    const s = summarizeRobustness(probes({}), { seed: 1, resamples: 200 });
    expect(s.probes.map((p) => p.verdict)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
    expect(s.noiseFloor).toMatchObject({ deterministic: true, flipRate: { value: 0 }, meanTv: { value: 0 } });
    // 0 flips in 40 pairs still has an upper bound (Wilson).
    expect(s.probes[2]!.flipRate!.interval!.high).toBeGreaterThan(0.05);
  });

  it('fails a probe on a single flip when repeats never move, and shows that pair first', () => {
    const flipped = [...same(39), pair([0.55, 0.45], [0.45, 0.55], 'flip-case')];
    const s = summarizeRobustness(probes({ 'option-order': flipped }), { seed: 1, resamples: 200 });
    const p = s.probes.find((x) => x.id === 'option-order')!;
    expect(p).toMatchObject({ verdict: 'fail', flips: 1, pairs: 40 });
    expect(p.flipRate!.value).toBeCloseTo(1 / 40, 12);
    expect(p.moved[0]).toMatchObject({ caseId: 'flip-case', topBefore: 'a', topAfter: 'b' });
    expect(p.moved[0]!.tv).toBeCloseTo(0.1, 12);
  });

  it('does not count a tie broken the other way as a flip', () => {
    const tie = [...same(39), pair([0.5, 0.5], [0.5, 0.5])];
    const s = summarizeRobustness(probes({ 'option-order': tie }), { seed: 1, resamples: 200 });
    expect(s.probes.find((x) => x.id === 'option-order')!.flips).toBe(0);
  });

  it('judges probes against a noisy floor by interval, and determinism by its largest difference', () => {
    const noisy = () => Array.from({ length: 40 }, (_, i) => pair([0.6, 0.4], i % 2 ? [0.62, 0.38] : [0.58, 0.42]));
    const s = summarizeRobustness(probes({ determinism: noisy(), 'stale-cache': noisy(), 'question-order': noisy() }), {
      seed: 1,
      resamples: 200,
    });
    const verdict = (id: string) => s.probes.find((x) => x.id === id)!.verdict;
    expect(verdict('determinism')).toBe('fail');
    expect(s.probes[0]!.maxAbsDiff).toBeCloseTo(0.02, 12);
    expect(verdict('stale-cache')).toBe('pass');
    expect(verdict('question-order')).toBe('pass');
    expect(s.noiseFloor!.deterministic).toBe(false);
  });

  it('reports isolation accuracy against gold alone and beside siblings', () => {
    // Gold is answer 0; alone, half the answers move to answer 1.
    const iso = Array.from({ length: 40 }, (_, i) => pair([0.6, 0.4], i % 2 ? [0.3, 0.7] : [0.6, 0.4]));
    const p = summarizeRobustness(probes({ isolation: iso }), { seed: 1, resamples: 200 }).probes.find(
      (x) => x.id === 'isolation',
    )!;
    expect(p.accuracy).toMatchObject({ beside: 1, alone: 0.5, difference: { value: -0.5 } });
    expect(p.accuracy!.difference.interval!.low).toBeLessThan(-0.3);
    expect(p.verdict).toBe('fail');
  });

  it('measures total variation as half the L1 distance', () => {
    expect(totalVariation([0.5, 0.3, 0.2], [0.2, 0.3, 0.5])).toBeCloseTo(0.3, 12);
  });
});
