/**
 * What `runs.check` recomputes: every answered decision re-scored from its stored answers,
 * gold and predicted distribution, and the run's summary recomputed from its stored cases,
 * each compared with what was stored. Pure: the store reads, this compares.
 */
import type { StoredStatus } from '../core/run-status.js';
import type { CaseResult } from '../core/typed-decisions/case-result.js';
import type { ReportedRun } from '../core/bench/run.js';
import { scoreDecision } from '../core/decision-score.js';
import type { RunHeadline } from './stored-run.js';
import { summarizeRun } from './run-summary.js';

/** Scores are recomputed by the same code; the tolerance only absorbs a future change of summation order. */
const RELATIVE_TOLERANCE = 1e-9;
const MAX_DIFFERENCES = 5;

function near(a: number, b: number): boolean {
  if (Object.is(a, b)) return true;
  return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Summary keys added after runs were first stored: a stored summary without them is not damaged. */
const ADDED_SUMMARY_KEYS: readonly string[] = ['logLoss'];

/** True when `path` names an added key that the stored summary does not have at all. */
function addedSince(stored: unknown, path: readonly string[]): boolean {
  if (!ADDED_SUMMARY_KEYS.includes(path[path.length - 1]!)) return false;
  let at: unknown = stored;
  for (const part of path) {
    if (typeof at !== 'object' || at === null) return false;
    at = (at as Record<string, unknown>)[part];
  }
  return at === undefined;
}

/** Summary keys whose values are keyed by data (workflow, question, type, failure kind), not by field names. */
const KEYED_BY_DATA: ReadonlySet<string> = new Set(['byType', 'byWorkflow', 'byQuestion', 'errorKinds']);

/** Ends a path where two arrays differ in length. */
const LENGTH = '(length)';

/**
 * A summary path as the run's JSON names it (`by_workflow.triage.log_loss`, as `bench --json`
 * and `runs show --json` write the summary): field names in snake_case, data keys as they are.
 */
function jsonKeyPath(path: readonly string[]): string {
  if (path[path.length - 1] === LENGTH) return `${jsonKeyPath(path.slice(0, -1))} ${LENGTH}`;
  return path
    .map((part, i) =>
      i > 0 && KEYED_BY_DATA.has(path[i - 1]!) ? part : part.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    )
    .join('.');
}

/** Paths (as key lists: `['byWorkflow', 'triage', 'kl']`) where two JSON values differ. */
function jsonDifferences(a: unknown, b: unknown, path: readonly string[] = []): string[][] {
  if (typeof a === 'number' && typeof b === 'number') return near(a, b) ? [] : [[...path]];
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [[...path, LENGTH]];
    return a.flatMap((x, i) => jsonDifferences(x, b[i], [...path, `${i}`]));
  }
  if (
    typeof a === 'object' &&
    a !== null &&
    typeof b === 'object' &&
    b !== null &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) =>
      jsonDifferences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], [...path, k]),
    );
  }
  return Object.is(a, b) ? [] : [[...path]];
}

