import { given } from '../../../core/given.js';
import { resolve } from 'node:path';
import { UsageError } from '../../../core/errors.js';
import { defineCommand, oneOf, text } from '../../define-command.js';
import { endsWhenInterrupted, interruptedExitCode, type CliIo } from '../../io.js';
import { storePathOf } from '../../locations.js';
import { storeOption, outputPathOption } from '../../shared-options.js';
import { storeRead } from '../../out-file.js';
import { exportStoredRun } from '../../../app/runs/export-run.js';
import { prepareOutputPath } from '../../../app/output-file.js';

const FORMATS = ['jsonl', 'csv', 'parquet', 'eval-results'] as const;

/** The export format a file name asks for (`decisions.parquet` → parquet); undefined otherwise. */
function formatOfFile(file: string | undefined): 'jsonl' | 'csv' | 'parquet' | undefined {
  const ext = file === undefined ? '' : (/\.([a-z]+)$/i.exec(file)?.[1]?.toLowerCase() ?? '');
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
  if (ext === 'csv') return 'csv';
  if (ext === 'parquet') return 'parquet';
  return undefined;
}

/**
 * The export's exit code, or on Ctrl+C (or SIGTERM, SIGHUP) the interrupted one. A Parquet
 * export (`waits`) stops DuckDB's write and removes its temp folder first; the others end at
 * once, as a command that does not watch the signal does.
 */
async function endsOnSignal(io: CliIo, waits: boolean, work: () => Promise<number>): Promise<number> {
  const interrupted = (): number => interruptedExitCode(io.signal);
  const done = work().then(
    (code) => (io.signal.aborted ? interrupted() : code),
    (err: unknown) => {
      if (io.signal.aborted) return interrupted();
      throw err;
    },
  );
  return waits ? done : endsWhenInterrupted(done, io);
}

export const command = defineCommand({
  name: 'runs export',
  summary: 'the per-decision table as JSONL, CSV or Parquet, or a leaderboard entry (eval-results)',
  usage: 'runs export RUN --format jsonl|csv|parquet|eval-results [--out FILE|DIR] [--source-url URL] [--store PATH]',
  description: `Exports every decision of a stored run, one row each, in the versioned schema of
docs/file-formats.md ("Decision table"): JSON lines, CSV (RFC 4180, a header row) or Parquet
(typed, nullable columns; needs --out). --format eval-results writes the Hugging Face
.eval_results/typed-decisions.yaml entry and the per-case predictions into --out DIR (default
the current folder), only for a complete, unfiltered run on the real Typed Decisions.`,
  options: {
    format: oneOf('F', FORMATS, 'jsonl, csv, parquet or eval-results', {
      defaultText: 'what --out ends in: .jsonl, .csv, .parquet',
    }),
    out: outputPathOption(
      text(
        'FILE',
        'write the export to FILE (into a folder: <run>.<format>; a folder for eval-results) instead of standard output',
        {
          example: 'decisions.parquet',
        },
      ),
      'file',
    ),
    'source-url': text('URL', "eval-results: where the predictions file is published, the entry's source", {
      example: 'https://huggingface.co/datasets/me/laya-typed-decisions',
    }),
    store: storeOption,
  },
  positionals: ['RUN'],
  exitCodes: '0 ok, 1 unknown run, unreadable store, unwritable --out or a run eval-results refuses, 2 usage error.',
  examples: [
    'decidekit runs export 20261130-0415 --format csv --out decisions.csv',
    'decidekit runs export 20261130-0415 --out decisions.parquet',
  ],
  handlesSignals: true,
  run: ({ values, positionals: [prefix] }, io) => {
    const format = values.format ?? formatOfFile(values.out);
    return endsOnSignal(io, format === 'parquet', async () => {
      if (format === undefined)
        throw new UsageError('needs --format jsonl, csv, parquet or eval-results (or an --out FILE ending in one)');
      const storePath = storePathOf(values.store, io);
      const askedBy = { command: 'runs export', storeArg: values.store };
      if (format === 'eval-results') {
        const dir = resolve(io.cwd, values.out ?? '.');
        const sourceUrl = values['source-url'];
        if (sourceUrl !== undefined && !/^https?:\/\/\S+$/.test(sourceUrl))
          throw new UsageError(`--source-url must be an http(s) URL, got ${JSON.stringify(sourceUrl)}`);
        // The leaderboard entry's code (it reads the run whole) is loaded only for this format.
        const { exportEvalResults } = await import('../../../app/runs/export-eval-results.js');
        const written = await exportEvalResults(storePath, prefix!, dir, {
          askedBy,
          ...given({ sourceUrl }),
        });
        io.stderr.write(`decidekit runs export: leaderboard entry of run ${written.runId} written:\n`);
        for (const file of written.files) io.stdout.write(`${file}\n`);
        if (sourceUrl === undefined)
          io.stderr.write('(no source: give --source-url URL where you publish the predictions to credit them)\n');
        return 0;
      }
      if (values['source-url'] !== undefined) throw new UsageError('--source-url goes with --format eval-results');
      if (format === 'parquet' && values.out === undefined)
        throw new UsageError(
          'a parquet export is binary: give --out FILE (for text on standard output use --format jsonl or csv)',
        );
      if (values.out === undefined) {
        await exportStoredRun(storePath, prefix!, format, { kind: 'text', write: (t) => io.stdout.write(t) }, askedBy);
        return 0;
      }
      const place = await prepareOutputPath(values.out, 'target', { cwd: io.cwd, inputs: [storeRead(storePath)] });
      const { runId, decisions, path } = await exportStoredRun(
        storePath,
        prefix!,
        format,
        { kind: 'place', place },
        askedBy,
        { signal: io.signal },
      );
      io.stderr.write(`decidekit runs export: ${decisions} decisions of run ${runId} written to ${path}\n`);
      return 0;
    });
  },
});
