import { given } from '../../../core/given.js';
import { UsageError } from '../../../core/errors.js';
import { outFileOf, storeRead } from '../../out-file.js';
import { defineCommand, flag, oneOf, text } from '../../define-command.js';
import { readStoredRunsToCompare, compareStoredRuns, type CompareOptions } from '../../../app/runs/stored-runs.js';
import { colourEnabled, type CliIo } from '../../io.js';
import { storePathOf } from '../../locations.js';
import { conventionChoiceOf, statisticsOptions } from '../../statistics-options.js';
import { storeOption, outputPathOption } from '../../shared-options.js';
import { renderLeaderboard, renderLeaderboardJson } from '../../../reports/runs/runs-leaderboard.js';
import { renderRunComparison, renderRunComparisonJson } from '../../../reports/runs/runs-diff.js';
import { renderRunsCompareHtml } from '../../../reports/runs/runs-compare-html.js';
import { fitHanging } from '../../../reports/text-fit.js';
import { writeHtmlReport } from '../../write-html.js';

export const command = defineCommand({
  name: 'runs compare',
  summary: 'run B against run A, paired (differences, intervals, verdicts); 3+ runs: a leaderboard',
  usage: [
    'runs compare RUN_A RUN_B [--json] [--no-ci] [--ece-bins N] [--ece-binning B] [--ece-average A] [--seed S] [--force] [--store PATH]',
    'runs compare RUN_A RUN_B RUN_C ... [--json] [options as above]',
    'runs compare RUN_A RUN_B [RUN_C ...] --format html [--out FILE] [--force] [--redact] [--store PATH]',
  ],
  description: `Compares run B against run A on the decisions both made, paired: per metric (accuracy,
KL, Brier, log loss, ECE) the difference B - A with a 95% interval from a paired bootstrap
over cases, and a verdict: better, worse or within noise. McNemar's exact test on the
decisions each got right. Then per-question deltas and every decision whose correctness
changed. Runs of different models on the same dataset revision, cases and questions
compare as they are (that is the point); runs of different work are refused, naming each
difference, unless --force. Numbers made under different conventions are refused unless
the ECE options recompute both runs under one. Three or more runs give a leaderboard ranked
by accuracy, with runs whose interval overlaps the leader's marked tied. With --format
html: one page for two or more runs (the leaderboard, overlaid charts, accuracy against
latency and cost with the Pareto front).`,
  options: {
    force: flag('compare runs of different work (prints a warning)'),
    json: flag('one JSON document, numbers unrounded'),
    format: oneOf('F', ['html'], 'html: the chart page of two or more runs'),
    out: outputPathOption(
      text(
        'FILE',
        'with --format html: write the page to FILE (into a folder: runs-compare.html) instead of standard output',
        {
          example: 'runs.html',
        },
      ),
      'file',
    ),
    redact: flag('with --format html: show server hosts as <redacted>'),
    store: storeOption,
    ...statisticsOptions,
  },
  positionals: { min: 2, max: 64, names: 'two or more runs (RUN_A RUN_B [RUN_C ...])' },
  exitCodes: '0 ok, 1 unknown run, unreadable store or runs not comparable, 2 usage error.',
  examples: [
    'decidekit runs compare 20261130-0415 20261201-0930',
    'decidekit runs compare 20261130-0415 20261201-0930 20261201-1012 --ece-bins 15',
  ],
  async run({ values, positionals }, io) {
    const options = {
      force: values.force,
      choice: conventionChoiceOf(values),
      intervals: !values['no-ci'],
      askedBy: { command: 'runs compare', storeArg: values.store },
    };
    if (values.out !== undefined && values.format !== 'html') throw new UsageError('--out goes with --format html');
    if (values.json && values.format === 'html')
      throw new UsageError('--json and --format html do not go together: pick one');
    const store = storePathOf(values.store, io);
    const htmlFile = await outFileOf('target', values.out, io.cwd, 'runs-compare.html', [storeRead(store)]);
    if (values.format === 'html')
      return compareHtml(store, positionals, { htmlFile, redact: values.redact }, options, io);
    const colour = colourEnabled(io.stdout, io.env);
    if (positionals.length > 2) {
      const { analyzed, rows, sameWork, workDifferences } = readStoredRunsToCompare(store, positionals, options);
      if (!sameWork) warnDifferentWork(io, workDifferences);
      const settings = {
        colour,
        conventions: analyzed[0]!.statistics.conventions,
        cases: analyzed[0]!.statistics.cases,
        ...given({ width: io.stdout.columns }),
      };
      io.stdout.write(values.json ? renderLeaderboardJson(rows, settings) : renderLeaderboard(rows, settings));
      return 0;
    }
    const [first, second] = positionals;
    const comparison = compareStoredRuns(store, first!, second!, options);
    if (!comparison.sameWork) warnDifferentWork(io, comparison.workDifferences);
    io.stdout.write(
      values.json
        ? renderRunComparisonJson(comparison)
        : renderRunComparison(comparison, { colour, ...given({ width: io.stdout.columns }) }),
    );
    return 0;
  },
});

/** The warning of a forced comparison, naming what differs (the reasons a refusal names). */
function warnDifferentWork(io: CliIo, reasons: readonly string[]): void {
  io.stderr.write(
    `${fitHanging([`decidekit runs compare: warning: the runs measured different work (${reasons.join('; ')}); comparing anyway because of --force`], io.stderr.columns)}\n`,
  );
}

async function compareHtml(
  store: string,
  prefixes: readonly string[],
  values: { htmlFile: string | undefined; redact: boolean },
  options: CompareOptions,
  io: CliIo,
): Promise<number> {
  const { analyzed, rows, sameWork, workDifferences, paired } = readStoredRunsToCompare(store, prefixes, options, {
    listings: true,
  });
  if (!sameWork) warnDifferentWork(io, workDifferences);
  const html = renderRunsCompareHtml(
    analyzed.map((a) => a.run),
    {
      redactHost: values.redact,
      leaderboard: { rows, conventions: analyzed[0]!.statistics.conventions },
      ...(paired === null ? {} : { paired }),
    },
  );
  if (values.htmlFile === undefined) {
    io.stdout.write(html);
    return 0;
  }
  await writeHtmlReport(io, values.htmlFile, html);
  return 0;
}
