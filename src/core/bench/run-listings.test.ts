import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LISTED_ROWS, ListingsAccumulator, listingsOfCases, TRACE_INDEX_EVERY, traceSeek } from './run-listings.js';
import { BenchAccumulator, summarizeBenchmark } from './summary.js';
import { createManyDisagreementsRun, createMixedRun } from './test-support/bench-run-fixture.js';
import { answeredCase, failedCase, rightAnswers, wrongAnswers } from './test-support/run-fixtures.js';
import type { CaseResult } from '../typed-decisions/case-result.js';

/** Every answered wrong decision, most confident first, ties in run order: the list the listings keep the head of. */
function allDisagreements(cases: readonly CaseResult[]) {
  const out: { caseId: string; questionId: string; confidence: number }[] = [];
  for (const c of cases)
    for (const d of c.decisions)
      if (d.outcome.status === 'answered' && !d.outcome.correct)
        out.push({ caseId: c.caseId, questionId: d.questionId, confidence: d.outcome.confidence });
  return out.sort((a, b) => b.confidence - a.confidence);
}

function shuffled<T>(items: readonly T[], seed: number): Array<{ item: T; position: number }> {
  const out = items.map((item, position) => ({ item, position }));
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('ListingsAccumulator', () => {
  const cases: CaseResult[] = [];
  for (let i = 0; i < 60; i++) {
    const id = `customer_service_${String(i).padStart(6, '0')}`;
    cases.push(
      i % 7 === 3
        ? failedCase(id, 10)
        : i % 2 === 0
          ? answeredCase(id, wrongAnswers())
          : answeredCase(id, rightAnswers(i)),
    );
  }

  it('keeps the most confident disagreements, ties in run order, and counts the rest', () => {
    const listings = listingsOfCases(cases);
    const expected = allDisagreements(cases);
    expect(listings.disagreementCount).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(LISTED_ROWS);
    expect(listings.disagreements.map((d) => [d.caseId, d.decision.questionId])).toEqual(
      expected.slice(0, LISTED_ROWS).map((d) => [d.caseId, d.questionId]),
    );
  });

  it('lists the first failed cases in run order and groups failures by cause', () => {
    const listings = listingsOfCases(cases);
    const failed = cases.filter((c) => c.request.status === 'failed');
    expect(listings.failedCount).toBe(failed.length);
    expect(listings.failedCases.map((f) => f.caseId)).toEqual(failed.slice(0, LISTED_ROWS).map((c) => c.caseId));
    expect(listings.failureCauses).toEqual([
      { kind: 'timeout', message: 'no answer within 10 s', count: failed.length, firstCaseId: failed[0]!.caseId },
    ]);
  });

  it('gives the same listings and summary whatever order the cases finish in', () => {
    const inOrder = listingsOfCases(cases);
    const summary = summarizeBenchmark(cases);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        const listings = new ListingsAccumulator();
        const acc = new BenchAccumulator();
        for (const { item, position } of shuffled(cases, seed)) {
          listings.add(item, position);
          acc.add(item);
        }
        const d = listings.listings();
        expect({ ...d, latenciesMs: [...d.latenciesMs].sort() }).toEqual({
          ...inOrder,
          latenciesMs: [...inOrder.latenciesMs].sort(),
        });
        expect(acc.summarize()).toEqual(summary);
      }),
      { seed: 15, numRuns: 25 },
    );
  });

  it('indexes where the decisions of every few positions start, whatever order the cases finish in', () => {
    // 1 to 5 decisions a case, and some positions never saved (an incomplete run).
    const varied = Array.from({ length: 3 * TRACE_INDEX_EVERY + 5 }, (_, i) => {
      const c = answeredCase(`invoice_processing_${String(i).padStart(6, '0')}`, rightAnswers(i));
      return { item: { ...c, decisions: c.decisions.slice(0, 1 + (i % 5)) }, position: i };
    }).filter(({ position }) => position % 11 !== 5);
    const acc = new ListingsAccumulator();
    for (const { item } of shuffled(varied, 9)) acc.add(item.item, item.position);
    const { traceIndex } = acc.listings();
    const before = (position: number) =>
      varied.filter((v) => v.position < position).reduce((n, v) => n + v.item.decisions.length, 0);
    expect(traceIndex).toEqual({
      every: TRACE_INDEX_EVERY,
      decisionsBefore: [0, 1, 2, 3].map((i) => before(i * TRACE_INDEX_EVERY)),
    });
    // Each decision's place in the trace is found from the nearest entry at or before it.
    const total = before(Infinity);
    for (const skip of [
      0,
      1,
      before(TRACE_INDEX_EVERY) - 1,
      before(TRACE_INDEX_EVERY),
      before(2 * TRACE_INDEX_EVERY) + 7,
      total - 1,
    ]) {
      const seek = traceSeek(traceIndex, skip);
      expect(seek.decisionsBefore).toBe(before(seek.position));
      expect(seek.decisionsBefore).toBeLessThanOrEqual(skip);
      expect(skip - seek.decisionsBefore).toBeLessThan(
        before(seek.position + TRACE_INDEX_EVERY) - before(seek.position) + 1,
      );
    }
    expect(traceSeek({ every: TRACE_INDEX_EVERY, decisionsBefore: [] }, 50)).toEqual({
      position: 0,
      decisionsBefore: 0,
    });
  });

  it('matches the fixtures the reports are tested on', () => {
    const run = createMixedRun();
    const listings = listingsOfCases(run.cases);
    expect(listings.answeredModels).toEqual([]);
    expect(listings.failedCount).toBe(1);
    expect(listings.disagreements.map((d) => d.outcome.confidence)).toEqual(
      allDisagreements(run.cases).map((d) => d.confidence),
    );
    const many = createManyDisagreementsRun(30);
    expect(listingsOfCases(many.cases).disagreementCount).toBe(allDisagreements(many.cases).length);
  });
});
