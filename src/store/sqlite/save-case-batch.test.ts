import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { answeredCase, failedCase, rightAnswers, runConfig } from '../../core/bench/test-support/run-fixtures.js';
import { tempFoldersRemovedAfterEach } from '../../datasets/test-support/temp-folders.js';
import type { Store } from '../store.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { DECISION_ROWS_A_STATEMENT } from './run-statements.js';

const freshFolder = tempFoldersRemovedAfterEach('decidekit-save-batch-');
const open: Store[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

/** A case of `n` decisions: the fixture's three questions again and again, each its own id. */
function caseOf(id: string, n: number, make = (caseId: string) => answeredCase(caseId, rightAnswers())): CaseResult {
  const one = make(id);
  return {
    ...one,
    decisions: Array.from({ length: n }, (_, i) => ({
      ...one.decisions[i % one.decisions.length]!,
      questionId: `q${i}`,
    })),
  };
}

describe("saving a batch's cases", () => {
  it('stores a case of more decisions than one insert writes whole, in order, its digest matching', () => {
    const store = openSqliteStore(join(freshFolder(), 'runs.sqlite'));
    open.push(store);
    const config = runConfig();
    const ids = config.caseIds;
    const head = store.runs.create({ config, label: null, createdAt: '2026-12-06T16:30:00Z' });
    const sizes = [DECISION_ROWS_A_STATEMENT * 2 + 3, DECISION_ROWS_A_STATEMENT, 1, DECISION_ROWS_A_STATEMENT + 1];
    const cases = sizes.map((n, i) => caseOf(ids[i]!, n, i === 2 ? (caseId) => failedCase(caseId) : undefined));
    store.cases.save(head.id, cases);
    expect(store.cases.readAll(head.id)).toEqual(cases);
    expect(store.runs.check(head.id).problems).toEqual([]);
    // Saved again (a retry): replaced, not doubled.
    store.cases.save(head.id, [cases[0]!]);
    expect(store.cases.readAll(head.id).map((c) => c.decisions.length)).toEqual(sizes);
  });
});
