import { describe, expect, it } from 'vitest';
import { tunePoints, type TunePoint } from '../../core/offline/threshold-tuning.js';
import { renderTuneJson } from './tuning-json.js';
import { renderTuneText } from './tuning-text.js';

const points = (pairs: readonly (readonly [number, boolean])[]): TunePoint[] =>
  pairs.map(([probability, positive], i) => ({ id: `c${i}`, probability, positive }));
const wrap = (report: ReturnType<typeof tunePoints>) => ({
  model: 'm',
  datasetPath: 'd.jsonl',
  resultsPath: 'r.jsonl',
  report,
});

describe('renderTuneText', () => {
  it('shows n/a spend without costs and the reason a cross-validated row is missing', () => {
    const text = renderTuneText(
      wrap(
        tunePoints(
          points([
            [0.9, true],
            [0.4, false],
            [0.3, false],
          ]),
        ),
      ),
    );
    expect(text).toMatch(/^ +default +0\.500 +1\.000 +1\.000 +1\.000 +1\.000 +n\/a +n\/a$/m);
    expect(text).toMatch(/^ +cross-validated +n\/a( +n\/a){6}$/m);
    expect(text).toMatch(/cross-validation: n\/a \(needs at least 2 cases of each class \(found 1 yes, 2 no\)\)/);
  });

  it('flags a tuned threshold that misses the floors and adds the floors column', () => {
    const text = renderTuneText(
      wrap(
        tunePoints(
          points([
            [0.9, true],
            [0.8, false],
            [0.7, true],
            [0.2, false],
          ]),
          { minPrecision: 1, minRecall: 1 },
        ),
      ),
    );
    expect(text).toMatch(/^ +tuned \* .* NOT met$/m);
    expect(text).toMatch(
      /\* no threshold meets precision >= 1 and recall >= 1: tuned shows the best-F1 threshold anyway/,
    );
  });

  it('adds an error cost column with error costs and no colour codes by default', () => {
    const report = tunePoints(
      points([
        [0.9, true],
        [0.8, true],
        [0.6, false],
        [0.4, true],
        [0.3, false],
        [0.1, false],
      ]),
      { costs: { falsePositive: 1, falseNegative: 4 } },
    );
    const text = renderTuneText(wrap(report));
    expect(text).toContain('err cost/call');
    expect(text).toMatch(/lowest expected error cost \(false yes 1, false no 4\)/);
    expect(text).not.toMatch(/\u001b\[/);
    expect(renderTuneText(wrap(report), { colour: true })).toMatch(/\u001b\[1m/);
  });
});

describe('renderTuneJson', () => {
  it('prints null, not 0, for absent spend', () => {
    const doc = JSON.parse(
      renderTuneJson(
        wrap(
          tunePoints(
            points([
              [0.9, true],
              [0.1, false],
            ]),
          ),
        ),
      ),
    );
    expect(doc.default.cost_per_100_usd).toBeNull();
    expect(doc.cross_validated).toBeNull();
    expect(doc.costs).toBeNull();
  });
});
