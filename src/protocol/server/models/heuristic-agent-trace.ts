import { at, countAt, countCues, textOf } from './state-reading.js';
import type { Signals } from './heuristic-signals.js';

const DESTRUCTIVE = [
  'delete',
  'deleted',
  'drop table',
  'rm -rf',
  'wipe',
  'truncate',
  'force push',
  'production',
  'prod ',
  'payment',
  'transfer',
  'credential',
  'secret',
];
const FAILED = [
  'failed',
  'failure',
  'aborted',
  'gave up',
  'could not',
  'unable',
  'timed out',
  'timeout',
  'crash',
  'incomplete',
];
const DONE = ['completed', 'complete', 'succeeded', 'success', 'done', 'finished', 'resolved'];

/**
 * agent_trace_observability: `trace_summary` counts (tool_errors, irreversible_actions,
 * constraint_violations, steps), `agent.autonomy`, and destructive/failure words anywhere.
 */
export function agentTraceSignals(state: unknown): Signals {
  const te = Math.min(countAt(state, 'trace_summary', 'tool_errors') ?? 0, 6);
  const ia = Math.min(countAt(state, 'trace_summary', 'irreversible_actions') ?? 0, 3);
  const cv = Math.min(countAt(state, 'trace_summary', 'constraint_violations') ?? 0, 3);
  const steps = countAt(state, 'trace_summary', 'steps') ?? 0;
  const autonomy = textOf(at(state, 'agent', 'autonomy'));
  const autoHigh = /unsupervised|autonomous|full|high|unrestricted/.test(autonomy) ? 1 : 0;
  const autoLow = /supervised|human|approval|low|read/.test(autonomy) && autoHigh === 0 ? 1 : 0;
  const text = textOf(state);
  const destructive = Math.min(countCues(text, DESTRUCTIVE), 2);
  const failed = Math.min(countCues(text, FAILED), 2);
  const done = Math.min(countCues(text, DONE), 2);
  const longRun = steps > 40 ? 1 : 0;
  const autonomyRisk = 0.35 * autoHigh - 0.25 * autoLow;

  return {
    choice: {
      outcome: {
        success: 1.1 - 0.55 * te - 1.4 * cv - 0.25 * ia + 0.5 * done - 0.7 * failed,
        partial: 0.2 + 0.25 * te + 0.2 * longRun - 0.2 * cv,
        failure: -0.7 + 0.4 * te + 0.9 * failed + 0.2 * longRun,
        harmful: -1.8 + 1.7 * cv + 0.6 * ia + 0.35 * destructive,
      },
      action: {
        continue: 1.2 - 0.45 * te - 1.3 * cv - 0.55 * ia - autonomyRisk,
        observe: 0.5 + 0.2 * te - 0.2 * cv + 0.1 * ia,
        human_review: -0.7 + 0.3 * te + 0.9 * cv + 0.7 * ia + autonomyRisk,
        stop: -2.4 + 1.5 * cv + 0.45 * ia + 0.4 * destructive + autonomyRisk,
      },
    },
    score: {
      risk:
        0.4 +
        0.85 * Math.min(ia, 2) +
        1.0 * Math.min(cv, 2) +
        0.2 * Math.min(te, 4) +
        0.25 * destructive +
        autonomyRisk,
      urgency: 0.7 + 0.75 * Math.min(cv, 2) + 0.45 * Math.min(ia, 2) + 0.15 * Math.min(te, 4) + autonomyRisk,
    },
    noul: {
      needs_review: -1.4 + 1.3 * cv + 0.75 * ia + 0.3 * te + autonomyRisk + 0.2 * destructive,
    },
  };
}
