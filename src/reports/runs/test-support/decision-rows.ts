/**
 * Decision-table rows for property tests of the export's line renderers (CSV, JSON Lines): every
 * column drawn, its texts and numbers from what the format under test finds awkward.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { DECISION_COLUMNS, DECISION_SCHEMA_VERSION, type DecisionRow } from '../../../core/export/decision-row.js';

/** What a format finds awkward: the values its texts, numbers and JSON-array columns are drawn from. */
export interface AwkwardDecisionValues {
  readonly text: fc.Arbitrary<string>;
  readonly number: fc.Arbitrary<number>;
  readonly runIds: readonly string[];
  readonly splits: readonly string[];
  readonly answers: fc.Arbitrary<string>;
  readonly predictedDistribution: fc.Arbitrary<string>;
}

const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

/** Rows with every column of the decision table, in schema order. */
export function decisionRowArbitrary(v: AwkwardDecisionValues): fc.Arbitrary<DecisionRow> {
  return fc.record({
    schema_version: fc.constant(DECISION_SCHEMA_VERSION),
    run_id: fc.constantFrom(...v.runIds),
    fingerprint: fc.constant('563ad84c2f4a7477'),
    model: nullable(v.text),
    dataset_id: v.text,
    dataset_revision: nullable(v.text),
    dataset_split: fc.constantFrom(...v.splits),
    case_id: v.text,
    workflow: v.text,
    question_id: v.text,
    question_key: v.text,
    question_index: fc.nat(9),
    type: fc.constantFrom('noul', 'choice', 'score'),
    status: fc.constantFrom('answered' as const, 'failed' as const),
    gold_label: v.text,
    predicted: nullable(v.text),
    gold_level: nullable(fc.nat(4)),
    predicted_level: nullable(fc.nat(4)),
    correct: fc.boolean(),
    confidence: nullable(v.number),
    kl: nullable(v.number),
    brier: nullable(v.number),
    log_loss: nullable(v.number),
    answers: v.answers,
    gold_distribution: fc.constantFrom('[1,0]', '[0.25,0.75]', '[0,0.5,0.5]'),
    predicted_distribution: nullable(v.predictedDistribution),
    latency_ms: nullable(v.number),
    input_tokens: nullable(fc.nat()),
    cost_usd: nullable(v.number),
    error_kind: nullable(fc.constantFrom('timeout', 'http_5xx')),
    error_message: nullable(v.text),
  });
}

/**
 * A renderer that remembers the texts of the last run, case and question renders rows of one
 * workflow, case and question position that differ in any one column as `alone` renders each
 * row: the base row with one column taken from another row, then the base row again.
 */
export function expectEachColumnChangeRendered(
  rows: fc.Arbitrary<DecisionRow>,
  create: () => (row: DecisionRow) => string,
  alone: (row: DecisionRow) => string,
): void {
  const change = fc.tuple(fc.constantFrom(...DECISION_COLUMNS.map((c) => c.name)), rows);
  fc.assert(
    fc.property(rows, fc.array(change, { maxLength: 30 }), (base, changes) => {
      const render = create();
      expect(render(base)).toBe(alone(base));
      for (const [name, other] of changes) {
        const row = { ...base, [name]: other[name] };
        expect(render(row)).toBe(alone(row));
        expect(render(base)).toBe(alone(base));
      }
    }),
    { seed: 43, numRuns: 300 },
  );
}
