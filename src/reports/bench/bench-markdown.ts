import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { appliedCalibrationOf, listingsOf, type ReportedRun } from '../../core/bench/run.js';
import { recalibratedText } from '../../core/calibration-map.js';
import type { RunListings } from '../../core/bench/run-listings.js';
import type { MetricGroup } from '../../core/bench/summary.js';
import { CONFIDENT_THRESHOLD } from '../../core/bench/summary.js';
import { QUESTION_TYPES } from '../../core/question.js';
import {
  describeErrorKinds,
  describeFilters,
  describeServer,
  describeRunName,
  describeSettings,
  describeStatus,
  FILTERED_NOTE,
  PRIOR_NOTE,
  TEACHER_NOTE,
} from './bench-describe.js';
import { renderCaseTraceText } from './bench-trace.js';
import type { HeadlineMetric, RunStatistics } from '../../core/bench/run-statistics.js';
import {
  describeEceNoise,
  describeIntervals,
  describeRunConventions,
  formatInterval,
  intervalOf,
} from './bench-statistics.js';
import {
  escapeMarkdownText,
  formatCount,
  formatDuration,
  formatLatencyMs,
  formatNumber,
  formatPercent,
  formatRatio,
  formatSigned,
  formatUsd,
  markdownCode,
  renderBar,
  renderMarkdownTable,
  renderStars,
} from '../format.js';
import { replicasOf, setAsideTexts } from './replica-latency.js';

export interface BenchMarkdownOptions {
  /** Show the server host as `<redacted>` (scheme, port and path stay). Default false. */
  readonly redactHost?: boolean;
  /** Case id -> state, for the state preview in the trace; without it the preview is left out. */
  readonly states?: ReadonlyMap<string, string | object>;
  /** Intervals, ECE noise floor and conventions; absent: the numbers alone. */
  readonly statistics?: RunStatistics | null;
}

/** A Markdown trace rendered ahead: its pieces in run order and the longest run of backticks in them. */
export interface RenderedMarkdownTrace {
  readonly longestTicks: number;
  readonly pieces: Iterable<string>;
}

/**
 * Renders the trace one case at a time, in run order, keeping the longest backtick run seen
 * (the report's code fence must be longer than any): each `piece` is what the report writes
 * for the case.
 */
export class MarkdownTraceRenderer {
  #longestTicks = 0;
  #first = true;

  constructor(private readonly states?: ReadonlyMap<string, string | object>) {}

  get longestTicks(): number {
    return this.#longestTicks;
  }

  piece(c: CaseResult): string {
    const trace = renderCaseTraceText(c, this.states?.get(c.caseId));
    this.#longestTicks = Math.max(this.#longestTicks, longestBacktickRun(trace));
    const piece = this.#first ? trace : `\n${trace}`;
    this.#first = false;
    return piece;
  }
}

/** Rows of the "Disagreements with gold" table before the count of the rest. */
export const DISAGREEMENT_ROWS = 10;
/** Failed cases listed under "requests and errors" before the count of the rest. */
export const FAILED_CASE_ROWS = 10;

/**
 * The Markdown report of a benchmark run, sections in the order docs/benchmark.md
 * lists under "Outputs".
 * Every number comes from `run.summary` or the run's own cases; absent values read `n/a`.
 */
export function renderBenchMarkdown(run: ReportedRun, options: BenchMarkdownOptions = {}): string {
  return [...renderBenchMarkdownChunks(run, options)].join('');
}

/**
 * `renderBenchMarkdown` in pieces: the report up to the trace, then the trace case by case,
 * so a run of any size is written without the whole text in memory. `trace`: the trace
 * rendered ahead, case by case (`MarkdownTraceRenderer`, in the pass that gathered the
 * run's numbers), and then no case is read; without it the cases are read twice (once to
 * choose a code fence no trace line can close).
 */
