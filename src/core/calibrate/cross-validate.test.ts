import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSeededRandom, seededHash32 } from '../seeded-random.js';
import { DEFAULT_CONVENTIONS, withConventions } from '../stats/conventions.js';
import { crossValidateCalibration, type CrossValidateOptions } from './cross-validate.js';
import type { CalibrationExample } from './examples.js';
import { fitGroup } from './fit-group.js';
import { assignFolds } from './folds.js';
import { fitPlatt } from './platt-fit.js';
import { fitTemperature } from './temperature-fit.js';
import { syntheticExamples } from './test-support/synthetic.js';
import { sigmoid } from '../calibration-map.js';

const options: CrossValidateOptions = {
  method: 'temperature',
  by: 'all',
  source: 'offline',
  conventions: withConventions({ bootstrapResamples: 500 }),
};

describe('temperature scaling', () => {
  it('recovers a known sharpening within 5%, lowers ECE to the noise floor and keeps accuracy', () => {
    // Answers sharpened by T = 0.5 are undone by T = 2.
    const examples = syntheticExamples({ cases: 3000, answers: 3, temperature: 0.5, seed: 11 });
    expect(Math.abs(fitTemperature(examples).temperature / 2 - 1)).toBeLessThan(0.05);
    const r = crossValidateCalibration(examples, options);
    const fit = r.groups[0]!.fit;
    expect(fit.status === 'fitted' && fit.parameters.method === 'temperature').toBe(true);
    if (fit.status === 'fitted' && fit.parameters.method === 'temperature')
      expect(Math.abs(fit.parameters.temperature / 2 - 1)).toBeLessThan(0.05);
    const held = r.overall;
    expect(held.paired.metrics.ece.verdict).toBe('better');
    expect(held.paired.metrics.logLoss.verdict).toBe('better');
    expect(held.noiseAfter?.withinNoise).toBe(true);
    expect(held.noiseBefore?.withinNoise).toBe(false);
    expect(held.after.estimates.accuracy).toBe(held.before.estimates.accuracy);
  });

  it('recovers yes/no sharpening too', () => {
    const examples = syntheticExamples({ cases: 10000, answers: 2, temperature: 0.5, seed: 5 });
    expect(Math.abs(fitTemperature(examples).temperature / 2 - 1)).toBeLessThan(0.05);
  });

  it('leaves an already calibrated model within noise', () => {
    const examples = syntheticExamples({ cases: 2000, answers: 2, temperature: 1, seed: 9 });
    const r = crossValidateCalibration(examples, options);
    const fit = r.groups[0]!.fit;
    if (fit.status !== 'fitted' || fit.parameters.method !== 'temperature') throw new Error('not fitted');
    expect(Math.abs(fit.parameters.temperature - 1)).toBeLessThan(0.1);
    for (const m of ['accuracy', 'brier', 'logLoss', 'ece'] as const)
      expect(r.overall.paired.metrics[m].verdict).toBe('within_noise');
  });

  it('flags separable data instead of reporting a temperature', () => {
    const examples: CalibrationExample[] = Array.from({ length: 20 }, (_, i) => ({
      caseId: `c${i}`,
      decisionKey: '',
      group: 'all',
      p: i % 2 === 0 ? [0.8, 0.2] : [0.3, 0.7],
      target: i % 2 === 0 ? [1, 0] : [0, 1],
      labelIndex: i % 2 === 0 ? 0 : 1,
    }));
    expect(fitGroup('temperature', examples)).toEqual({ status: 'unchanged', reason: { kind: 'separable' } });
  });

  it('names a group too small to fit and how many decisions it needs', () => {
    const examples = syntheticExamples({ cases: 6, answers: 2, temperature: 1, seed: 1 });
    expect(fitGroup('isotonic', examples)).toEqual({
      status: 'unchanged',
      reason: { kind: 'too_few', decisions: 6, needed: 40 },
    });
  });
});

describe('Platt scaling', () => {
  it('recovers the a and b of a logistic model', () => {
    const random = createSeededRandom(4);
    const a = 1.7;
    const b = -0.6;
    const examples: CalibrationExample[] = Array.from({ length: 20000 }, (_, i) => {
      const x = 8 * random() - 4;
      const yes = random() < sigmoid(a * x + b);
      return {
        caseId: `c${i}`,
        decisionKey: '',
        group: 'all',
        p: [sigmoid(x), 1 - sigmoid(x)],
        target: yes ? [1, 0] : [0, 1],
        labelIndex: yes ? 0 : 1,
      };
    });
    const fit = fitPlatt(examples);
    expect(fit.atBound).toBe(false);
    expect(Math.abs(fit.a / a - 1)).toBeLessThan(0.05);
    expect(Math.abs(fit.b - b)).toBeLessThan(0.06);
  });
});

describe('folds', () => {
  it('never puts one case in two folds, sizes differ by at most one, and order does not matter', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 60 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 2, max: 10 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        (ids, perCase, k0, seed) => {
          const examples: CalibrationExample[] = ids.flatMap((id) =>
            Array.from({ length: perCase }, (_, d) => ({
              caseId: id,
              decisionKey: `q${d}`,
              group: d % 2 === 0 ? 'yes_no' : 'choice',
              p: [0.6, 0.4],
              target: [1, 0],
              labelIndex: seededHash32(id + d, 1) % 2,
            })),
          );
          const k = Math.min(k0, ids.length);
          const units = [...new Set(examples.map((e) => e.caseId))].map((id) => ({ id, stratum: '' }));
          const folds = assignFolds(units, k, seed);
          const sizes = new Array<number>(k).fill(0);
          for (const u of units) sizes[folds.get(u.id)!]!++;
          expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
          const reversed = assignFolds([...units].reverse(), k, seed);
          expect([...reversed].sort()).toEqual([...folds].sort());
          // The fold of a decision is its case's: one case, one fold.
          const foldOfDecision = new Map<string, Set<number>>();
          for (const e of examples)
            foldOfDecision.set(e.caseId, (foldOfDecision.get(e.caseId) ?? new Set()).add(folds.get(e.caseId)!));
          for (const s of foldOfDecision.values()) expect(s.size).toBe(1);
        },
      ),
      { seed: 21, numRuns: 200 },
    );
  });

  it('gives the same map for the same seed whatever the input order', () => {
    const examples = syntheticExamples({ cases: 300, answers: 2, temperature: 0.7, seed: 2, perCase: 3 });
    const shuffled = [...examples].sort(
      (x, y) => seededHash32(x.caseId + x.decisionKey, 5) - seededHash32(y.caseId + y.decisionKey, 5),
    );
    for (const method of ['temperature', 'platt', 'isotonic', 'histogram'] as const) {
      const a = crossValidateCalibration(examples, { ...options, method });
      const b = crossValidateCalibration(shuffled, { ...options, method });
      expect(b.mapGroups).toEqual(a.mapGroups);
      expect(b.overall.after.estimates).toEqual(a.overall.after.estimates);
    }
    const other = crossValidateCalibration(examples, {
      ...options,
      conventions: withConventions({ seed: 2, bootstrapResamples: 500 }),
    });
    expect(other.mapGroups).toEqual(crossValidateCalibration(examples, options).mapGroups);
    expect(DEFAULT_CONVENTIONS.seed).toBe(1);
  });
});
