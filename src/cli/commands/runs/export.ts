import { resolve } from 'node:path';
import { UsageError } from '../../../core/errors.js';
import { defineCommand, oneOf, text } from '../../define-command.js';
import { storePathOf } from '../../locations.js';
import { storeOption } from '../../shared-options.js';

export const command = defineCommand({
  name: 'runs export',
  summary: 'one JSON line per decision with flat keys (spreadsheets, DuckDB, pandas)',
  usage: 'runs export RUN --format jsonl [--out FILE] [--store PATH]',
  description: 'Exports every decision of a stored run, one JSON line each with flat keys.',
  options: {
    format: oneOf('F', ['jsonl'], 'jsonl (required; the only export format)'),
    out: text('FILE', 'write the export to FILE instead of standard output', { example: 'decisions.jsonl' }),
    store: storeOption,
  },
  positionals: ['RUN'],
  exitCodes: '0 ok, 1 unknown run, unreadable store or unwritable --out, 2 usage error.',
  examples: ['decidekit runs export 20261130-0415 --format jsonl --out decisions.jsonl'],
  async run({ values, positionals: [prefix] }, io) {
    if (values.format === undefined) throw new UsageError('runs export needs --format jsonl');
    const { readStoredRun } = await import('../../../app/runs/stored-runs.js');
    const { run } = readStoredRun(storePathOf(values.store, io), prefix!);
    const { renderRunExportJsonl } = await import('../../../reports/runs/runs-export.js');
    const text = renderRunExportJsonl(run);
    if (values.out === undefined) {
      io.stdout.write(text);
      return 0;
    }
    const out = resolve(io.cwd, values.out);
    const { writeTextFile } = await import('../../../app/write-text-file.js');
    writeTextFile(out, text, 'export');
    io.stderr.write(
      `decidekit runs export: ${run.cases.reduce((n, c) => n + c.decisions.length, 0)} decisions of run ${run.id} written to ${out}\n`,
    );
    return 0;
  },
});
