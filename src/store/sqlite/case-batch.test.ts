import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { scoreCase, type CaseResult } from '../../core/typed-decisions/case-result.js';
import { answeredCase, benchCase, failedCase, rightAnswers, wrongAnswers } from '../test-support/run-fixtures.js';
import { batchCaseDigests, packedCaseDigest } from './case-digest.js';
import { batchValue, forEachBatchCase, packCaseBatch, transferables, type PackedCaseBatch } from './case-batch.js';
import { forEachPackedCase, packCaseRows } from './case-rows.js';

/** Answered and failed, with a model, a replica, tokens or none, a quote, non-ASCII text and a line separator. */
function mixedCases(): CaseResult[] {
  const withModel = scoreCase(benchCase('c3'), {
    status: 'answered',
    latencyMs: 7,
    inputTokens: 12,
    predicted: rightAnswers(2),
    model: 'laya-mini-2026 "é"',
  });
  const oddFailure = scoreCase(benchCase('c8', 'billing'), {
    status: 'failed',
    failure: { kind: 'http', message: 'HTTP 503: “busy” \u2028 line\nnext' },
    latencyMs: 0.1 + 0.2,
  });
  const onReplica = (c: CaseResult, replica: string): CaseResult => ({ ...c, request: { ...c.request, replica } });
  return [
    answeredCase('c1', rightAnswers(0), 120.25, 321),
    answeredCase('c2', wrongAnswers(), 10, null),
    onReplica(withModel, 'http://127.0.0.1:9001/'),
    failedCase('c4', null),
    answeredCase('c5', rightAnswers(4), 1e-7, 0),
    onReplica(oddFailure, 'http://127.0.0.1:9002/'),
    answeredCase('c7', rightAnswers(6), 123456.789, 2 ** 40),
  ];
}

/** Every value of a batch, in slot order. */
const valuesOf = (batch: PackedCaseBatch) => Array.from(batch.kinds, (_, slot) => batchValue(batch, slot));

describe('a packed batch of cases', () => {
  it("holds packCaseRows' values in its order", () => {
    const cases = mixedCases();
    expect(valuesOf(packCaseBatch(cases))).toEqual(packCaseRows(cases));
  });

  it('gives each case the digest its rows have', () => {
    const cases = mixedCases();
    const batch = packCaseBatch(cases);
    const rows = packCaseRows(cases);
    const fromRows: string[] = [];
    forEachPackedCase(rows, (at, count) => fromRows.push(packedCaseDigest('run-1', rows, at, count)));
    const fromBatch: string[] = [];
    const digestOf = batchCaseDigests('run-1', batch);
    forEachBatchCase(batch, (at, count) => fromBatch.push(digestOf(at, count)));
    expect(fromBatch).toEqual(fromRows);
    expect(new Set(fromBatch).size).toBe(cases.length);
  });

  it('gives odd numbers and strings the digest their rows have: -0, NaN, infinities, a lone surrogate, a quote', () => {
    const c = answeredCase('c"1\ud800', rightAnswers(0), -0, 2 ** 53 - 1);
    const odd = [Number.POSITIVE_INFINITY, Number.NaN, -0, 5e-324, 1e21];
    const weird: CaseResult = {
      ...c,
      decisions: c.decisions.map((d, i) =>
        d.outcome.status === 'answered' ? { ...d, outcome: { ...d.outcome, kl: odd[i % odd.length]! } } : d,
      ),
    };
    const cases = [weird, failedCase('c2', null), ...mixedCases()];
    const rows = packCaseRows(cases);
    const fromRows: string[] = [];
    forEachPackedCase(rows, (at, count) => fromRows.push(packedCaseDigest('run-"\u2028', rows, at, count)));
    const batch = packCaseBatch(cases);
    const digestOf = batchCaseDigests('run-"\u2028', batch);
    const fromBatch: string[] = [];
    forEachBatchCase(batch, (at, count) => fromBatch.push(digestOf(at, count)));
    expect(fromBatch).toEqual(fromRows);
  });

  it('keeps each repeated string once', () => {
    const cases = Array.from({ length: 50 }, (_, i) => answeredCase(`c${i}`, rightAnswers(i % 3), 10 + i, i));
    const batch = packCaseBatch(cases);
    const values = valuesOf(batch).filter((v) => typeof v === 'string');
    // Each case's id and its decisions' probabilities are its own; the rest repeats.
    const answersJson = JSON.stringify(cases[0]!.decisions[0]!.answers);
    expect(values.filter((v) => v === answersJson)).toHaveLength(50);
    expect(batch.strings.filter((v) => v === answersJson)).toHaveLength(1);
    expect(batch.strings.length).toBeLessThan(values.length / 2);
  });

  it('keeps every number exactly, -0, infinities and NaN included', () => {
    const c = answeredCase('c1', rightAnswers(0), -0, 2 ** 53 - 1);
    const odd = [Number.POSITIVE_INFINITY, Number.NaN, Number.NEGATIVE_INFINITY, 5e-324];
    const weird: CaseResult = {
      ...c,
      decisions: c.decisions.map((d, i) =>
        d.outcome.status === 'answered' ? { ...d, outcome: { ...d.outcome, kl: odd[i % odd.length]! } } : d,
      ),
    };
    const values = valuesOf(packCaseBatch([weird]));
    const rows = packCaseRows([weird]);
    expect(values).toHaveLength(rows.length);
    values.forEach((v, i) => expect(Object.is(v, rows[i])).toBe(true));
  });

  it('crosses to another thread by transfer, its buffers leaving the sender', () => {
    const cases = mixedCases();
    const batch = packCaseBatch(cases);
    const { port1, port2 } = new MessageChannel();
    try {
      port1.postMessage(batch, transferables(batch));
      expect(batch.kinds.byteLength).toBe(0);
      expect(batch.numbers.byteLength).toBe(0);
      const received = receiveMessageOnPort(port2)!.message as PackedCaseBatch;
      expect(valuesOf(received)).toEqual(packCaseRows(cases));
    } finally {
      port1.close();
      port2.close();
    }
  });

  it('is refused when it ends in the middle of a case', () => {
    const batch = packCaseBatch(mixedCases());
    const cut = { ...batch, kinds: batch.kinds.subarray(0, batch.kinds.length - 3) };
    expect(() => forEachBatchCase(cut, () => {})).toThrow('a packed case batch ends in the middle of a case');
  });
});
