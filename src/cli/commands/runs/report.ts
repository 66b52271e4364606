/**
 * The declaration of `runs report`, shared with its alias `decidekit report` (the name the
 * benchmark docs use), so the two can never drift apart.
 */
import { defineCommand, flag, oneOf, text, type CommandSpec } from '../../define-command.js';
import { given } from '../../../core/given.js';
import { colourEnabled, writeInPieces, type CliIo } from '../../io.js';
import { storePathOf } from '../../locations.js';
import { conventionChoiceOf, statisticsOptions } from '../../statistics-options.js';
import { storeOption, outputPathOption } from '../../shared-options.js';
import { storeRead } from '../../out-file.js';
import { storedRunReport } from '../../../app/runs/stored-run-report.js';
import { writeTextPieces } from '../../../app/write-text-file.js';
import { outputFileOf, prepareOutputPath } from '../../../app/output-file.js';

const options = {
  format: oneOf(
    'F',
    ['terminal', 'markdown', 'json', 'html'],
    'terminal summary, Markdown report with trace, JSON document, or a self-contained HTML report with charts',
    { defaultText: 'terminal, or what --out ends in: .md, .json, .html' },
  ),
  out: outputPathOption(
    text(
      'FILE',
      'write the report to FILE (into a folder: <run>.txt, .md, .json or .html) instead of standard output',
      {
        example: 'report.md',
      },
    ),
    'file',
  ),
  redact: flag('show server hosts as <redacted>'),
  store: storeOption,
  calibration: text(
    'MAP',
    'apply a calibration map written by decidekit calibrate RUN --out before scoring\n(every number of the report is recalibrated; the stored answers are unchanged)',
  ),
  ...statisticsOptions,
};

/** The report format a file name asks for (`report.md` → markdown); terminal otherwise. */
export function formatOfFile(file: string | undefined): 'terminal' | 'markdown' | 'json' | 'html' {
  const ext = file === undefined ? '' : (/\.([a-z]+)$/i.exec(file)?.[1]?.toLowerCase() ?? '');
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (ext === 'json') return 'json';
  if (ext === 'html' || ext === 'htm') return 'html';
  return 'terminal';
}

/**
 * Everything but the usage, which differs between `runs report` and `report`; `name` is the
 * command as typed, which its messages name.
 */
export const reportSpec = (name: 'runs report' | 'report'): Omit<CommandSpec<typeof options>, 'usage'> => ({
  name,
  summary: "re-render a stored run's report as bench printed or wrote it",
  description: `Re-renders a stored benchmark run's full report: the terminal summary (default), the
Markdown report with its trace, the JSON document, or the HTML page (one self-contained file
with charts and a filterable trace, as bench --out writes). RUN is a run id or a unique prefix of
one (see 'decidekit runs list'). The Markdown report includes state previews in its trace
when the run's dataset is still at hand. Headline numbers carry 95% intervals (a bootstrap
over cases with the run's stored seed, so a re-report gives the same intervals); the ECE
options and --seed recompute the run from its stored decisions under other conventions.
--calibration MAP applies a map fitted on a stored benchmark run (decidekit calibrate RUN
--out MAP) to every answer before scoring: the numbers, intervals and sections are all
recomputed, and the report says they are recalibrated (docs/calibrate.md).`,
  options,
  positionals: ['RUN'],
  exitCodes:
    '0 ok, 1 unknown run, unreadable store, unwritable --out or a calibration map that cannot be read or does not fit the run, 2 usage error.',
  examples: ['decidekit runs report 20261130-0415 --format markdown --out report.md'],
  async run({ values, positionals: [prefix] }, io) {
    const format = values.format ?? formatOfFile(values.out);
    const storePath = storePathOf(values.store, io);
    // Checked before the store is read: a path that can never be written is refused at once.
    const place =
      values.out === undefined
        ? null
        : await prepareOutputPath(values.out, 'target', { cwd: io.cwd, inputs: [storeRead(storePath)] });
    // Into a folder: <run>.<format>, as bench --out names its reports; checked once the run is
    // found, before it is read.
    const fileOf = (id: string): string | null =>
      place === null ? null : outputFileOf(place, `${id}.${REPORT_EXTENSIONS[format]}`);
    const toFile = place !== null;
    // The JSON and Markdown documents hold every decision: written in pieces, the run's
    // cases read from the store once.
    const { run, chunks, dispose } = await storedRunReport(storePath, prefix!, {
      onRunFound: fileOf,
      format,
      env: io.env,
      cwd: io.cwd,
      askedBy: { command: name, storeArg: values.store },
      choice: conventionChoiceOf(values),
      intervals: !values['no-ci'],
      redactHost: values.redact,
      terminal: { colour: !toFile && colourEnabled(io.stdout, io.env), width: io.stdout.columns },
      ...given({ calibrationPath: values.calibration }),
    });
    try {
      return await writeReport(io, name, format, fileOf(run.id), run.id, chunks);
    } finally {
      dispose();
    }
  },
});

async function writeReport(
  io: CliIo,
  name: 'runs report' | 'report',
  format: keyof typeof REPORT_EXTENSIONS,
  out: string | null,
  runId: string,
  chunks: Iterable<string>,
): Promise<number> {
  if (out === null) {
    await writeInPieces(io.stdout, chunks);
    return 0;
  }
  await writeTextPieces(out, chunks, 'report');
  io.stderr.write(`decidekit ${name}: ${format} report of run ${runId} written to ${out}\n`);
  return 0;
}

export const command = defineCommand({
  ...reportSpec('runs report'),
  usage:
    'runs report RUN [--format terminal|markdown|json|html] [--out FILE] [--redact] [--calibration MAP] [--no-ci] [--ece-bins N] [--ece-binning B] [--ece-average A] [--seed S] [--store PATH]',
});

const REPORT_EXTENSIONS = { terminal: 'txt', markdown: 'md', json: 'json', html: 'html' } as const;
