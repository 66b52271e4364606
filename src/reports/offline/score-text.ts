/** Text and Markdown renderers of `score`, `compare` and `validate`. Pure: they return strings. */
import { jsonDocumentText } from '../../core/safe-text.js';
import { describeEceVerdict } from '../ece-verdict.js';
import { formatProblem } from '../../core/errors.js';
import {
  decidedCases as decidedCount,
  describeCostPerCorrectReason,
  offlineNullReasons,
  type OfflineSummary,
} from '../../core/offline/summary.js';
import type { Interval } from '../../core/stats/bootstrap.js';
import type { Ranking } from '../../core/stats/ranking.js';
import type { DebiasedEce } from '../../core/stats/debiased-ece.js';
import { describeConventions } from '../../core/stats/conventions.js';
import { recalibratedText } from '../../core/calibration-map.js';
import { conventionNotes, effectiveConventions } from './score-json.js';
import type { ComparedModels, FileCheck, ScoredModel } from '../../core/offline/scored-files.js';
import {
  NOT_AVAILABLE,
  alignColumns,
  createPalette,
  formatNumber,
  formatMs,
  formatSigned,
  formatUsd,
  plural,
  singleLine,
} from '../format.js';
import {
  fitHanging,
  fitsOr,
  renderFittedTable,
  renderRowsWrappingLast,
  wrapIndented,
  wrapStyled,
} from '../text-fit.js';

export interface TextOptions {
  /** ANSI colour (only for a TTY without NO_COLOR). Default false. */
  readonly colour?: boolean;
  /** The terminal's columns: `score`'s lines fit them. Default none (a file or pipe: lines whole). */
  readonly width?: number;
}

