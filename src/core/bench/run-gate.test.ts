import { describe, expect, it } from 'vitest';
import { gateRuns } from './run-gate.js';
import type { MetricComparison } from '../stats/bootstrap.js';

const comparison = (difference: number, low: number, high: number): MetricComparison => ({
  first: 0.7,
  second: 0.7 + difference,
  difference,
  interval: { low, high },
  verdict: null,
});

describe('gateRuns', () => {
  it('fails accuracy only when the whole interval of the change is below -maxDrop', () => {
    expect(gateRuns({ metric: 'accuracy', comparison: comparison(-0.05, -0.08, -0.02), maxDrop: 0 }).pass).toBe(false);
    expect(gateRuns({ metric: 'accuracy', comparison: comparison(-0.01, -0.04, 0.02), maxDrop: 0 }).pass).toBe(true);
    // Worse beyond noise, but not surely by more than 1 point: passes with --max-drop 0.01.
    expect(gateRuns({ metric: 'accuracy', comparison: comparison(-0.05, -0.08, -0.005), maxDrop: 0.01 }).pass).toBe(
      true,
    );
    expect(gateRuns({ metric: 'accuracy', comparison: comparison(-0.05, -0.08, -0.02), maxDrop: 0.01 }).pass).toBe(
      false,
    );
  });

  it('reads lower-is-better metrics the other way round', () => {
    const up = gateRuns({ metric: 'kl', comparison: comparison(0.05, 0.02, 0.08), maxDrop: 0 });
    expect(up).toEqual({ pass: false, worsening: 0.05, interval: { low: 0.02, high: 0.08 } });
    expect(gateRuns({ metric: 'ece', comparison: comparison(-0.05, -0.08, -0.02), maxDrop: 0 }).pass).toBe(true);
    const acc = gateRuns({ metric: 'accuracy', comparison: comparison(-0.05, -0.08, -0.02), maxDrop: 0 });
    expect(acc).toMatchObject({ worsening: 0.05, interval: { low: 0.02, high: 0.08 } });
  });

  it('fails when the metric or its interval is missing', () => {
    const none: MetricComparison = { first: null, second: 0.5, difference: null, interval: null, verdict: null };
    expect(gateRuns({ metric: 'accuracy', comparison: none, maxDrop: 0 })).toEqual({ pass: false, missing: 'metric' });
    const noInterval = { ...comparison(0, 0, 0), interval: null };
    expect(gateRuns({ metric: 'accuracy', comparison: noInterval, maxDrop: 0 })).toEqual({
      pass: false,
      missing: 'interval',
    });
  });
});
