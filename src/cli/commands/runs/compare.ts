import { defineCommand, flag } from '../../define-command.js';
import { colourEnabled } from '../../io.js';
import { storePathOf } from '../../locations.js';
import { storeOption } from './store-option.js';

export const command = defineCommand({
  name: 'runs compare',
  summary: 'run B against run A: headline and per-question deltas, changed decisions',
  usage: 'runs compare RUN_A RUN_B [--force] [--json] [--store PATH]',
  description: `Compares run B against run A: headline and per-question deltas (B - A) and every
decision whose correctness changed. Runs must have the same fingerprint (same dataset
revision, cases, questions, model and endpoint).`,
  options: {
    force: flag('compare runs whose fingerprints differ (prints a warning)'),
    json: flag('one JSON document, numbers unrounded'),
    store: storeOption,
  },
  positionals: ['RUN_A', 'RUN_B'],
  exitCodes: '0 ok, 1 unknown run, unreadable store or runs not comparable, 2 usage error.',
  examples: ['decidekit runs compare 20261130-0415 20261201-0930'],
  async run({ values, positionals: [first, second] }, io) {
    const { compareStoredRuns } = await import('../../../app/runs/stored-runs.js');
    const comparison = compareStoredRuns(storePathOf(values.store, io), first!, second!, { force: values.force });
    if (!comparison.sameFingerprint) {
      io.stderr.write(
        `decidekit runs compare: warning: fingerprints differ (${comparison.a.fingerprint} vs ${comparison.b.fingerprint}); comparing anyway because of --force\n`,
      );
    }
    const { renderRunComparison, renderRunComparisonJson } = await import('../../../reports/runs/runs-diff.js');
    io.stdout.write(
      values.json
        ? renderRunComparisonJson(comparison)
        : renderRunComparison(comparison, { colour: colourEnabled(io.stdout, io.env) }),
    );
    return 0;
  },
});