/** `score` for people: headline metrics, counts and the reliability table. */
export function renderScoreText(m: ScoredModel, options: TextOptions = {}): string {
  const paint = createPalette(options.colour ?? false);
  const width = options.width ?? Infinity;
  const s = m.summary;
  const c = s.counts;
  const decided = decidedCount(c);
  const thresholdNote = s.threshold === 0.5 ? '' : `, yes at p >= ${s.threshold}`;
  const absent = offlineNullReasons(s);
  const cost =
    s.costPerCorrectUsd === null
      ? s.costPerCorrectReason === null
        ? ''
        : describeCostPerCorrectReason(s.costPerCorrectReason) +
          (s.totalCostUsd === null ? '' : `; total ${formatUsd(s.totalCostUsd)}`)
      : `total ${formatUsd(s.totalCostUsd)} over ${plural(c.nWithCost, 'result')} / ${c.nCorrect} correct`;
  const ci = m.stats?.intervals;
  const floor = m.stats?.noiseFloor ?? null;
  const conventions = effectiveConventions(m);
  const eceNote =
    s.ece === null
      ? (absent.ece ?? '')
      : `mean confidence ${formatNumber(s.meanConfidence)}` +
        (floor === null
          ? ''
          : `; a calibrated model would show ${formatNumber(floor.mean)} (95th percentile ${formatNumber(floor.p95)}): ` +
            describeEceVerdict(floor));
  const metrics: string[][] = [
    [
      'Accuracy',
      formatNumber(s.accuracy),
      intervalCell(s.accuracy, ci, 'accuracy'),
      decided === 0
        ? 'no yes/no or choice results'
        : `${c.nCorrect} of ${decided} yes/no and choice decisions correct${thresholdNote}`,
    ],
    ['Brier', formatNumber(s.brier), intervalCell(s.brier, ci, 'brier'), absent.brier ?? '0 best, 2 worst'],
    ['Log loss', formatNumber(s.logLoss), intervalCell(s.logLoss, ci, 'logLoss'), absent.logLoss ?? '0 best'],
    ['ECE', formatNumber(s.ece), intervalCell(s.ece, ci, 'ece'), eceNote],
    ...debiasedEceRow(m.stats?.debiasedEce ?? null),
    ...rankingRows(m.stats?.ranking ?? null, m.stats !== null && m.stats !== undefined),
    [
      'Score MAE',
      formatNumber(s.scoreMae),
      '',
      c.nScored.score === 0 ? 'no score results' : `over ${plural(c.nScored.score, 'score case')}`,
    ],
    ['$ / correct', formatUsd(s.costPerCorrectUsd), '', cost],
    [
      'Latency (ms)',
      formatMs(s.meanLatencyMs),
      '',
      s.meanLatencyMs === null ? 'no result carries latency_ms' : `mean over ${plural(c.nWithLatency, 'result')}`,
    ],
  ];
  const out: string[] = [];
  out.push(paint.bold(`decidekit score: ${singleLine(m.model ?? '(no results)')}`));
  out.push(
    ...renderRowsWrappingLast(
      [
        ['dataset', `${singleLine(m.datasetPath)} (${plural(c.nCases, 'case')})`],
        ['results', singleLine(m.resultsPath)],
        ...(m.recalibration === undefined ? [] : [['calibration', recalibratedText(m.recalibration)]]),
      ],
      width,
      { indent: '  ', align: ['left', 'left'] },
    ),
  );
  out.push('');
  out.push(
    ...renderRowsWrappingLast(metrics, width, {
      align: ['left', 'right', 'left', 'left'],
      indent: '  ',
      styleColumns: [undefined, undefined, undefined, paint.dim],
    }),
  );
  out.push('');
  const missing = c.nMissing === 0 ? '0 missing' : paint.red(`${c.nMissing} missing`);
  out.push(
    ...wrapIndented(
      `Cases  ${c.nCases}: scored ${c.nScored.yesNo} yes/no, ${c.nScored.choice} choice, ${c.nScored.score} score; ${missing}`,
      width,
      '  ',
    ),
  );
  out.push('');
  out.push(
    ...wrapStyled(`Reliability (yes/no and choice, ${binsPhrase(conventions)} on confidence)`, width).map(paint.bold),
  );
  const edgeDigits = conventions.eceBins === 10 && conventions.eceBinning === 'equal-width' ? 1 : 3;
  if (s.reliability.length === 0) {
    out.push(`  ${NOT_AVAILABLE}: no yes/no or choice results`);
  } else {
    const rows = s.reliability.map((b) => [
      `${b.lower.toFixed(edgeDigits)}-${b.upper.toFixed(edgeDigits)}`,
      String(b.n),
      b.meanConfidence.toFixed(3),
      b.accuracy.toFixed(3),
      formatSigned(b.gap),
    ]);
    out.push(...renderFittedTable(['confidence', 'n', 'mean conf', 'accuracy', 'gap'], rows, width, { indent: '  ' }));
    out.push(
      ...wrapIndented('gap = accuracy - mean confidence; negative means over-confident', width, '  ').map(paint.dim),
    );
  }
  out.push('');
  out.push(
    ...howToRead(conventions, m.stats?.units ?? null, conventionNotes([m]))
      .flatMap((l) => wrapIndented(l, width, '  '))
      .map((l) => paint.dim(l)),
  );
  return `${out.join('\n')}\n`;
}

/** The debiased ECE beside the plug-in one (absent with intervals off). */
function debiasedEceRow(d: DebiasedEce | null): string[][] {
  if (d === null) return [];
  return [
    [
      'ECE debiased',
      formatNumber(d.debiased),
      d.interval === null ? 'no interval' : formatInterval(d.interval),
      'the plug-in ECE less its estimated upward bias; its interval is the one to read for the true ECE',
    ],
  ];
}

/**
 * The ROC AUC and average precision rows of `score`: present when yes/no decisions were
 * ranked (absent with intervals off, as every number that needs each decision).
 */
