/**
 * The live monitor away from a terminal: one plain line per poll (piped, CI), one JSON
 * object per poll (`--json`), and the `--record` JSONL line of a poll's request outcome
 * and scores (no key, no credentials: the client scrubs them from failure messages).
 */
import type { CaseResult } from '../core/typed-decisions/case-result.js';
import { formatCount, formatLatencyMs, formatNumber, formatPercent, singleLine } from '../reports/format.js';
import { isUnreachable, sessionAccuracy, type LiveState } from './live-state.js';

/** The plain line for the poll just reduced into `state`. */
export function renderPollLine(state: LiveState): string {
  const latest = state.latest;
  if (latest === null) return '';
  const { result } = latest;
  const head = `probe ${formatCount(state.polls)} ${result.caseId} (${result.workflow})`;
  const request = result.request;
  const what =
    request.status === 'answered'
      ? `${latest.matches}/${result.decisions.length} match gold, ${formatLatencyMs(request.latencyMs)}, ${request.inputTokens === null ? 'n/a' : formatCount(request.inputTokens)} input tokens`
      : `failed (${request.failure.kind}): ${singleLine(request.failure.message)}`;
  const s = state.summary;
  const session = sessionAccuracy(state);
  const quality = `window ${formatPercent(s.accuracy)} accuracy (${formatPercent(s.answeredAccuracy)} of answered), ECE ${formatNumber(s.ece)} over ${s.n}; session ${formatPercent(session)}`;
  const notes = [
    ...(isUnreachable(state) ? [`model unreachable (${state.failureStreak} failed probes in a row)`] : []),
    ...(latest.mistake === null ? [] : [latest.mistake]),
  ];
  return [`${head}: ${what}`, quality, ...notes].join(' | ');
}

/** One JSON object (one line) for the poll just reduced into `state`; unrounded numbers. */
export function renderPollJson(state: LiveState, atIso: string): string {
  const latest = state.latest;
  if (latest === null) return '';
  const { result } = latest;
  const s = state.summary;
  return JSON.stringify({
    probe: state.polls,
    at: atIso,
    case_id: result.caseId,
    workflow: result.workflow,
    request: requestJson(result),
    matches: latest.matches,
    decisions: result.decisions.length,
    window: {
      n: s.n,
      accuracy: s.accuracy,
      answered: s.answered,
      answered_accuracy: s.answeredAccuracy,
      ece: s.ece,
      brier: s.brier,
      mean_confidence: s.meanConfidence,
    },
    session: {
      probes: state.polls,
      failed_probes: state.failedPolls,
      decisions: state.decisions,
      accuracy: sessionAccuracy(state),
      confident_mistakes: state.confidentMistakes,
      input_tokens: state.inputTokens,
      latency_p50_ms: state.latency.p50,
      latency_p95_ms: state.latency.p95,
    },
    unreachable: isUnreachable(state),
  });
}

/** The `--record` line of one poll: enough to score the session again later. */
export function renderPollRecord(result: CaseResult, atIso: string): string {
  return JSON.stringify({
    at: atIso,
    case_id: result.caseId,
    workflow: result.workflow,
    request: requestJson(result),
    decisions: result.decisions.map((d) => ({
      question: d.questionId,
      type: d.type,
      answers: d.answers,
      gold_label: d.gold.label,
      gold_probabilities: d.gold.probabilities,
      ...(d.outcome.status === 'answered'
        ? {
            status: 'answered',
            probabilities: d.outcome.probabilities,
            predicted: d.outcome.predicted,
            confidence: d.outcome.confidence,
            correct: d.outcome.correct,
            kl: d.outcome.kl,
            brier: d.outcome.brier,
          }
        : { status: 'failed' }),
    })),
  });
}

function requestJson(result: CaseResult) {
  const r = result.request;
  return r.status === 'answered'
    ? { status: 'answered', latency_ms: r.latencyMs, input_tokens: r.inputTokens }
    : { status: 'failed', kind: r.failure.kind, message: r.failure.message, latency_ms: r.latencyMs };
}
