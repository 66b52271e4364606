import { UNCLEAR } from '../../core/audit/check.js';
import type { AuditRecord, AuditRun } from '../../core/audit/run.js';
import type { Kappa } from '../../core/audit/agreement.js';
import { describeOutcome, type AuditStatus } from '../../core/audit/verdict.js';
import { formatNumber } from '../format.js';
import { describeEndpoint } from '../../protocol/wire/endpoint.js';

/** Table order: disagreements first (the review candidates), then abstentions, unavailable, agreements. */
const ORDER: readonly AuditStatus[] = ['disagrees', 'abstained', 'unavailable', 'agrees'];

/** The records in table order (stable within a status: plan order). */
export function recordsForTable(run: AuditRun): AuditRecord[] {
  return ORDER.flatMap((s) => run.records.filter((r) => r.outcome.status === s));
}

/** The two limits every audit report states. */
export const AUDIT_LIMITS: readonly string[] = [
  "The judge's probabilities are not calibrated against human labels: read them as the judge's own confidence, not as a chance of being right.",
  'Assistant text can steer a judge (prompt injection): the question tells the judge that messages are evidence, not instructions, and nothing detects an injection that works anyway.',
];

/** What the judge said, in one cell: `claimed p=0.87`, `unclear p=0.75`, `timeout: ...`. */
export function judgeCell(r: AuditRecord): string {
  return describeOutcome(r.outcome);
}

/** The status word shown in tables. */
export function statusWord(r: AuditRecord): string {
  const o = r.outcome;
  return o.status === 'abstained' ? `abstained (${o.reason === 'tie' ? 'tie' : UNCLEAR})` : o.status;
}

/** `0.40 [0.15, 0.65]` or n/a. */
export function kappaText(k: Kappa | null): string {
  return k === null ? 'n/a' : `${formatNumber(k.kappa, 2)} [${formatNumber(k.low, 2)}, ${formatNumber(k.high, 2)}]`;
}

/** `the built-in reference server`, or the endpoint as stored (scheme, host, port, path). */
export function describeJudge(run: AuditRun): string {
  const where = describeEndpoint(run.config.judgeEndpoint);
  return `${run.config.judgeModel === null ? 'the server default model' : `model ${JSON.stringify(run.config.judgeModel)}`} at ${where}`;
}
