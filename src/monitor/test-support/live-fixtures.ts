/** Probe results built with the core's own `scoreCase`, for the monitor's tests. */
import { scoreCase, type TypedDecisionsCase, type CaseResult } from '../../core/typed-decisions/case-result.js';
import type { Question } from '../../core/question.js';
import type { LlamaCppMetrics } from '../../protocol/wire/prometheus-text.js';
import type { LiveInfo } from '../live-state.js';

export const INFO: LiveInfo = {
  target: 'http://127.0.0.1:8084',
  embedded: true,
  model: 'heuristic',
  datasetCredit: 'synthetic sample (decidekit/typed-decisions-synthetic-sample): not Typed Decisions scores',
  cases: 100,
  intervalMs: 500,
};

const NOUL: Question = { type: 'noul', instructions: 'Needs review?' };
const CHOICE: Question = {
  type: 'choice',
  instructions: 'Next action?',
  options: ['refund', 'escalate', 'close'],
  descriptions: [null, null, null],
};
const SCORE: Question = { type: 'score', instructions: 'Urgency?', levels: ['low', 'mid', 'high'] };

/** A case whose gold is the first answer of each question: noul `true`, choice `refund`, score `0`. */
export function threeQuestionCase(id: string, workflow = 'customer_service'): TypedDecisionsCase {
  return {
    id,
    workflow,
    state: { ticket: id },
    questions: [
      ['needs_review', NOUL],
      ['action', CHOICE],
      ['urgency', SCORE],
    ],
    gold: [
      { labelIndex: 0, probabilities: [1, 0] },
      { labelIndex: 0, probabilities: [0.8, 0.1, 0.1] },
      { labelIndex: 0, probabilities: [0.7, 0.2, 0.1] },
    ],
  };
}

/** A one-question case (noul, gold `true`). */
export function noulCase(id: string): TypedDecisionsCase {
  return {
    id,
    workflow: 'agent_trace',
    state: 'state',
    questions: [['needs_review', NOUL]],
    gold: [{ labelIndex: 0, probabilities: [1, 0] }],
  };
}

/** A noul answer at confidence `c` that is right (`true` on top) or wrong (`false` on top). */
export function noulAnswer(right: boolean, c: number): number[] {
  return right ? [c, 1 - c] : [1 - c, c];
}

export function answered(
  benchCase: TypedDecisionsCase,
  predicted: readonly (readonly number[])[],
  request: { latencyMs?: number; inputTokens?: number | null } = {},
): CaseResult {
  return scoreCase(benchCase, {
    status: 'answered',
    latencyMs: request.latencyMs ?? 10,
    inputTokens: request.inputTokens === undefined ? 100 : request.inputTokens,
    predicted,
  });
}

export function failed(benchCase: TypedDecisionsCase, message = 'HTTP 500: internal error'): CaseResult {
  return scoreCase(benchCase, { status: 'failed', failure: { kind: 'http', message }, latencyMs: 5 });
}

export function metrics(values: Partial<LlamaCppMetrics>): LlamaCppMetrics {
  const m = {
    promptTokensTotal: null,
    decodeTotal: null,
    requestsProcessing: null,
    requestsDeferred: null,
    busySlotsPerDecode: null,
    ...values,
  };
  return { ...m, llamaCppLike: m.promptTokensTotal !== null && m.decodeTotal !== null };
}