export function* renderBenchMarkdownChunks(
  run: ReportedRun,
  options: BenchMarkdownOptions = {},
  trace?: RenderedMarkdownTrace,
): Generator<string> {
  const s = run.summary;
  const listings = listingsOf(run);
  const nothingAnswered = s.rating.stars === 0;
  const out: string[] = [];
  const para = (...lines: string[]): void => {
    out.push(...lines, '');
  };

  out.push(...titleSection(run, listings, options.redactHost === true));
  out.push(...headlineSection(run, options));
  out.push(...requestsSection(run, listings));
  out.push(...readingSection(run, options.statistics ?? null));
  out.push(...breakdownSections(s));
  out.push(
    ...calibrationSections(
      s,
      options.redactHost === true,
      setAsideTexts(run, options.redactHost === true),
      run.config.replicas,
    ),
  );
  out.push(...disagreementsSection(listings, nothingAnswered));

  // Full trace.
  para('## Trace');
  if (run.cases.length === 0) {
    para('No cases were sent.');
    yield `${out.join('\n').replace(/\n+$/, '')}\n`;
    return;
  }
  const { longestTicks, pieces } = trace ?? traceReadTwice(run, options.states);
  const fence = '`'.repeat(Math.max(3, longestTicks + 1));
  out.push(
    '<details>',
    `<summary>Every decision with both distributions (${formatCount(s.total)} decisions in ${formatCount(run.cases.length)} cases)</summary>`,
    '',
    `${fence}text`,
  );
  yield `${out.join('\n')}\n`;
  yield* pieces;
  yield `${fence}\n\n</details>\n`;
}

/** The trace without a pass made ahead: one pass for the fence, another for the pieces. */
function traceReadTwice(
  run: ReportedRun,
  states: ReadonlyMap<string, string | object> | undefined,
): RenderedMarkdownTrace {
  const fenceOf = new MarkdownTraceRenderer(states);
  for (const c of run.cases) fenceOf.piece(c);
  return {
    longestTicks: fenceOf.longestTicks,
    pieces: {
      *[Symbol.iterator]() {
        const renderer = new MarkdownTraceRenderer(states);
        for (const c of run.cases) yield renderer.piece(c);
      },
    },
  };
}

/** The title, the run's provenance, and the synthetic and filtered warnings. */
function titleSection(run: ReportedRun, listings: RunListings, redactHost: boolean): string[] {
  const out: string[] = [];
  paragraph(out, `# Decision benchmark: ${escapeMarkdownText(describeRunName(run, listings.answeredModels))}`);
  paragraph(out, renderProvenance(run, redactHost, listings.answeredModels));
  const notes: string[] = [];
  if (run.config.dataset.synthetic) {
    notes.push(
      `> **Synthetic sample — not Typed Decisions scores.** These cases were generated for demos and tests in the shape of ${markdownCode('LocalLLaMA/typed-decisions')}; do not compare these numbers with the dataset card.`,
    );
  }
  const filters = describeFilters(run.config);
  if (filters !== null) notes.push(`> **Filtered run** (${escapeMarkdownText(filters)}): ${FILTERED_NOTE}.`);
  const recalibrated = appliedCalibrationOf(run);
  if (recalibrated !== null)
    notes.push(`> **Recalibrated.** ${escapeMarkdownText(`Every number ${recalibratedText(recalibrated)}`)}.`);
  if (notes.length > 0) paragraph(out, notes.join('\n>\n'));
  return out;
}