function rankingRows(r: Ranking | null, withIntervals: boolean): string[][] {
  if (r === null) return [];
  const cell = (v: number | null, i: Interval | null) =>
    v === null || !withIntervals ? '' : i === null ? 'no interval' : formatInterval(i);
  const classes = `over ${plural(r.positives + r.negatives, 'yes/no case')} (${r.positives} yes, ${r.negatives} no)`;
  return [
    [
      'ROC AUC',
      formatNumber(r.auc),
      cell(r.auc, r.aucInterval),
      r.auc === null
        ? `needs both answers among the correct ones: ${classes}`
        : `P(yes) ranks yes above no; 0.5 chance, 1 best; ${classes}`,
    ],
    [
      'Avg prec',
      formatNumber(r.averagePrecision),
      cell(r.averagePrecision, r.averagePrecisionInterval),
      r.averagePrecision === null
        ? 'no case whose correct answer is yes'
        : `precision over recall of yes; chance ${formatNumber(r.positives / (r.positives + r.negatives))}, 1 best`,
    ],
  ];
}

/** The interval column: empty without intervals, "no interval" when every resample agreed. */
function intervalCell(
  value: number | null,
  intervals: Readonly<Record<'accuracy' | 'brier' | 'logLoss' | 'ece', Interval | null>> | undefined,
  metric: 'accuracy' | 'brier' | 'logLoss' | 'ece',
): string {
  if (intervals === undefined || value === null) return '';
  return intervals[metric] === null ? 'no interval' : formatInterval(intervals[metric]);
}

export function formatInterval(i: Interval | null | undefined, digits = 3): string {
  return i === null || i === undefined ? '' : `[${formatNumber(i.low, digits)}, ${formatNumber(i.high, digits)}]`;
}

/** The interval of a difference, each end signed like the difference itself: `[+0.065, +0.472]`. */
export function formatSignedInterval(i: Interval | null | undefined, digits = 3): string {
  return i === null || i === undefined ? '' : `[${formatSigned(i.low, digits)}, ${formatSigned(i.high, digits)}]`;
}

function binsPhrase(c: ReturnType<typeof effectiveConventions>): string {
  const bins =
    c.eceBins === 10 && c.eceBinning === 'equal-width' ? 'ten bins' : plural(c.eceBins, `${c.eceBinning} bin`);
  return c.eceAverage === 'per-question' ? `${bins}, ECE averaged per question (prompt)` : bins;
}

/** The "how to read this" lines: what the intervals are and the conventions in words. */
function howToRead(
  c: ReturnType<typeof effectiveConventions>,
  units: number | null,
  notes: readonly string[],
): string[] {
  const lines = [`Conventions: ${describeConventions(c)}.${notes.map((n) => ` Note: ${n}.`).join('')}`];
  if (c.bootstrapResamples > 0)
    lines.push(
      'How to read this: [low, high] is a 95% interval from resampling cases (one decision per case offline' +
        (units !== null && units < 10_000 ? '' : '; above 10,000 cases, seeded blocks of cases') +
        '); differences inside it are noise. See docs/scoring.md, "Intervals and noise".',
    );
  return lines;
}

export const COMPARE_COLUMNS = [
  'Model',
  'Accuracy',
  'Brier',
  'Log loss',
  'ECE',
  'Score MAE',
  '$ / correct',
  'Latency (ms)',
] as const;

/** The cells of one compare row, in COMPARE_COLUMNS order. */
export function compareCells(m: ScoredModel): string[] {
  const s: OfflineSummary = m.summary;
  const ci = m.stats?.intervals;
  const withCi = (v: number | null, i: Interval | null | undefined): string =>
    i === null || i === undefined ? formatNumber(v) : `${formatNumber(v)} ${formatInterval(i)}`;
  return [
    singleLine(m.model ?? '(no results)'),
    withCi(s.accuracy, ci?.accuracy),
    withCi(s.brier, ci?.brier),
    withCi(s.logLoss, ci?.logLoss),
    withCi(s.ece, ci?.ece),
    formatNumber(s.scoreMae),
    formatUsd(s.costPerCorrectUsd),
    formatMs(s.meanLatencyMs),
  ];
}

