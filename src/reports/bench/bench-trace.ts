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
  let text = '';
  for (let i = 0; i < answers.length; i++)
    text += `${i === 0 ? '' : ' '}${answerLabel(answers[i]!)}${formatNumber(probabilities[i] ?? null)}`;
  return text;
}

/**
 * Answers, question ids and labels come from a small vocabulary that every case repeats, so
 * each is escaped once; the memo is emptied when it grows past a bound (a run whose labels
 * are all different costs no more than escaping each).
 */
const MEMO_LIMIT = 4_096;
const escapedWords = new Map<string, string>();
const answerLabels = new Map<string, string>();

function memo(cache: Map<string, string>, text: string, make: (text: string) => string): string {
  let made = cache.get(text);
  if (made === undefined) {
    if (cache.size >= MEMO_LIMIT) cache.clear();
    made = make(text);
    cache.set(text, made);
  }
  return made;
}

/** `singleLine` of a word the run repeats (an answer, a question id, a label). */
const word = (text: string): string => memo(escapedWords, text, singleLine);
/** `answer=` as a distribution shows it. */
const answerLabel = (answer: string): string => memo(answerLabels, answer, (a) => `${singleLine(a)}=`);

/**
 * Distributions rendered, by their arrays: a stored run's read hands the same arrays to every
 * decision whose stored text is the same (a question's answers, a gold or predicted
 * distribution), so each is rendered once while it is seen; arrays made one a decision (a run
 * in memory) each miss once. Bounded as the words are.
 */
const renderedDistributions = new Map<readonly number[], { answers: readonly string[]; text: string }>();

function distributionText(answers: readonly string[], probabilities: readonly number[]): string {
  const known = renderedDistributions.get(probabilities);
  if (known !== undefined && known.answers === answers) return known.text;
  const text = renderDistribution(answers, probabilities);
  if (renderedDistributions.size >= MEMO_LIMIT) renderedDistributions.clear();
  renderedDistributions.set(probabilities, { answers, text });
  return text;
}

/** A decision's lines, each ending in a line feed. */
function decisionText(d: Decision): string {
  const head = `  ${word(d.questionId)} (${d.type})`;
  const gold = `      gold  ${distributionText(d.answers, d.gold.probabilities)}\n`;
  const o = d.outcome;
  switch (o.status) {
    case 'answered':
      return `${head}  ${o.correct ? '✓' : '✗'}  pred ${word(o.predicted)}  gold ${word(d.gold.label)}  KL ${formatNumber(o.kl)}  Brier ${formatNumber(o.brier)}
      pred  ${distributionText(d.answers, o.probabilities)}
${gold}`;
    case 'failed':
      return `${head}  –  pred none  gold ${word(d.gold.label)}  (${o.failure.kind})\n${gold}`;
    default:
      return assertNever(o);
  }
}

/**
 * The trace of one case as text, each line ending in a line feed: the header (case id and,
 * when the state is known, its preview), the request's error when it failed, then each
 * decision with both distributions.
 */
export function renderCaseTraceText(caseResult: CaseResult, state?: string | object): string {
  const id = singleLine(caseResult.caseId);
  let text = state === undefined ? `${id}\n` : `${id}  ${renderStatePreview(state)}\n`;
  const r = caseResult.request;
  if (r.status === 'failed')
    text += `  error  ${r.failure.kind}: ${singleLine(r.failure.message)}${r.latencyMs === null ? '' : `  (after ${formatLatencyMs(r.latencyMs)})`}\n`;
  for (const d of caseResult.decisions) text += decisionText(d);
  return text;
}

/** {@link renderCaseTraceText} as lines. */
export function renderCaseTrace(caseResult: CaseResult, state?: string | object): string[] {
  return renderCaseTraceText(caseResult, state).slice(0, -1).split('\n');
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