function caseProblems(c: CaseResult): string[] {
  const problems: string[] = [];
  for (const d of c.decisions) {
    const where = `case ${c.caseId} question ${d.questionId}`;
    if (d.outcome.status !== c.request.status) {
      problems.push(`${where}: decision ${d.outcome.status} but the request ${c.request.status}`);
      continue;
    }
    const goldIndex = d.answers.indexOf(d.gold.label);
    if (goldIndex < 0) {
      problems.push(
        `${where}: gold answer ${JSON.stringify(d.gold.label)} is not one of its answers ${JSON.stringify(d.answers)}`,
      );
      continue;
    }
    if (d.gold.probabilities.length !== d.answers.length) {
      problems.push(`${where}: ${d.gold.probabilities.length} gold probabilities for ${d.answers.length} answers`);
      continue;
    }
    const o = d.outcome;
    if (o.status !== 'answered') continue;
    if (o.probabilities.length !== d.answers.length) {
      problems.push(`${where}: ${o.probabilities.length} predicted probabilities for ${d.answers.length} answers`);
      continue;
    }
    const s = scoreDecision({ labelIndex: goldIndex, probabilities: d.gold.probabilities }, o.probabilities);
    const predicted = d.answers[s.predictedIndex];
    const wrong: string[] = [];
    if (predicted !== o.predicted)
      wrong.push(`predicted ${JSON.stringify(o.predicted)} (recomputed ${JSON.stringify(predicted)})`);
    if (s.correct !== o.correct) wrong.push(`correct ${o.correct} (recomputed ${s.correct})`);
    if (!near(s.confidence, o.confidence)) wrong.push(`confidence ${o.confidence} (recomputed ${s.confidence})`);
    if (!near(s.kl, o.kl)) wrong.push(`kl ${o.kl} (recomputed ${s.kl})`);
    if (!near(s.brier, o.brier)) wrong.push(`brier ${o.brier} (recomputed ${s.brier})`);
    if (wrong.length > 0) problems.push(`${where}: stored ${wrong.join(', ')}`);
  }
  return problems;
}

/** Problems in a run as read back; empty when it agrees with itself. */
export function checkRunRecords(
  run: ReportedRun,
  stored: {
    readonly status: StoredStatus;
    /** False while the run is running (its summary is computed on reading). */
    readonly summaryStored: boolean;
    readonly headline: RunHeadline | null;
    readonly caseCount: number;
  },
): string[] {
  const problems: string[] = [];
  if (stored.caseCount !== run.config.caseIds.length)
    problems.push(`case count ${stored.caseCount}, but ${run.config.caseIds.length} cases in its configuration`);
  let decisionProblems = 0;
  for (const c of run.cases)
    for (const problem of caseProblems(c)) if (decisionProblems++ < MAX_DIFFERENCES) problems.push(problem);
  if (decisionProblems > MAX_DIFFERENCES)
    problems.push(`and ${decisionProblems - MAX_DIFFERENCES} more decisions that do not agree with their scores`);
  if (run.durationMs !== null && !(run.durationMs >= 0)) problems.push(`duration_ms ${run.durationMs}`);
  if (stored.status === 'running') {
    if (stored.summaryStored) problems.push('a running run with a stored summary');
    return problems;
  }
  if (!stored.summaryStored) {
    problems.push(`status ${stored.status} but no stored summary`);
    return problems;
  }
  if (run.summary.status !== stored.status)
    problems.push(`status ${stored.status} but its summary says ${run.summary.status}`);
  const recomputed = summarizeRun(run.config, run.cases, { interrupted: stored.status === 'interrupted' });
  const differ = jsonDifferences(run.summary, recomputed)
    .filter((p) => p.join('.') !== 'status' && !addedSince(run.summary, p))
    .map(jsonKeyPath);
  if (differ.length > 0) {
    const shown = differ.slice(0, MAX_DIFFERENCES).join(', ');
    problems.push(
      `stored summary differs from the one recomputed from its decisions in ${shown}${differ.length > MAX_DIFFERENCES ? ` and ${differ.length - MAX_DIFFERENCES} more` : ''}`,
    );
  }
  const h = stored.headline;
  if (h !== null) {
    const columns: [string, number | null, number | null][] = [
      ['accuracy', h.accuracy, recomputed.accuracy],
      ['kl', h.kl, recomputed.kl],
      ['brier', h.brier, recomputed.brier],
      ['total', h.total, recomputed.total],
      ['correct', h.correct, recomputed.correct],
      ['errors', h.errors, recomputed.errors],
    ];
    const off = columns.filter(([, a, b]) => (a === null || b === null ? a !== b : !near(a, b))).map(([k]) => k);
    if (off.length > 0) problems.push(`listed ${off.join(', ')} differ from the recomputed summary`);
  }
  return problems;
}
