import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECISION_COLUMNS, DECISION_SCHEMA_VERSION, type DecisionRow } from '../../core/export/decision-row.js';
import { createDecisionJsonlRenderer, renderDecisionJsonlRow } from './decision-jsonl.js';

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
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

const rowArb: fc.Arbitrary<DecisionRow> = fc.record({
  schema_version: fc.constant(DECISION_SCHEMA_VERSION),
  run_id: fc.constantFrom('20261130-0415', 'r"1'),
  fingerprint: fc.constant('563ad84c2f4a7477'),
  model: nullable(awkwardText),
  dataset_id: awkwardText,
  dataset_revision: nullable(awkwardText),
  dataset_split: fc.constantFrom('test', 'a\\b'),
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
  answers: fc.oneof(fc.constantFrom('["true","false"]', '["a","b,c"]', '["0","1","2"]'), awkwardText),
  gold_distribution: fc.constantFrom('[1,0]', '[0.25,0.75]', '[0,0.5,0.5]'),
  predicted_distribution: nullable(fc.oneof(fc.constantFrom('[0.1,0.9]', '[0.333,0.667]'), awkwardText)),
  latency_ms: nullable(number),
  input_tokens: nullable(fc.nat()),
  cost_usd: nullable(number),
  error_kind: nullable(fc.constantFrom('timeout', 'http_5xx')),
  error_message: nullable(awkwardText),
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
    const change = fc.tuple(fc.constantFrom(...DECISION_COLUMNS.map((c) => c.name)), rowArb);
    fc.assert(
      fc.property(rowArb, fc.array(change, { maxLength: 30 }), (base, changes) => {
        const render = createDecisionJsonlRenderer();
        expect(render(base)).toBe(`${JSON.stringify(base)}\n`);
        for (const [name, other] of changes) {
          // The base row with one column taken from another row, then the base row again.
          const row = { ...base, [name]: other[name] };
          expect(render(row)).toBe(`${JSON.stringify(row)}\n`);
          expect(render(base)).toBe(`${JSON.stringify(base)}\n`);
        }
      }),
      { seed: 43, numRuns: 300 },
    );
  });

  it('writes the columns in the schema order, every one of them', () => {
    const row = fc.sample(rowArb, { seed: 7, numRuns: 1 })[0]!;
    const line = createDecisionJsonlRenderer()(row);
    expect(line).toBe(renderDecisionJsonlRow(row));
    expect(Object.keys(JSON.parse(line) as object)).toEqual(DECISION_COLUMNS.map((c) => c.name));
  });
});