/** Headline: accuracy; KL, Brier, log loss, ECE (with their intervals); the conventions; the rating. */
function headlineSection(run: ReportedRun, options: BenchMarkdownOptions): string[] {
  const s = run.summary;
  const nothingAnswered = s.rating.stars === 0;
  const out: string[] = [];
  const st = options.statistics ?? null;
  const ci = (metric: HeadlineMetric) => {
    const text = formatInterval(metric, intervalOf(st, metric));
    return text === '' ? '' : ` ${text}`;
  };
  paragraph(
    out,
    `**Accuracy: ${formatPercent(s.accuracy)}**${ci('accuracy')} (${formatRatio(s.correct, s.total)} decisions${s.errors > 0 ? `; ${formatCount(s.errors)} errors count as misses` : ''})`,
  );
  const noise = describeEceNoise(st);
  paragraph(
    out,
    `**KL from gold:** ${formatNumber(s.kl)}${ci('kl')} · **Brier:** ${formatNumber(s.brier)}${ci('brier')} · **Log loss:** ${formatNumber(s.logLoss)}${ci('logLoss')} · **ECE:** ${formatNumber(s.ece)}${ci('ece')}${noise === null ? '' : ` (${noise})`}`,
  );
  if (st !== null) paragraph(out, escapeMarkdownText(describeRunConventions(st)));
  paragraph(
    out,
    nothingAnswered
      ? `**Rating:** ${s.rating.label}`
      : `**Rating:** ${renderStars(s.rating.stars)} ${s.rating.label}${run.config.dataset.synthetic ? " (the card's reference points; only indicative on the synthetic sample)" : ''}`,
  );
  return out;
}

/** Requests, the failed cases, duration, tokens and cost. */
function requestsSection(run: ReportedRun, listings: RunListings): string[] {
  const s = run.summary;
  const out: string[] = [];
  // Requests and errors.
  const kinds = describeErrorKinds(s.errorKinds);
  paragraph(
    out,
    `**Requests:** ${formatCount(s.requests.total)} sent, ${formatCount(s.requests.answered)} answered, ${formatCount(s.requests.failed)} failed` +
      `${kinds === null ? '' : ` (${kinds})`} · completion ${formatPercent(s.completionRate)} · status ${describeStatus(run)}`,
  );
  if (listings.failedCount > 0) {
    const rows = listings.failedCases
      .slice(0, FAILED_CASE_ROWS)
      .map((f) => `- ${markdownCode(f.caseId)} ${f.kind}: ${escapeMarkdownText(f.message)}`);
    if (listings.failedCount > FAILED_CASE_ROWS)
      rows.push(`- and ${formatCount(listings.failedCount - FAILED_CASE_ROWS)} more failed cases (see the trace)`);
    paragraph(out, `Failed requests (every decision of a failed case is an error and counts as a miss):`, '', ...rows);
  }

  // Duration and tokens.
  const tokenParts = [
    `**Duration:** ${formatDuration(run.durationMs)}`,
    `**Input tokens:** ${formatCount(s.inputTokens)}`,
  ];
  if (s.cost !== null) {
    tokenParts.push(
      `**Cost:** ${formatUsd(s.cost.totalUsd)} at ${formatUsd(s.cost.pricePerMtokUsd)} per million input tokens (${formatUsd(s.cost.perCorrectUsd)} per correct decision)`,
    );
  }
  paragraph(out, tokenParts.join(' · '));
  return out;
}

/** How to read the numbers: what gold is, the reference points, what ECE means here. */
function readingSection(run: ReportedRun, st: RunStatistics | null): string[] {
  const filters = describeFilters(run.config);
  const out: string[] = [];
  paragraph(out, '## How to read this');
  const reading = [
    '- Gold is the mean of three samples from a teacher model, so accuracy measures **agreement with that teacher, not correctness**. A model better than the teacher can score lower wherever the teacher is wrong.',
    `- Reference points from the dataset card: a prior that ignores the input scores **${PRIOR_NOTE}**; a fresh teacher sample agrees with the others' gold **${TEACHER_NOTE}** of the time. Scores well above ${TEACHER_NOTE} mean the model learned the teacher's habits. Stars: ★ at or below ${PRIOR_NOTE}, ★★ above it, ★★★ at or above ${TEACHER_NOTE}.`,
    '- Accuracy counts every decision of a failed request as a miss; KL, Brier, ECE and mean confidence cover answered decisions only. Lower KL and Brier are better (Brier runs from 0 to 2).',
    `- ECE is the standard top-label definition${st === null ? ' over ten equal-width confidence bins' : ` under the conventions stated above`}. The dataset card publishes no ECE formula, so **this ECE is not comparable with the card's ECE column**.`,
    ...(st === null ? [] : [`- ${describeIntervals(st)}`]),
    '- Per-question accuracy ceilings differ widely; read the per-question table as well as the average.',
  ];
  if (run.config.dataset.synthetic)
    reading.push('- This run used the bundled **synthetic sample**: these are **not Typed Decisions scores**.');
  if (filters !== null)
    reading.push(`- This is a filtered run (${escapeMarkdownText(filters)}); it is ${FILTERED_NOTE}.`);
  paragraph(out, ...reading);
  return out;
}

