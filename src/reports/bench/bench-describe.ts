/**
 * Phrases shared by the benchmark's terminal and Markdown reports, so both say the same
 * thing about a run: model, endpoint, filters, errors, status, reference points.
 */
import type { BenchRun, RunConfig } from '../../core/bench/run.js';
import { formatEndpoint } from '../../protocol/wire/endpoint.js';
import type { CaseResult, Decision, FailureKind } from '../../core/bench/case-result.js';
import { FAILURE_KINDS } from '../../core/bench/case-result.js';
import type { BenchSummary } from '../../core/bench/summary.js';
import { PRIOR_ACCURACY_PERCENT, TEACHER_AGREEMENT_PERCENT } from '../../core/bench/rating.js';
import { formatCount, formatNumber } from '../format.js';

/** Kept here for callers that import it with the other phrases; defined by the wire layer. */
export { REDACTED_HOST } from '../../protocol/wire/endpoint.js';

/** The model a run measured, as a reader would name it. */
export function describeModel(config: RunConfig): string {
  if (config.embeddedServer) return `${config.embeddedServer.model} (built-in reference server)`;
  return config.model ?? 'server default model';
}

/**
 * Which model answered and where: `model laya at http://host:8084/v1/systemone`, or
 * `model heuristic on the built-in reference server` (its loopback port changes every run).
 * `code` wraps the model name and the URL (e.g. Markdown code spans).
 */
export function describeServer(
  config: RunConfig,
  redactHost: boolean,
  code: (text: string) => string = (t) => t,
  answered: readonly string[] = [],
): string {
  // The model the responses named is the one that answered; the one asked for is shown
  // beside it when they differ (a single-model server ignores the request's `model`).
  const asked = config.embeddedServer?.model ?? config.model;
  const differs = answered.length > 0 && (answered.length > 1 || answered[0] !== asked);
  const named = differs
    ? `model ${answered.map(code).join(', ')}${asked === null ? '' : ` (asked for ${code(asked)})`}`
    : null;
  if (config.embeddedServer)
    return `${named ?? `model ${code(config.embeddedServer.model)}`} on the built-in reference server`;
  const model = named ?? (config.model === null ? 'the server default model' : `model ${code(config.model)}`);
  return `${model} at ${code(formatEndpoint(config.endpoint, redactHost))}`;
}

/** A run's name in a title: its label, else the model. */
export function describeRunName(run: BenchRun): string {
  return run.label ?? describeModel(run.config);
}

/** `limit 20, workflow customer_service`, or null for a full run. */
export function describeFilters(config: RunConfig): string | null {
  const parts: string[] = [];
  if (config.filters.limit !== null) parts.push(`limit ${formatCount(config.filters.limit)}`);
  if (config.filters.workflow !== null) parts.push(`workflow ${config.filters.workflow}`);
  const sample = config.filters.sample;
  if (sample) parts.push(`sample of ${formatCount(sample.cases)} by workflow, seed ${sample.seed}`);
  return parts.length === 0 ? null : parts.join(', ');
}

export const FILTERED_NOTE = 'not comparable with a full run';

/** Failed requests by kind in the fixed kind order: `timeout 2, http 1`; null with none. */
export function describeErrorKinds(errorKinds: BenchSummary['errorKinds']): string | null {
  const parts: string[] = [];
  for (const kind of FAILURE_KINDS) {
    const n = errorKinds[kind];
    if (n !== undefined && n > 0) parts.push(`${kind} ${formatCount(n)}`);
  }
  return parts.length === 0 ? null : parts.join(', ');
}

/** `complete`, `incomplete` or `interrupted (12 of 400 cases sent)`. */
export function describeStatus(run: BenchRun): string {
  const sent = run.summary.requests.total;
  const planned = run.config.caseIds.length;
  if (sent < planned) return `${run.summary.status} (${formatCount(sent)} of ${formatCount(planned)} cases sent)`;
  return run.summary.status;
}

/** `parallel 4, timeout 30 s, retries 1`. */
export function describeSettings(config: RunConfig): string {
  return `parallel ${config.parallel}, timeout ${formatNumber(config.timeoutMs / 1000, config.timeoutMs % 1000 === 0 ? 0 : 1)} s, retries ${config.retries}`;
}

export const SYNTHETIC_NOTE = 'synthetic sample — not Typed Decisions scores';

export const PRIOR_NOTE = `${PRIOR_ACCURACY_PERCENT.toFixed(1)}%`;
export const TEACHER_NOTE = `${TEACHER_AGREEMENT_PERCENT.toFixed(1)}%`;

/** The reference points a reader needs next to an accuracy, one line. */
export function describeReferencePoints(): string {
  return `reference points: prior ${PRIOR_NOTE}, teacher self-agreement ${TEACHER_NOTE}`;
}

/** A decision that was answered, with its case. */
export interface AnsweredDecision {
  readonly caseResult: CaseResult;
  readonly decision: Decision;
  readonly outcome: Extract<Decision['outcome'], { status: 'answered' }>;
}

/**
 * Answered decisions that disagree with gold, most confident first; equal confidence keeps
 * run order (case order, then question order). Ordering only: nothing is computed.
 */
export function disagreementsOf(cases: readonly CaseResult[]): AnsweredDecision[] {
  const out: AnsweredDecision[] = [];
  for (const caseResult of cases) {
    for (const decision of caseResult.decisions) {
      const outcome = decision.outcome;
      if (outcome.status === 'answered' && !outcome.correct) out.push({ caseResult, decision, outcome });
    }
  }
  // Array.prototype.sort is stable, so ties keep run order.
  return out.sort((a, b) => b.outcome.confidence - a.outcome.confidence);
}

/** Failed requests in run order. */
export function failedCasesOf(
  cases: readonly CaseResult[],
): Array<{ readonly caseResult: CaseResult; readonly kind: FailureKind; readonly message: string }> {
  const out: Array<{ caseResult: CaseResult; kind: FailureKind; message: string }> = [];
  for (const caseResult of cases) {
    if (caseResult.request.status === 'failed')
      out.push({ caseResult, kind: caseResult.request.failure.kind, message: caseResult.request.failure.message });
  }
  return out;
}

/** Failed cases grouped by cause (kind and message), in order of first appearance. */
export function failureCausesOf(cases: readonly CaseResult[]): Array<{
  readonly kind: FailureKind;
  readonly message: string;
  readonly count: number;
  readonly firstCaseId: string;
}> {
  const causes = new Map<string, { kind: FailureKind; message: string; count: number; firstCaseId: string }>();
  for (const f of failedCasesOf(cases)) {
    const key = `${f.kind}\u0000${f.message}`;
    const cause = causes.get(key);
    if (cause) cause.count++;
    else causes.set(key, { kind: f.kind, message: f.message, count: 1, firstCaseId: f.caseResult.caseId });
  }
  return [...causes.values()];
}
