import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECISION_COLUMNS, DECISION_SCHEMA_VERSION, type DecisionRow } from '../../core/export/decision-row.js';
import { createDecisionCsvRenderer, renderDecisionCsvRow } from './decision-csv.js';

/** Texts a CSV field must quote or guard: commas, quotes, line breaks, formula starts. */
const awkwardText = fc.oneof(
  fc.constantFrom('', 'a', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', '=SUM(A1)', '+1', '-2', '@x', "'q", '\tt', 'é ü'),
  fc.string({ maxLength: 12 }),
);
const number = fc.oneof(fc.double({ noNaN: true }), fc.integer(), fc.constant(0));
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

const rowArb: fc.Arbitrary<DecisionRow> = fc.record({
  schema_version: fc.constant(DECISION_SCHEMA_VERSION),
  run_id: fc.constantFrom('20261130-0415', 'r,1'),
  fingerprint: fc.constant('563ad84c2f4a7477'),
  model: nullable(awkwardText),
  dataset_id: awkwardText,
  dataset_revision: nullable(awkwardText),
  dataset_split: fc.constant('test'),
  case_id: awkwardText,
  workflow: awkwardText,
  question_id: awkwardText,
  question_key: awkwardText,
  question_index: fc.nat(9),
  type: fc.constantFrom('noul', 'choice', 'score'),
  status: fc.constantFrom('answered' as const, 'failed' as const),
  gold_label: awkwardText,
  predicted: nullable(awkwardText),
  gold_level: nullable(fc.nat(4)),
  predicted_level: nullable(fc.nat(4)),
  correct: fc.boolean(),
  confidence: nullable(number),
  kl: nullable(number),
  brier: nullable(number),
  log_loss: nullable(number),
  answers: fc.constantFrom('["true","false"]', '["a","b,c"]', '["0","1","2"]'),
  gold_distribution: fc.constantFrom('[1,0]', '[0.25,0.75]', '[0,0.5,0.5]'),
  predicted_distribution: nullable(fc.constantFrom('[0.1,0.9]', '[0.333,0.667]')),
  latency_ms: nullable(number),
  input_tokens: nullable(fc.nat()),
  cost_usd: nullable(number),
  error_kind: nullable(fc.constantFrom('timeout', 'http_5xx')),
  error_message: nullable(awkwardText),
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
    const change = fc.tuple(fc.constantFrom(...DECISION_COLUMNS.map((c) => c.name)), rowArb);
    fc.assert(
      fc.property(rowArb, fc.array(change, { maxLength: 30 }), (base, changes) => {
        const render = createDecisionCsvRenderer();
        expect(render(base)).toBe(renderDecisionCsvRow(base));
        for (const [name, other] of changes) {
          // The base row with one column taken from another row, then the base row again.
          const row = { ...base, [name]: other[name] };
          expect(render(row)).toBe(renderDecisionCsvRow(row));
          expect(render(base)).toBe(renderDecisionCsvRow(base));
        }
      }),
      { seed: 43, numRuns: 300 },
    );
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
