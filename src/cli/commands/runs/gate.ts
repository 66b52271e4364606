import { UsageError } from '../../../core/errors.js';
import { decimal, defineCommand, flag, oneOf, text } from '../../define-command.js';
import { storePathOf } from '../../locations.js';
import { conventionChoiceOf, conventionOptions } from '../../statistics-options.js';
import { storeOption } from '../../shared-options.js';
import { gateStoredRuns } from '../../../app/runs/stored-runs.js';
import { renderGateLine } from '../../../reports/runs/runs-gate.js';
import { fitHanging } from '../../../reports/text-fit.js';

const METRICS = ['accuracy', 'kl', 'brier', 'log_loss', 'ece'] as const;

export const command = defineCommand({
  name: 'runs gate',
  summary: 'for CI: exit 1 when a candidate run is worse than a baseline beyond noise',
  usage:
    'runs gate --baseline RUN --candidate RUN [--metric accuracy|kl|brier|log_loss|ece] [--max-drop X] [--force] [--seed S] [--ece-bins N] [--ece-binning B] [--ece-average A] [--store PATH]',
  description: `Compares the candidate run with the baseline run on the decisions both made, paired (as
'runs compare' does), in one metric, and prints one line saying why it passes or fails.
It fails (exit 1) when the candidate is worse beyond noise: the whole 95% paired bootstrap
interval of the worsening lies above --max-drop (0 by default). With --max-drop 0.02 on
accuracy, a candidate fails only when it is surely more than 2 points worse. --max-drop is
in the metric's units: a fraction for accuracy and ECE (0 to 1), at most 2 for Brier. Runs
must measure the same work (dataset revision, cases, questions) and have sent every case:
anything else fails too, with the reason, unless --force (as for 'runs compare'). A run
whose every case was sent but some failed is gated as it is: a failed decision counts as a
miss in accuracy and is left out of KL, Brier, log loss and ECE; gate on accuracy to make
failures count. The line then says how many cases failed in each run and how they were
counted.`,
  options: {
    baseline: text('RUN', 'the run to hold the line (id or unique prefix)', { example: '20261130' }),
    candidate: text('RUN', 'the run under test (id or unique prefix)', { example: '20261201' }),
    metric: oneOf('M', METRICS, 'the metric that gates: accuracy, kl, brier, log_loss or ece', { default: 'accuracy' }),
    'max-drop': decimal(
      'X',
      "how much worse the candidate may be, in the metric's units\n(0.02 = two points of accuracy)",
      {
        min: 0,
        default: 0,
      },
    ),
    force: flag('gate runs of different work, or runs not complete, anyway (prints a warning)'),
    store: storeOption,
    ...conventionOptions,
  },
  exitCodes: '0 the candidate passes, 1 it is worse beyond noise (or the runs cannot be compared), 2 usage error.',
  examples: [
    'decidekit runs gate --baseline 20261130-0415 --candidate 20261201-0930',
    'decidekit runs gate --baseline 20261130-0415 --candidate 20261201-0930 \\\n' + '    --metric kl --max-drop 0.01',
  ],
  async run({ values }, io) {
    if (values.baseline === undefined || values.candidate === undefined)
      throw new UsageError('--baseline RUN and --candidate RUN are both needed');
    const metric = values.metric === 'log_loss' ? 'logLoss' : values.metric;
    refuseMaxDropBeyondMetric(values.metric, values['max-drop']);
    const store = storePathOf(values.store, io);
    const { comparison, gate } = gateStoredRuns(store, {
      baseline: values.baseline,
      candidate: values.candidate,
      metric,
      maxDrop: values['max-drop'],
      force: values.force,
      choice: conventionChoiceOf(values),
      askedBy: { command: 'runs gate', storeArg: values.store },
      otherIntervals: false,
    });
    if (values.force && !comparison.sameWork)
      io.stderr.write(
        `${fitHanging([`decidekit runs gate: warning: the runs measured different work (${comparison.workDifferences.join('; ')}); gating anyway because of --force`], io.stderr.columns)}\n`,
      );
    // One line to a pipe (a CI job may read it); wrapped under itself on a terminal.
    const line = renderGateLine(comparison, gate, { metric, maxDrop: values['max-drop'] });
    io.stdout.write(`${fitHanging([line.trimEnd()], io.stdout.columns)}\n`);
    return gate.pass ? 0 : 1;
  },
});

/**
 * --max-drop is in the metric's units: accuracy and ECE are fractions (0 to 1), Brier at
 * most 2; a bound beyond what the metric can move would make the gate pass whatever happens.
 */
function refuseMaxDropBeyondMetric(metric: (typeof METRICS)[number], maxDrop: number): void {
  const bound =
    metric === 'accuracy'
      ? { max: 1, what: '--max-drop is a fraction of accuracy (0.02 = 2 points)' }
      : metric === 'ece'
        ? { max: 1, what: '--max-drop is in units of ECE, a fraction from 0 to 1 (0.01 = one point)' }
        : metric === 'brier'
          ? { max: 2, what: '--max-drop is in units of the Brier score, which lies between 0 and 2' }
          : null;
  if (bound !== null && maxDrop > bound.max)
    throw new UsageError(`--max-drop ${maxDrop}: ${bound.what}; it must lie between 0 and ${bound.max}`);
}