/** The tables by question type, workflow and question. */
function breakdownSections(s: ReportedRun['summary']): string[] {
  const out: string[] = [];
  const showAnswered = s.errors > 0;
  paragraph(out, '## By question type');
  paragraph(
    out,
    ...metricTable(
      'type',
      QUESTION_TYPES.flatMap((t) => (s.byType[t] ? [[t, s.byType[t]] as const] : [])),
      showAnswered,
    ),
  );
  paragraph(out, '## By workflow');
  paragraph(out, ...metricTable('workflow', Object.entries(s.byWorkflow), showAnswered));
  paragraph(out, '## By question');
  paragraph(out, ...metricTable('workflow/question', Object.entries(s.byQuestion), showAnswered));
  return out;
}

/** Calibration (the reliability table) and latency, when something was answered. */
function calibrationSections(
  s: ReportedRun['summary'],
  redactHost: boolean,
  setAside: readonly string[],
  replicaUrls: readonly string[] | undefined,
): string[] {
  const nothingAnswered = s.rating.stars === 0;
  const out: string[] = [];
  // Calibration and latency only mean something with answered decisions.
  if (!nothingAnswered) {
    paragraph(out, '## Calibration');
    paragraph(
      out,
      `**ECE:** ${formatNumber(s.ece)} · **mean confidence:** ${formatPercent(s.meanConfidence)} · **confident disagreements** (wrong at ≥ ${formatPercent(CONFIDENT_THRESHOLD, 0)} confidence): ${formatCount(s.confidentDisagreements)}`,
    );
    paragraph(
      out,
      ...renderMarkdownTable(
        ['confidence', 'n', 'mean confidence', 'accuracy', 'gap'],
        s.reliability.map((b) => [
          `${formatNumber(b.lower, 1)}–${formatNumber(b.upper, 1)}`,
          formatCount(b.n),
          formatNumber(b.meanConfidence),
          formatNumber(b.accuracy),
          formatSigned(b.gap),
        ]),
      ),
    );
    paragraph(
      out,
      'Gap = accuracy − mean confidence in the bin: negative means over-confident. Each bin covers [lower, upper), the last one includes 1; empty bins are left out.',
    );

    paragraph(out, '## Latency');
    paragraph(
      out,
      `Per answered request (n = ${formatCount(s.latencyMs.n)}): **p50** ${formatLatencyMs(s.latencyMs.p50)} · **p95** ${formatLatencyMs(s.latencyMs.p95)} · **mean** ${formatLatencyMs(s.latencyMs.mean)}`,
    );
    const replicas = replicasOf(s, replicaUrls, redactHost);
    if (replicas.length > 0)
      out.push(
        '| replica | requests | failed | p50 | p95 |',
        '|---|---:|---:|---:|---:|',
        ...replicas.map(
          ([name, r]) =>
            `| ${escapeMarkdownText(name)} | ${formatCount(r.requests)} | ${formatCount(r.failed)} | ${formatLatencyMs(r.latencyMs.p50)} | ${formatLatencyMs(r.latencyMs.p95)} |`,
        ),
        '',
      );
    if (setAside.length > 0) out.push(...setAside.map((t) => `- ${escapeMarkdownText(t)}`), '');
  }
  return out;
}

