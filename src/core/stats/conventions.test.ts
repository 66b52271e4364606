import { describe, expect, it } from 'vitest';
import {
  conventionsJson,
  conventionsText,
  DEFAULT_CONVENTIONS,
  describeConventions,
  parseConventions,
  sameScoringConventions,
  withConventions,
} from './conventions.js';

describe('conventions', () => {
  it('has a canonical text form that reads back', () => {
    expect(conventionsText(DEFAULT_CONVENTIONS)).toBe(
      'ece_bins=10;ece_binning=equal-width;ece_average=pooled;kl_floor=1e-12;log_loss_floor=1e-15;' +
        'gold_ties=dataset-label;prediction_ties=first-listed;bootstrap_resamples=2000;seed=1',
    );
    const other = withConventions({ eceBins: 15, eceBinning: 'equal-mass', eceAverage: 'per-question', seed: 4242 });
    expect(parseConventions(conventionsText(other))).toEqual(other);
    expect(parseConventions('')).toEqual(DEFAULT_CONVENTIONS);
  });

  it('is snake_case in JSON', () => {
    expect(Object.keys(conventionsJson(DEFAULT_CONVENTIONS)).every((k) => /^[a-z_]+$/.test(k))).toBe(true);
  });

  it('rejects unreadable text with the key at fault', () => {
    expect(() => parseConventions('ece_bins=0')).toThrow(/ece_bins must be an integer in \[1, 1000\], not "0"/);
    expect(() => parseConventions('ece_binning=quantile')).toThrow(/one of equal-width, equal-mass/);
    expect(() => parseConventions('ece_bins=10;ece_bins=15')).toThrow(/given twice/);
    expect(() => parseConventions('colour=blue')).toThrow(/unknown key colour/);
    expect(() => parseConventions('kl_floor=0')).toThrow(/kl_floor/);
    expect(() => parseConventions('nonsense')).toThrow(/not key=value/);
  });

  it('compares scoring conventions, not bootstrap settings', () => {
    expect(sameScoringConventions(DEFAULT_CONVENTIONS, withConventions({ seed: 9, bootstrapResamples: 0 }))).toBe(true);
    expect(sameScoringConventions(DEFAULT_CONVENTIONS, withConventions({ eceBins: 15 }))).toBe(false);
  });

  it('says every choice in words', () => {
    const text = describeConventions(DEFAULT_CONVENTIONS);
    for (const part of [
      '10 equal-width bins',
      'pooled over decisions',
      'KL floor 1e-12',
      "dataset's label",
      'first listed',
      '2000',
      'seed 1',
    ])
      expect(text).toContain(part);
  });
});