/**
 * `compare`: one Markdown table, one row per model in the order given, columns aligned. On a
 * terminal `width` columns wide, a table that does not fit shows each model as a record.
 */
export function renderCompareMarkdown(models: readonly ScoredModel[], width = Infinity): string {
  const align = COMPARE_COLUMNS.map((_, i) => (i > 0 ? 'right' : 'left') as 'left' | 'right');
  return `${renderMarkdownRows([...COMPARE_COLUMNS], models.map(compareCells), align, width).join('\n')}\n`;
}

/** Notes under the compare table: absent costs and missing cases, so n/a is never a mystery. */
export function renderCompareNotes(models: readonly ScoredModel[], width = Infinity): string {
  const notes: string[] = [];
  const map = models.find((m) => m.recalibration !== undefined)?.recalibration;
  if (map !== undefined) notes.push(`Every model ${recalibratedText(map)}`);
  for (const m of models) {
    const name = singleLine(m.model ?? m.resultsPath);
    const s = m.summary;
    if (s.costPerCorrectReason !== null)
      notes.push(`${name}: $ / correct is n/a (${describeCostPerCorrectReason(s.costPerCorrectReason)})`);
    if (s.counts.nMissing > 0)
      notes.push(
        `${name}: ${plural(s.counts.nMissing, 'case')} of ${s.counts.nCases} without a result (${singleLine(m.resultsPath)})`,
      );
  }
  return notes.length === 0 ? '' : `\n${notes.flatMap((n) => wrapStyled(n, width)).join('\n')}\n`;
}

/** Yes/no and choice cases decided, of the dataset's: `20 of 40`. */
export function decidedCases(m: ScoredModel): string {
  const c = m.summary.counts;
  return `${decidedCount(c)} of ${c.nCases}`;
}

/** The leaderboard's last column: tied with the leader, or over other cases than the leader's. */
export function leaderboardMark(r: ComparedModels['leaderboard'][number]): string {
  if (!r.sameCasesAsLeader) return 'other cases than the leader';
  return r.tiedWithLeader ? 'tied with the leader' : '';
}

const VERDICT_TEXT = { better: 'better', worse: 'worse', within_noise: 'within noise' } as const;

/**
 * Under the `compare` table: the leaderboard by accuracy (ties with the leader marked), each
 * model against the baseline (paired differences with intervals, verdicts, McNemar), the
 * ECE noise floors and the conventions. Empty without intervals.
 */
