/**
 * The full decision trace of a benchmark run, one block per case:
 *
 *   agent_trace_observability_000001  {"agent": {"autonomy": "unsupervised", ...
 *     needs_review (noul)  ✗  pred true  gold false  KL 0.268  Brier 0.260
 *         pred  true=0.611 false=0.389
 *         gold  true=0.250 false=0.750
 */
import type { CaseResult, Decision } from '../../core/typed-decisions/case-result.js';
import { assertNever } from '../../core/question.js';
import { formatLatencyMs, formatNumber, singleLine } from '../format.js';

/** Characters of a state preview before it is cut. */
export const STATE_PREVIEW_CHARS = 72;

/**
 * JSON in the reference's readable style (`", "` and `": "` separators) on one line. Keys
 * keep their order; strings are escaped as JSON does, so the result is one line.
 */
function readableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(readableJson).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${readableJson(v)}`).join(', ')}}`;
}

/**
 * The start of a case's state on one line: objects as JSON, strings as their text. A cut
 * preview ends at a `, ` boundary when one is near, then `...`.
 */
export function renderStatePreview(state: string | object, maxChars = STATE_PREVIEW_CHARS): string {
  const text = typeof state === 'string' ? singleLine(state) : readableJson(state);
  const chars = [...text];
  if (chars.length <= maxChars) return text;
  const head = chars.slice(0, maxChars).join('');
  const comma = head.lastIndexOf(', ');
  return comma >= maxChars / 2 ? `${head.slice(0, comma)}, ...` : `${head}...`;
}

/** `true=0.611 false=0.389`, in the question's answer order. */
export function renderDistribution(answers: readonly string[], probabilities: readonly number[]): string {
  return answers.map((a, i) => `${singleLine(a)}=${formatNumber(probabilities[i] ?? null)}`).join(' ');
}

function renderDecision(d: Decision): string[] {
  const head = `  ${singleLine(d.questionId)} (${d.type})`;
  const gold = `      gold  ${renderDistribution(d.answers, d.gold.probabilities)}`;
  const o = d.outcome;
  switch (o.status) {
    case 'answered':
      return [
        `${head}  ${o.correct ? '✓' : '✗'}  pred ${singleLine(o.predicted)}  gold ${singleLine(d.gold.label)}  KL ${formatNumber(o.kl)}  Brier ${formatNumber(o.brier)}`,
        `      pred  ${renderDistribution(d.answers, o.probabilities)}`,
        gold,
      ];
    case 'failed':
      return [`${head}  –  pred none  gold ${singleLine(d.gold.label)}  (${o.failure.kind})`, gold];
    default:
      return assertNever(o);
  }
}

/**
 * The trace of one case: the header (case id and, when the state is known, its preview),
 * the request's error when it failed, then each decision with both distributions.
 */
export function renderCaseTrace(caseResult: CaseResult, state?: string | object): string[] {
  const id = singleLine(caseResult.caseId);
  const lines = [state === undefined ? id : `${id}  ${renderStatePreview(state)}`];
  const r = caseResult.request;
  if (r.status === 'failed')
    lines.push(
      `  error  ${r.failure.kind}: ${singleLine(r.failure.message)}${r.latencyMs === null ? '' : `  (after ${formatLatencyMs(r.latencyMs)})`}`,
    );
  for (const d of caseResult.decisions) lines.push(...renderDecision(d));
  return lines;
}

/** Every case of a run, in run order, separated by blank lines. */
export function renderTrace(cases: readonly CaseResult[], states?: ReadonlyMap<string, string | object>): string[] {
  const lines: string[] = [];
  for (const c of cases) {
    if (lines.length > 0) lines.push('');
    lines.push(...renderCaseTrace(c, states?.get(c.caseId)));
  }
  return lines;
}
