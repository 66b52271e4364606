import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECISION_COLUMNS } from '../../core/export/decision-row.js';
import { createDecisionJsonlRenderer, renderDecisionJsonlRow } from './decision-jsonl.js';
import { decisionRowArbitrary, expectEachColumnChangeRendered } from './test-support/decision-rows.js';

/** Any UTF-16 code unit, lone surrogates included: JSON.stringify escapes those as `\udXXX`. */
const codeUnit = fc.nat(0xffff).map((c) => String.fromCharCode(c));
/** Texts JSON must escape, or must not: quotes, backslashes, control characters, surrogates, line separators. */
const awkwardText = fc.oneof(
  fc.constantFrom('', 'a', 'say "hi"', 'back\\slash', 'two\nlines', '\u0000\u001f\u007f', '\ud800', 'x\udfff', '😀'),
  fc.constantFrom('\u2028\u2029', 'é ü', '["a","b"]', '</script>', '\b\f\r\t'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: codeUnit, maxLength: 8 }),
);
/** Numbers JSON writes as null (not finite), or as the shortest text that reads back. */
const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, 1e21, 1e-7, 0.1 + 0.2, Number.MAX_SAFE_INTEGER, Infinity, -Infinity, NaN),
);

const rowArb = decisionRowArbitrary({
  text: awkwardText,
  number,
  runIds: ['20261130-0415', 'r"1'],
  splits: ['test', 'a\\b'],
  answers: fc.oneof(fc.constantFrom('["true","false"]', '["a","b,c"]', '["0","1","2"]'), awkwardText),
  predictedDistribution: fc.oneof(fc.constantFrom('[0.1,0.9]', '[0.333,0.667]'), awkwardText),
});

describe('the decision table as JSON Lines', () => {
  it('renders each row as JSON.stringify does, followed by a line feed', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 40 }), (rows) => {
        const render = createDecisionJsonlRenderer();
        // Each row twice, and runs of rows sharing a case: the renderer keeps the last case's
        // and run's text, and the answers' text for each question position.
        for (const row of [...rows, ...rows, ...rows.map((r) => ({ ...r, case_id: 'same case' }))])
          expect(render(row)).toBe(`${JSON.stringify(row)}\n`);
      }),
      { seed: 42, numRuns: 500 },
    );
  });

  it('renders rows of one workflow, case and question position that differ in any one column', () => {
    expectEachColumnChangeRendered(rowArb, createDecisionJsonlRenderer, (row) => `${JSON.stringify(row)}\n`);
  });

  it('writes the columns in the schema order, every one of them', () => {
    const row = fc.sample(rowArb, { seed: 7, numRuns: 1 })[0]!;
    const line = createDecisionJsonlRenderer()(row);
    expect(line).toBe(renderDecisionJsonlRow(row));
    expect(Object.keys(JSON.parse(line) as object)).toEqual(DECISION_COLUMNS.map((c) => c.name));
  });
});