export function renderCompareStatistics(c: ComparedModels, width = Infinity): string {
  const out: string[] = [];
  // Prose wraps between words at the terminal's width; the tables fit by themselves.
  const say = (...lines: string[]) => out.push(...lines.flatMap((l) => wrapStyled(l, width)));
  const name = (m: ScoredModel) => singleLine(m.model ?? m.resultsPath);
  const baseline = c.scored[0]!;
  const hasIntervals = c.scored.some((m) => m.stats !== null && m.stats !== undefined);
  if (hasIntervals) {
    say('', 'Leaderboard by accuracy (tied: its 95% interval overlaps the leader’s)', '');
    out.push(
      ...renderMarkdownRows(
        ['Rank', 'Model', 'Accuracy', '95% interval', 'Decided', 'Tied'],
        c.leaderboard.map((r) => [
          r.rank === null ? '-' : String(r.rank),
          name(r.row),
          formatNumber(r.row.summary.accuracy),
          formatInterval(r.row.stats?.intervals.accuracy),
          decidedCases(r.row),
          leaderboardMark(r),
        ]),
        ['right', 'left', 'right', 'right', 'right', 'left'],
        width,
      ),
    );
    if (c.leaderboard.some((r) => !r.sameCasesAsLeader))
      say(
        '',
        'The models decided different cases: their accuracies are over different cases, so none is called tied with the leader; the paired tables below compare the cases both decided.',
      );
  }
  for (const { index, pairing } of c.pairings) {
    const m = c.scored[index]!;
    const p = pairing.paired;
    const mc = pairing.mcnemar;
    say(
      '',
      `${name(m)} against ${name(baseline)} (paired on ${plural(p.cases, 'case')} both decided; difference = ${name(m)} - ${name(baseline)})`,
      '',
    );
    const rows = (
      [
        ['Accuracy', p.metrics.accuracy],
        ['Brier', p.metrics.brier],
        ['Log loss', p.metrics.logLoss],
        ['ECE', p.metrics.ece],
        ...(pairing.ranking == null
          ? []
          : ([
              ['ROC AUC', pairing.ranking.auc],
              ['Avg prec', pairing.ranking.averagePrecision],
            ] as const)),
      ] as const
    ).map(([label, d]) => [
      label,
      formatNumber(d.first),
      formatNumber(d.second),
      formatSigned(d.difference),
      formatSignedInterval(d.interval),
      d.verdict === null ? NOT_AVAILABLE : VERDICT_TEXT[d.verdict],
    ]);
    out.push(
      ...renderMarkdownRows(
        ['Metric', name(baseline), name(m), 'Difference', '95% interval', 'Verdict'],
        rows,
        ['left', 'right', 'right', 'right', 'right', 'left'],
        width,
      ),
    );
    say(
      '',
      `McNemar (accuracy): ${mc.onlyFirstCorrect} right only for ${name(baseline)}, ${mc.onlySecondCorrect} only for ${name(m)}; exact p = ${formatP(mc.pValue)}`,
    );
    if (p.onlyFirst + p.onlySecond > 0)
      say(
        `Left out of the pairing: ${p.onlyFirst} decided only by ${name(baseline)}, ${p.onlySecond} only by ${name(m)}`,
      );
  }
  const ranked = c.scored.filter((m) => m.stats?.ranking);
  say(...modelExtraLines(c.scored, name));
  const floors = c.scored.filter((m) => m.stats?.noiseFloor);
  if (floors.length > 0) {
    say('');
    for (const m of floors) {
      const f = m.stats!.noiseFloor!;
      say(
        `${name(m)}: ECE ${formatNumber(m.summary.ece)}, a calibrated model would show ${formatNumber(f.mean)} (95th percentile ${formatNumber(f.p95)}): ${describeEceVerdict(f)}`,
      );
    }
  }
  const conventions = effectiveConventions(baseline);
  say(
    '',
    `Conventions: ${describeConventions(conventions)}.${conventionNotes(c.scored)
      .map((n) => ` Note: ${n}.`)
      .join('')}`,
  );
  if (hasIntervals)
    say(
      `How to read this: [low, high] is a 95% interval from resampling cases; a verdict is better or worse only when the paired interval of the difference excludes 0 (higher accuracy, lower Brier, log loss and ECE are better${ranked.length > 0 ? '; higher ROC AUC and average precision are better' : ''}).`,
    );
  return `${out.join('\n')}\n`;
}

/** Under `compare`: each model's debiased ECE, then its ranking of the yes/no decisions (each block after a blank line). */
function modelExtraLines(models: readonly ScoredModel[], name: (m: ScoredModel) => string): string[] {
  const out: string[] = [];
  const debiased = models.filter((m) => m.stats?.debiasedEce);
  if (debiased.length > 0) out.push('');
  for (const m of debiased) {
    const d = m.stats!.debiasedEce!;
    out.push(`${name(m)}: ECE debiased ${formatNumber(d.debiased)} ${formatInterval(d.interval)}`.trimEnd());
  }
  const ranked = models.filter((m) => m.stats?.ranking);
  if (ranked.length > 0) out.push('');
  for (const m of ranked) {
    const r = m.stats!.ranking!;
    out.push(
      `${name(m)}: ROC AUC ${formatNumber(r.auc)} ${formatInterval(r.aucInterval)}, average precision ${formatNumber(r.averagePrecision)} ${formatInterval(r.averagePrecisionInterval)} over ${plural(r.positives + r.negatives, 'yes/no case')}`.replace(
        / +/g,
        ' ',
      ),
    );
  }
  return out;
}

