import { describe, expect, it } from 'vitest';
import { floorFor, summarizeRobustness, totalVariation, type DecisionPair, type ProbePairs } from './robustness.js';

const NO_LOSS = { requests: 0, decisions: 0 };
/** A pair of case `c<i>`'s question (every probe compares the same cases' questions). */
function pair(before: number[], after: number[], i: number, questionId = 'q'): DecisionPair {
  return {
    caseId: `c${i}`,
    questionId,
    type: 'choice',
    answers: ['a', 'b', 'c'].slice(0, before.length),
    goldIndex: 0,
    variant: 'v',
    before,
    after,
  };
}
const same = (k: number) => Array.from({ length: k }, (_, i) => pair([0.6, 0.4], [0.6, 0.4], i));
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
    const flipped = [...same(39), pair([0.55, 0.45], [0.45, 0.55], 39)];
    const s = summarizeRobustness(probes({ 'option-order': flipped }), { seed: 1, resamples: 200 });
    const p = s.probes.find((x) => x.id === 'option-order')!;
    expect(p).toMatchObject({ verdict: 'fail', flips: 1, pairs: 40 });
    expect(p.flipRate!.value).toBeCloseTo(1 / 40, 12);
    expect(p.moved[0]).toMatchObject({ caseId: 'c39', topBefore: 'a', topAfter: 'b' });
    expect(p.moved[0]!.tv).toBeCloseTo(0.1, 12);
  });

  it('does not count a tie broken the other way as a flip', () => {
    const tie = [...same(39), pair([0.5, 0.5], [0.5, 0.5], 39)];
    const s = summarizeRobustness(probes({ 'option-order': tie }), { seed: 1, resamples: 200 });
    expect(s.probes.find((x) => x.id === 'option-order')!.flips).toBe(0);
  });

  it('judges probes against a noisy floor by interval, and determinism by its largest difference', () => {
    const noisy = () => Array.from({ length: 40 }, (_, i) => pair([0.6, 0.4], i % 2 ? [0.62, 0.38] : [0.58, 0.42], i));
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
    const iso = Array.from({ length: 40 }, (_, i) => pair([0.6, 0.4], i % 2 ? [0.3, 0.7] : [0.6, 0.4], i));
    const p = summarizeRobustness(probes({ isolation: iso }), { seed: 1, resamples: 200 }).probes.find(
      (x) => x.id === 'isolation',
    )!;
    expect(p.accuracy).toMatchObject({ beside: 1, alone: 0.5, difference: { value: -0.5 } });
    expect(p.accuracy!.difference.interval!.low).toBeLessThan(-0.3);
    expect(p.verdict).toBe('fail');
  });

  it('judges option order against what a repeat moves on the same choice questions, not on every question', () => {
    // Repeats barely move the yes/no questions (distance 0.01) and move the choice ones by 0.1.
    const noul = (i: number, after: number[]): DecisionPair => ({
      ...pair([0.6, 0.4], after, i, 'urgent'),
      type: 'noul',
      answers: ['true', 'false'],
    });
    const choice = (i: number, after: number[]) => pair([0.5, 0.3, 0.2], after, i, 'route');
    const repeat = Array.from({ length: 40 }, (_, i) => [noul(i, [0.61, 0.39]), choice(i, [0.6, 0.25, 0.15])]).flat();
    const summarize = (optionOrder: DecisionPair[]) =>
      summarizeRobustness(probes({ determinism: repeat, 'stale-cache': repeat, 'option-order': optionOrder }), {
        seed: 1,
        resamples: 200,
      });
    // Over every question a repeat moves 0.055; option order, which only asks choice questions, moves them 0.1 like a repeat.
    const like = summarize(Array.from({ length: 40 }, (_, i) => choice(i, [0.6, 0.25, 0.15])));
    expect(like.noiseFloor!.meanTv.value).toBeCloseTo(0.055, 12);
    const o = like.probes.find((x) => x.id === 'option-order')!;
    expect(o.verdict).toBe('pass');
    expect(o.floor!.meanTv.value).toBeCloseTo(0.1, 12);
    expect(o.exceeded).toEqual([]);
    // Twice the repeat's movement on the same questions is beyond it, on distance alone.
    const beyond = summarize(Array.from({ length: 40 }, (_, i) => choice(i, [0.7, 0.2, 0.1]))).probes.find(
      (x) => x.id === 'option-order',
    )!;
    expect(beyond.verdict).toBe('fail');
    expect(beyond.exceeded).toEqual(['distance']);
    expect(beyond.reason).toBe(
      'mean distance 0.2000, beyond the 0.1000 of the determinism repeat of the same questions',
    );
  });

  it('counts a repeat as often as the probe compares its question, and names the noisier repeat', () => {
    const det = [pair([0.5, 0.5], [0.8, 0.2], 0, 'a'), pair([0.5, 0.5], [0.5, 0.5], 0, 'b')];
    const stale = [pair([0.5, 0.5], [0.5, 0.5], 0, 'a'), pair([0.5, 0.5], [0.6, 0.4], 0, 'b')];
    const compared = [0, 1, 2].map(() => pair([0.5, 0.5], [0.5, 0.5], 0, 'a'));
    compared.push(pair([0.5, 0.5], [0.5, 0.5], 0, 'b'));
    const f = floorFor(compared, { determinism: det, 'stale-cache': stale }, { seed: 1, resamples: 0 })!;
    // determinism: (3 × 0.3 + 0) / 4; stale-cache: (0 + 0.1) / 4.
    expect(f.meanTv.value).toBeCloseTo(0.225, 12);
    expect(f.meanTvFrom).toBe('determinism');
    expect(f.deterministic).toBe(false);
    const onlyB = floorFor(
      [pair([0.5, 0.5], [0.5, 0.5], 0, 'b')],
      { determinism: det, 'stale-cache': stale },
      {
        seed: 1,
        resamples: 0,
      },
    )!;
    expect(onlyB.meanTv.value).toBeCloseTo(0.1, 12);
    expect(onlyB.meanTvFrom).toBe('stale-cache');
  });

  it('measures total variation as half the L1 distance', () => {
    expect(totalVariation([0.5, 0.3, 0.2], [0.2, 0.3, 0.5])).toBeCloseTo(0.3, 12);
  });
});
