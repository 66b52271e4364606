import { describe, expect, it } from 'vitest';
import { chooseConventions, conventionsOfChoice, conventionsOfConfig } from './run-conventions.js';
import { conventionsText, DEFAULT_CONVENTIONS } from '../stats/conventions.js';
import { DecidekitError } from '../errors.js';

const stored = (choice: Parameters<typeof conventionsOfChoice>[0]) => ({
  conventions: conventionsText(conventionsOfChoice(choice)),
});

describe('run conventions', () => {
  it('reads a run stored before conventions with the defaults, and says it was not recorded', () => {
    expect(conventionsOfConfig({})).toEqual({ conventions: DEFAULT_CONVENTIONS, recorded: false });
    expect(conventionsOfConfig(stored({ eceBins: 15 }))).toMatchObject({
      recorded: true,
      conventions: { eceBins: 15 },
    });
  });

  it('recomputes only when a scoring convention changes (not for another seed)', () => {
    const run = stored({ eceBins: 15, seed: 3 });
    expect(chooseConventions(run, {})).toMatchObject({ recompute: false, conventions: { eceBins: 15, seed: 3 } });
    expect(chooseConventions(run, { seed: 4 })).toMatchObject({ recompute: false, conventions: { seed: 4 } });
    expect(chooseConventions(run, { eceBins: 15 }).recompute).toBe(false);
    expect(chooseConventions(run, { eceBinning: 'equal-mass' })).toMatchObject({
      recompute: true,
      conventions: { eceBins: 15, eceBinning: 'equal-mass' },
    });
  });

  it('refuses unreadable stored conventions as a damaged store', () => {
    expect(() => conventionsOfConfig({ conventions: 'ece_bins=lots' })).toThrow(DecidekitError);
    expect(() => conventionsOfConfig({ conventions: 'ece_bins=lots' })).toThrow(
      /stored run conventions are unreadable/,
    );
  });
});
