import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDecisionCsvRenderer, renderDecisionCsvRow } from './decision-csv.js';
import { decisionRowArbitrary, expectEachColumnChangeRendered } from './test-support/decision-rows.js';

/** Texts a CSV field must quote or guard: commas, quotes, line breaks, formula starts. */
const awkwardText = fc.oneof(
  fc.constantFrom('', 'a', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', '=SUM(A1)', '+1', '-2', '@x', "'q", '\tt', 'é ü'),
  fc.string({ maxLength: 12 }),
);
const number = fc.oneof(fc.double({ noNaN: true }), fc.integer(), fc.constant(0));

const rowArb = decisionRowArbitrary({
  text: awkwardText,
  number,
  runIds: ['20261130-0415', 'r,1'],
  splits: ['test'],
  answers: fc.constantFrom('["true","false"]', '["a","b,c"]', '["0","1","2"]'),
  predictedDistribution: fc.constantFrom('[0.1,0.9]', '[0.333,0.667]'),
});

describe('the decision table as CSV', () => {
  it("renders an export's rows as renderDecisionCsvRow renders each alone", () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 40 }), (rows) => {
        const render = createDecisionCsvRenderer();
        // Each row twice: the second time its repeating texts come from the renderer's memory.
        for (const row of [...rows, ...rows]) expect(render(row)).toBe(renderDecisionCsvRow(row));
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('renders rows of one workflow, case and question position that differ in any one column', () => {
    expectEachColumnChangeRendered(rowArb, createDecisionCsvRenderer, renderDecisionCsvRow);
  });

  it('renders the same rows after more distinct texts than it remembers', () => {
    const render = createDecisionCsvRenderer();
    const base = fc.sample(rowArb, { seed: 7, numRuns: 1 })[0]!;
    for (let i = 0; i < 10_000; i++) {
      const row = { ...base, workflow: `w,${i % 5_000}`, answers: `["a${i}","b"]` };
      expect(render(row)).toBe(renderDecisionCsvRow(row));
    }
  });
});
