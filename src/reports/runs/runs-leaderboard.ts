import { jsonDocumentText } from '../../core/safe-text.js';
import { describeAskedModel } from '../bench/bench-describe.js';
import type { LeaderboardRow } from '../../core/bench/leaderboard.js';
import { HEADLINE_METRICS, METRIC_JSON_NAMES, type HeadlineMetric } from '../../core/bench/run-statistics.js';
import { conventionsJson, describeConventions, type Conventions } from '../../core/stats/conventions.js';
import { formatInterval, formatMetric } from '../bench/bench-statistics.js';
import { createPalette, formatCount, renderTextTable, singleLine, truncate } from '../format.js';
import { fitsOr, renderRecords, wrapIndented } from '../text-fit.js';
import { NO_CI_FLAG } from '../../core/command-hints.js';

export interface LeaderboardOptions {
  readonly colour: boolean;
  readonly conventions: Conventions;
  /** Cases each run answered (the runs share them). */
  readonly cases: number;
  /** The terminal's columns: every line fits them. Default none (a file or pipe: the table whole). */
  readonly width?: number;
}

/** Prose under the table wraps here when there is no terminal. */
const PROSE_WIDTH = 98;

const LABELS: Readonly<Record<HeadlineMetric, string>> = {
  accuracy: 'accuracy',
  kl: 'KL',
  brier: 'Brier',
  logLoss: 'log loss',
  ece: 'ECE',
};

/** `runs compare A B C …`: the runs ranked by accuracy, ties with the leader marked. */
export function renderLeaderboard(rows: readonly LeaderboardRow[], options: LeaderboardOptions): string {
  const p = createPalette(options.colour);
  const out: string[] = [p.bold(`Leaderboard: ${rows.length} runs of the same work, ranked by accuracy`)];
  const cell = (r: LeaderboardRow, m: HeadlineMetric) => {
    const ci = formatInterval(m, r.intervals?.[m] ?? null);
    return `${formatMetric(m, r.values[m])}${ci === '' ? '' : ` ${p.dim(ci)}`}`;
  };
  const width = options.width ?? Infinity;
  const header = ['#', 'run', 'model', 'decisions', ...HEADLINE_METRICS.map((m) => LABELS[m]), ''];
  const cells = rows.map((r, i) => [
    String(r.rank),
    `${r.id}${r.label === null ? '' : `  ${truncate(singleLine(r.label), 20)}`}`,
    truncate(singleLine(describeAskedModel(r.model, r.answeredModels)), 30),
    formatCount(r.decisions),
    ...HEADLINE_METRICS.map((m) => cell(r, m)),
    i === 0 ? 'leader' : r.tiedWithLeader ? p.yellow('tied with the leader') : '',
  ]);
  const table = renderTextTable(header, cells, {
    indent: '  ',
    styleHeader: p.dim,
    align: ['right', 'left', 'left', 'right', 'left', 'left', 'left', 'left', 'left', 'left'],
  });
  // Too wide for the terminal: one record a run, headed by the run, its rank and verdict named.
  const byRun = (row: readonly string[]) => [row[1]!, row[0]!, ...row.slice(2)];
  out.push(
    ...fitsOr(table, width, () =>
      renderRecords(
        byRun(header.map((h, c) => (c === 0 ? 'rank' : c === header.length - 1 ? 'verdict' : h))),
        cells.map(byRun),
        width,
        {
          indent: '  ',
          styleHeader: p.dim,
        },
      ),
    ),
  );
  const reading =
    rows[0]?.intervals === null
      ? `Intervals were turned off (${NO_CI_FLAG}), so no run can be called tied or apart.`
      : `Brackets are 95% intervals from ${formatCount(options.conventions.bootstrapResamples)} bootstrap resamples of the ${formatCount(options.cases)} cases (seed ${options.conventions.seed}; cases, not decisions, are resampled: the questions of a case share its state). A run is tied with the leader when their accuracy intervals overlap; for a sharper answer on two runs use 'decidekit runs compare A B' (paired).`;
  const prose = Math.min(PROSE_WIDTH, width);
  out.push(...wrapIndented(reading, prose, '  ').map(p.dim));
  out.push(...wrapIndented(`Conventions: ${describeConventions(options.conventions)}.`, prose, '  ').map(p.dim));
  return `${out.join('\n')}\n`;
}

/** `runs compare A B C … --json`: rows with snake_case `<metric>` and `<metric>_ci: [low, high]`. */
export function renderLeaderboardJson(rows: readonly LeaderboardRow[], options: LeaderboardOptions): string {
  const document = {
    conventions: conventionsJson(options.conventions),
    cases: options.cases,
    runs: rows.map((r) => {
      const metrics: Record<string, number | null | readonly [number, number]> = {};
      for (const m of HEADLINE_METRICS) {
        metrics[METRIC_JSON_NAMES[m]] = r.values[m];
        const ci = r.intervals?.[m] ?? null;
        metrics[`${METRIC_JSON_NAMES[m]}_ci`] = ci === null ? null : [ci.low, ci.high];
      }
      return {
        rank: r.rank,
        id: r.id,
        label: r.label,
        model: r.model,
        decisions: r.decisions,
        ...metrics,
        tied_with_leader: r.tiedWithLeader,
      };
    }),
  };
  return `${jsonDocumentText(document)}\n`;
}
