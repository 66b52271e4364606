import { describe, expect, it } from 'vitest';
import { renderCaseTraceText, renderDistribution } from './bench-trace.js';
import { answeredCase, rightAnswers } from '../../core/bench/test-support/run-fixtures.js';
import type { CaseResult, Decision } from '../../core/typed-decisions/case-result.js';

/** The case with every decision's answers renamed, its distributions the very same arrays. */
function renamed(c: CaseResult, prefix: string): CaseResult {
  const decisions: Decision[] = c.decisions.map((d) => ({ ...d, answers: d.answers.map((a) => `${prefix}${a}`) }));
  return { ...c, decisions };
}

describe('the trace of a case', () => {
  it("shows each decision's distributions against its own answers when their arrays are shared", () => {
    const c = answeredCase('c1', rightAnswers());
    const other = renamed(c, 'x');
    // The same arrays shown three times, the middle time beside other answers.
    for (const shown of [c, other, c]) {
      const text = renderCaseTraceText(shown);
      for (const d of shown.decisions) {
        expect(text).toContain(`gold  ${renderDistribution(d.answers, d.gold.probabilities)}\n`);
        if (d.outcome.status === 'answered')
          expect(text).toContain(`pred  ${renderDistribution(d.answers, d.outcome.probabilities)}\n`);
      }
    }
    expect(renderCaseTraceText(other)).toContain('xtrue=');
  });
});