/** The most confident disagreements with gold. */
function disagreementsSection(listings: RunListings, nothingAnswered: boolean): string[] {
  const out: string[] = [];
  paragraph(out, '## Disagreements with gold');
  const wrong = listings.disagreements;
  if (wrong.length === 0) {
    paragraph(out, nothingAnswered ? 'No answered decisions.' : 'None: every answered decision agrees with gold.');
  } else {
    paragraph(out, 'Answered decisions whose most likely answer differs from the gold label, most confident first.');
    paragraph(
      out,
      ...renderMarkdownTable(
        ['case', 'question', 'type', 'predicted', 'confidence', 'gold', 'gold p(predicted)', 'KL', 'Brier'],
        wrong
          .slice(0, DISAGREEMENT_ROWS)
          .map(({ caseId, decision, outcome }) => [
            caseId,
            decision.questionId,
            decision.type,
            outcome.predicted,
            formatNumber(outcome.confidence),
            decision.gold.label,
            formatNumber(decision.gold.probabilities[decision.answers.indexOf(outcome.predicted)] ?? null),
            formatNumber(outcome.kl),
            formatNumber(outcome.brier),
          ]),
        { align: ['left', 'left', 'left', 'left', 'right', 'left', 'right', 'right', 'right'] },
      ),
    );
    if (listings.disagreementCount > DISAGREEMENT_ROWS)
      paragraph(out, `and ${formatCount(listings.disagreementCount - DISAGREEMENT_ROWS)} more.`);
  }
  return out;
}

/** Adds a paragraph: its lines, then a blank line. */
function paragraph(out: string[], ...lines: string[]): void {
  out.push(...lines, '');
}

/** The longest run of backticks in `text` (most traces hold none: one scan finds that). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (let at = text.indexOf('`'); at !== -1; at = text.indexOf('`', at)) {
    let end = at + 1;
    while (text.charCodeAt(end) === 96) end++;
    longest = Math.max(longest, end - at);
    at = end;
  }
  return longest;
}

function renderProvenance(run: ReportedRun, redactHost: boolean, answeredModels: readonly string[]): string {
  const c = run.config;
  const d = c.dataset;
  const dataset = [
    `Dataset ${d.url === null ? markdownCode(d.id) : `[${escapeMarkdownText(d.id)}](${d.url.replace(/[()\s]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})`}`,
    `split ${markdownCode(d.split)}`,
    `revision ${d.revision === null ? 'n/a' : markdownCode(d.revision)}`,
    `license ${escapeMarkdownText(d.license)}`,
  ].join(', ');
  const lines = [
    `Run ${markdownCode(run.id)} · ${escapeMarkdownText(run.createdAt)} · decidekit ${escapeMarkdownText(c.toolVersion)} · fingerprint ${markdownCode(run.fingerprint)}`,
    `Answered by ${describeServer(c, redactHost, markdownCode, answeredModels)} · ${describeSettings(c)}`,
    `${dataset}. Attribution: ${escapeMarkdownText(d.attribution)}`,
  ];
  // Two trailing spaces make a line break inside one paragraph.
  return lines.join('  \n');
}

function metricTable(
  name: string,
  groups: ReadonlyArray<readonly [string, MetricGroup]>,
  showAnswered: boolean,
): string[] {
  if (groups.length === 0) return ['No decisions.'];
  const header = [name, 'correct/total', ...(showAnswered ? ['answered'] : []), 'accuracy', '', 'KL', 'Brier', 'ECE'];
  const rows = groups.map(([key, g]) => [
    key,
    formatRatio(g.correct, g.total),
    ...(showAnswered ? [formatCount(g.answered)] : []),
    formatPercent(g.accuracy),
    renderBar(g.accuracy),
    formatNumber(g.kl),
    formatNumber(g.brier),
    formatNumber(g.ece),
  ]);
  const align = header.map((_, i) => (i === 0 || i === header.length - 4 ? 'left' : 'right') as 'left' | 'right');
  return renderMarkdownTable(header, rows, { align });
}
