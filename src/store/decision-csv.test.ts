/** The CSV text made from checked decision values (the PostgreSQL adapter's) carries every double exactly. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decisionCsvOfValues, DECISION_CSV_COLUMNS } from './decision-csv.js';
import type { StoredDecisionValues } from './stored-run.js';
import { readDecisionCsv } from './test-support/decision-csv-reader.js';

const KL = DECISION_CSV_COLUMNS.findIndex((c) => c.name === 'kl');
const LATENCY = DECISION_CSV_COLUMNS.findIndex((c) => c.name === 'latency_ms');

function decision(caseId: string, latency: number | null, kl: number | null): StoredDecisionValues {
  return [
    caseId,
    'w',
    'answered',
    latency,
    3,
    null,
    'q',
    'choice',
    '["a","b"]',
    'a',
    '[1,0]',
    'answered',
    'a',
    1,
    1,
    kl,
    0,
    '[1,0]',
    null,
    'line one\nline "two", \x1e quoted',
    ['a', 'b'],
    [1, 0],
  ];
}

describe('decisionCsvOfValues', () => {
  it('writes every double, negative zero and the quote character so that they read back the same (property)', () => {
    const doubles = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-0, 5e-324, 2 ** 23));
    fc.assert(
      fc.property(fc.array(fc.tuple(doubles, doubles), { minLength: 1, maxLength: 6 }), (pairs) => {
        const values = pairs.map(([latency, kl], i) => decision(`c${i % 2}-${Math.floor(i / 2)}`, latency, kl));
        const lines = readDecisionCsv([...decisionCsvOfValues(values, {}, 10)].join(''));
        expect(lines.map((l) => l[KL])).toEqual(values.map((v) => v[15]));
        expect(lines.map((l) => l[LATENCY])).toEqual(values.map((v) => v[3]));
        expect(lines.map((l) => l.at(-1))).toEqual(values.map((v) => v[19]));
      }),
      { numRuns: 300 },
    );
  });
});
