/**
 * Phrases shared by the benchmark's terminal and Markdown reports, so both say the same
 * thing about a run: model, endpoint, filters, errors, status, reference points.
 */
import { casesNotSent, type ReportedRun, type RunConfig } from '../../core/bench/run.js';
import { formatEndpoint } from '../../protocol/wire/endpoint.js';
import { FAILURE_KINDS } from '../../core/typed-decisions/case-result.js';
import type { BenchSummary } from '../../core/bench/summary.js';
import { PRIOR_ACCURACY_PERCENT, TEACHER_AGREEMENT_PERCENT } from '../../core/bench/rating.js';
import { formatCount, formatNumber } from '../format.js';

/** Kept here for callers that import it with the other phrases; defined by the wire layer. */
export { REDACTED_HOST } from '../../protocol/wire/endpoint.js';

/** The model a run measured, as a reader would name it. */
export function describeModel(config: RunConfig, answered: readonly string[] = []): string {
  if (config.embeddedServer) return `${config.embeddedServer.model} (built-in reference server)`;
  if (config.model !== null) return config.model;
  return answered.length === 0 ? 'server default model' : `none asked; answered by ${answered.join(', ')}`;
}

/**
 * The model a run that asked for none got, in a title or a list cell: `heuristic (server
 * default)`, the name first so that a cut cell keeps it; null when no answer named one.
 */
export function describeDefaultModel(answered: readonly string[]): string | null {
  return answered.length === 0 ? null : `${answered.join(', ')} (server default)`;
}

/**
 * A list cell for the model of a run on a server it reached by URL: the model asked for, else
 * the one its answers named (`heuristic (server default)`), else `server default`.
 */
export function describeAskedModel(model: string | null, answered: readonly string[] | null): string {
  return model ?? describeDefaultModel(answered ?? []) ?? 'server default';
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
  return `${model} at ${describeEndpoints(config, redactHost, code)}`;
}

/**
 * Where a run was sent: its server's endpoint, or for a run on replicas each of them in their
 * base-URL order (`replica N` with `redactHost`), with its own requests in flight when each
 * was given its own: `http://a:8000 (parallel 2), http://b:8000 (parallel 3)`.
 */
export function describeEndpoints(
  config: RunConfig,
  redactHost: boolean,
  code: (text: string) => string = (t) => t,
): string {
  const replicas = config.replicas;
  if (replicas === undefined || replicas.length === 0) return code(formatEndpoint(config.endpoint, redactHost));
  return replicas
    .map((url, i) => {
      const own = config.parallelByReplica?.[i];
      return `${code(redactHost ? `replica ${i + 1}` : url)}${own === undefined ? '' : ` (parallel ${own})`}`;
    })
    .join(', ');
}

/**
 * A run's name in a title: its label, else the model (for a run that asked for none, the
 * one that `answered`, the models its answers named).
 */
export function describeRunName(
  run: Pick<ReportedRun, 'config' | 'summary' | 'label' | 'id'>,
  answered: readonly string[] = [],
): string {
  const unasked = run.config.model === null && !run.config.embeddedServer;
  return run.label ?? (unasked ? describeDefaultModel(answered) : null) ?? describeModel(run.config);
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
export function describeStatus(run: Pick<ReportedRun, 'config' | 'summary' | 'label' | 'id'>): string {
  if (casesNotSent(run) > 0)
    return `${run.summary.status} (${formatCount(run.summary.requests.total)} of ${formatCount(run.config.caseIds.length)} cases sent)`;
  return run.summary.status;
}

/** `parallel 4, timeout 30 s, retries 1` (`parallel 8, 2 (per replica), …` when each replica had its own). */
export function describeSettings(config: RunConfig): string {
  const parallel =
    config.parallelByReplica === undefined
      ? `${config.parallel}`
      : `${config.parallelByReplica.join(', ')} (per replica)`;
  return `parallel ${parallel}, timeout ${formatNumber(config.timeoutMs / 1000, config.timeoutMs % 1000 === 0 ? 0 : 1)} s, retries ${config.retries}`;
}

export const SYNTHETIC_NOTE = 'synthetic sample — not Typed Decisions scores';

export const PRIOR_NOTE = `${PRIOR_ACCURACY_PERCENT.toFixed(1)}%`;
export const TEACHER_NOTE = `${TEACHER_AGREEMENT_PERCENT.toFixed(1)}%`;

/** The reference points a reader needs next to an accuracy, one line. */
export function describeReferencePoints(): string {
  return `reference points: prior ${PRIOR_NOTE}, teacher self-agreement ${TEACHER_NOTE}`;
}
