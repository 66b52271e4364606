import { UsageError } from '../../../core/errors.js';
import { defineCommand, flag, oneOf, text } from '../../define-command.js';
import type { CliIo } from '../../io.js';
import { colourEnabled } from '../../io.js';
import { storePathOf } from '../../locations.js';
import { storeOption } from '../../shared-options.js';

export const command = defineCommand({
  name: 'runs compare',
  summary: 'run B against run A: headline and per-question deltas, changed decisions',
  usage: [
    'runs compare RUN_A RUN_B [--force] [--json] [--store PATH]',
    'runs compare RUN_A RUN_B [RUN_C ...] --format html [--out FILE] [--force] [--redact] [--store PATH]',
  ],
  description: `Compares run B against run A: headline and per-question deltas (B - A) and every
decision whose correctness changed. Runs must have the same fingerprint (same dataset
revision, cases, questions, model and endpoint). With --format html: one page for two or
more runs (overlaid charts, accuracy against latency and cost with the Pareto front).`,
  options: {
    force: flag('compare runs whose fingerprints differ (prints a warning)'),
    json: flag('one JSON document, numbers unrounded'),
    format: oneOf('F', ['html'], 'html: the chart page of two or more runs'),
    out: text('FILE', 'with --format html: write the page to FILE instead of standard output', {
      example: 'runs.html',
    }),
    redact: flag('with --format html: show server hosts as <redacted>'),
    store: storeOption,
  },
  positionals: { min: 2, max: 64, names: 'two or more runs (RUN_A RUN_B [RUN_C ...])' },
  exitCodes: '0 ok, 1 unknown run, unreadable store or runs not comparable, 2 usage error.',
  examples: ['decidekit runs compare 20261130-0415 20261201-0930'],
  async run({ values, positionals }, io) {
    if (values.format === 'html') return compareHtml(positionals, values, io);
    if (values.out !== undefined) throw new UsageError('runs compare --out goes with --format html');
    if (positionals.length !== 2)
      throw new UsageError('runs compare takes RUN_A RUN_B (more runs go with --format html)');
    const [first, second] = positionals;
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

async function compareHtml(
  prefixes: readonly string[],
  values: { store: string | undefined; force: boolean; out: string | undefined; redact: boolean; json: boolean },
  io: CliIo,
): Promise<number> {
  if (values.json) throw new UsageError('runs compare takes --json or --format html, not both');
  const { readStoredRunsToCompare } = await import('../../../app/runs/stored-runs.js');
  const { runs, sameFingerprint } = readStoredRunsToCompare(storePathOf(values.store, io), prefixes, values);
  if (!sameFingerprint)
    io.stderr.write('decidekit runs compare: warning: fingerprints differ; comparing anyway because of --force\n');
  const { renderRunsCompareHtml } = await import('../../../reports/html/runs-compare-html.js');
  const html = renderRunsCompareHtml(runs, { redactHost: values.redact });
  if (values.out === undefined) {
    io.stdout.write(html);
    return 0;
  }
  const { writeHtmlReport } = await import('../../write-html.js');
  await writeHtmlReport(io, values.out, html);
  return 0;
}
