import { describe, expect, it } from 'vitest';
import {
  ROBUSTNESS_PROBE_IDS,
  summarizeRobustness,
  type DecisionPair,
  type RobustnessProbeId,
  type RobustnessSummary,
} from '../../core/probe/robustness.js';
import { describeNoiseFloor, meaningOf } from './probe-describe.js';

function pair(before: number[], after: number[], i: number): DecisionPair {
  return {
    caseId: `c${i}`,
    questionId: 'route',
    type: 'choice',
    answers: ['a', 'b', 'c'],
    goldIndex: 0,
    variant: 'v',
    before,
    after,
  };
}
const BEFORE = [0.5, 0.3, 0.2];
/** 40 pairs of one question per case; `after(i)` is case i's second answer. */
const pairs = (after: (i: number) => number[]) => Array.from({ length: 40 }, (_, i) => pair(BEFORE, after(i), i));
const unmoved = () => pairs(() => BEFORE);

function summarize(over: Partial<Record<RobustnessProbeId, DecisionPair[]>>): RobustnessSummary {
  const probes = Object.fromEntries(
    ROBUSTNESS_PROBE_IDS.map((id) => [id, { pairs: over[id] ?? unmoved(), lost: { requests: 0, decisions: 0 } }]),
  );
  return summarizeRobustness(probes, { seed: 1, resamples: 200 });
}
const meaning = (r: RobustnessSummary, id: RobustnessProbeId) =>
  meaningOf(
    r.probes.find((p) => p.id === id)!,
    r,
  );

describe('what a probe result means', () => {
  it('explains a failure on distance with the distance and the repeat it beat, never with a 0% flip rate', () => {
    // A repeat moves every answer by 0.1, option order by 0.2; no answer flips anywhere.
    const r = summarize({
      determinism: pairs(() => [0.6, 0.25, 0.15]),
      'stale-cache': pairs(() => [0.55, 0.25, 0.2]),
      'option-order': pairs(() => [0.7, 0.2, 0.1]),
    });
    const text = meaning(r, 'option-order');
    expect(text).toBe(
      'Option order moves choice answers by a mean distance of 0.2000, beyond the 0.1000 a determinism repeat of the same questions moves: compare choice accuracy with care, and never across datasets that list options differently.',
    );
    expect(text).not.toContain('0.0%');
    // Passing probes on that noisy server moved answers, just no more than a repeat.
    expect(meaning(r, 'question-order')).toBe(
      'Listing the questions in another order moves answers no more than a plain repeat does.',
    );
    expect(meaning(r, 'determinism')).toBe(
      'Repeats differ by up to 0.1000: a score carries this noise, and a difference between two runs smaller than it means nothing.',
    );
  });

  it('explains a failure on flips with the share of answers flipped', () => {
    const r = summarize({ 'option-order': pairs((i) => (i < 4 ? [0.2, 0.5, 0.3] : BEFORE)) });
    expect(meaning(r, 'option-order')).toMatch(/^Option order moves 10\.0% of choice answers: compare/);
    expect(meaning(r, 'question-order')).toBe('Listing the questions in another order changes no answer.');
  });

  it('says a plain repeat moved nothing when a deterministic server fails a probe on distance', () => {
    const r = summarize({ 'stale-cache': pairs(() => [0.55, 0.25, 0.2]) });
    expect(meaning(r, 'stale-cache')).toBe(
      'An unrelated request in between moves answers by a mean distance of 0.0500, where a plain repeat of the same questions moves none: a cache or batch leaks state across requests, so scores depend on request order and --parallel.',
    );
  });

  it('names the repeat probe each measure of the noise floor comes from', () => {
    const r = summarize({
      determinism: pairs((i) => (i === 0 ? [0.2, 0.5, 0.3] : BEFORE)),
      'stale-cache': pairs(() => [0.55, 0.25, 0.2]),
    });
    expect(describeNoiseFloor(r)).toMatch(
      /^2\.5% \[\d\.\d%, \d+\.\d%\] flipped \(determinism\), mean distance 0\.0500 \[0\.0500, 0\.0500\] \(stale-cache\)$/,
    );
    const quiet = summarize({});
    expect(describeNoiseFloor(quiet)).toMatch(
      /^determinism: 0\.0% \[0\.0%, \d+\.\d%\] flipped, mean distance 0\.0000 \[0\.0000, 0\.0000\] \(repeats never moved: deterministic\)$/,
    );
  });
});