/** A Markdown table, columns aligned; when wider than `width`, one record a row instead. */
function renderMarkdownRows(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly ('left' | 'right')[],
  width: number,
): string[] {
  const aligned = alignColumns([[...header], ...rows], align);
  const rule = aligned[0]!.map((cell, i) =>
    align[i] === 'right' ? `${'-'.repeat(Math.max(cell.length - 1, 2))}:` : '-'.repeat(Math.max(cell.length, 3)),
  );
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const table = [line(aligned[0]!), line(rule), ...aligned.slice(1).map(line)];
  return fitsOr(table, width, () => renderFittedTable(header, rows, width));
}

/** A p-value: three significant digits, or "< 1e-300" when it underflows. */
export function formatP(p: number): string {
  if (p === 0) return '< 1e-300';
  return p >= 0.001 ? p.toFixed(3) : p.toExponential(2);
}

/** `validate` for people: one status line per file, then each problem with its line. */
export function renderValidationText(checks: readonly FileCheck[], options: TextOptions = {}): string {
  const paint = createPalette(options.colour ?? false);
  const out: string[] = [];
  for (const c of checks) {
    if (c.ok === true) {
      const detail =
        c.role === 'dataset'
          ? `${plural(c.cases, 'case')} (${c.byKind.yesNo} yes/no, ${c.byKind.choice} choice, ${c.byKind.score} score)`
          : `model ${singleLine(c.model ?? '(none)')}, ${plural(c.lines, 'result')}, ${c.missing} missing`;
      out.push(`${paint.green('ok  ')}  ${c.role} ${singleLine(c.path)}: ${detail}`);
    } else if (c.ok === null) {
      out.push(`${paint.dim('skip')}  ${c.role} ${singleLine(c.path)}: ${singleLine(c.reason)}`);
    } else {
      const n = c.problems.length + c.omitted;
      out.push(`${paint.red('FAIL')}  ${c.role} ${singleLine(c.path)}: ${plural(n, 'problem')}`);
      for (const p of c.problems)
        out.push(`      ${singleLine(formatProblem(p))}${p.field === undefined ? '' : paint.dim(` [${p.field}]`)}`);
      if (c.omitted > 0) out.push(`      ... and ${c.omitted} more (not listed)`);
    }
  }
  const failed = checks.filter((c) => c.ok === false).length;
  out.push(failed === 0 ? paint.green('all files valid') : paint.red(`${plural(failed, 'file')} with problems`));
  // On a terminal a long line wraps under its own indent; to a file or pipe each stays whole.
  return `${fitHanging(out, options.width)}\n`;
}

/** `validate --json`. */
export function renderValidationJson(checks: readonly FileCheck[]): string {
  const files = checks.map((c) => {
    if (c.ok === true) {
      return c.role === 'dataset'
        ? {
            role: c.role,
            path: c.path,
            ok: true,
            cases: c.cases,
            by_kind: { yes_no: c.byKind.yesNo, choice: c.byKind.choice, score: c.byKind.score },
          }
        : { role: c.role, path: c.path, ok: true, model: c.model, lines: c.lines, missing: c.missing };
    }
    if (c.ok === null) return { role: c.role, path: c.path, ok: null, reason: c.reason };
    return {
      role: c.role,
      path: c.path,
      ok: false,
      problems: c.problems.map((p) => ({
        file: p.file,
        ...(p.unit === 'row' ? { row: p.line } : { line: p.line }),
        case_id: p.caseId ?? null,
        field: p.field ?? null,
        message: p.message,
      })),
      omitted: c.omitted,
    };
  });
  return `${jsonDocumentText({ ok: checks.every((c) => c.ok !== false), files })}\n`;
}
