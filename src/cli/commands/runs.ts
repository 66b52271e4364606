import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DecidekitError, UsageError } from '../../core/errors.js';
import { compareRuns } from '../../core/bench/run-diff.js';
import { renderBenchHtml } from '../../reports/html/bench-html.js';
import { renderRunsCompareHtml } from '../../reports/html/runs-compare-html.js';
import { renderBenchJson } from '../../reports/bench/bench-json.js';
import { renderBenchMarkdown } from '../../reports/bench/bench-markdown.js';
import { renderBenchTerminal } from '../../reports/bench/bench-terminal.js';
import { renderRunComparison, renderRunComparisonJson } from '../../reports/runs/runs-diff.js';
import { renderRunExportJsonl } from '../../reports/runs/runs-export.js';
import { renderRunsList, renderRunsListJson } from '../../reports/runs/runs-list.js';
import { renderRunShow, renderRunShowJson } from '../../reports/runs/runs-show.js';
import { REDACTED_HOST } from '../../reports/bench/bench-describe.js';
import { statesOfRun } from '../case-states.js';
import { defaultStorePath, openRunStore, type RunStore } from '../../store/index.js';
import { numberOption, parseCommandArgs, type Command } from '../command.js';
import { colourEnabled, type CliIo } from '../io.js';

const COMMON = {
  store: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

const SUBCOMMANDS = ['list', 'show', 'compare', 'report', 'export'] as const;
const REPORT_FORMATS = ['terminal', 'markdown', 'json', 'html'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

const HELP = `Usage: decidekit runs list    [--limit N] [--redact] [--json] [--store PATH]
       decidekit runs show    RUN [--redact] [--json] [--store PATH]
       decidekit runs compare RUN_A RUN_B [--force] [--json] [--store PATH]
       decidekit runs compare RUN_A RUN_B [RUN_C ...] --format html [--out FILE] [--force] [--redact] [--store PATH]
       decidekit runs report  RUN [--format terminal|markdown|json|html] [--out FILE] [--redact] [--store PATH]
       decidekit runs export  RUN --format jsonl [--out FILE] [--store PATH]

Every 'decidekit bench' run is kept in one SQLite file (WAL mode): its configuration,
provenance, summary and every decision. RUN is a run id or any unique prefix of one.

Subcommands:
  list      stored runs, newest first: id, date, model, dataset, status, accuracy, KL,
            Brier, ECE, fingerprint, label
  show      one run: configuration, provenance and headline results
  compare   run B against run A: headline and per-question deltas (B - A) and every
            decision whose correctness changed. Runs must have the same fingerprint
            (same dataset revision, cases, questions, model and endpoint).
            --format html: one page for two or more runs (overlaid charts, accuracy
            against latency and cost with the Pareto front)
  report    re-render a stored run's full report as bench printed or wrote it:
            terminal summary (default), Markdown report with trace, JSON document, or
            a self-contained HTML report with charts
  export    one JSON line per decision with flat keys (spreadsheets, DuckDB, pandas)

Options:
  --store PATH    the run store (default $XDG_DATA_HOME/decidekit/runs.sqlite, else
                  ~/.local/share/decidekit/runs.sqlite)
  --json          one JSON document, numbers unrounded (list, show, compare)
  --limit N       list only the N newest runs (default: all)
  --redact        show server hosts as <redacted> (list, show, report)
  --force         compare runs whose fingerprints differ (prints a warning)
  --format F      report: terminal (default), markdown, json or html;
                  compare: html for the chart page of two or more runs;
                  export: jsonl (required; the only export format)
  --out FILE      write the report, comparison page or export to FILE instead of
                  standard output

Exit codes: 0 ok, 1 unknown run, unreadable store or runs not comparable, 2 usage error.

Examples:
  decidekit runs list --limit 10
  decidekit runs compare 20261130-0415 20261201-0930
  decidekit runs report 20261130-0415 --format markdown --out report.md
  decidekit runs export 20261130-0415 --format jsonl --out decisions.jsonl
`;

function storePathOf(value: string | undefined, io: CliIo): string {
  return value === undefined ? defaultStorePath(io.env) : resolve(io.cwd, value);
}

/** Opens an existing store; a missing file is an unknown run for show/compare/export. */
function withStore<T>(path: string, use: (store: RunStore) => T): T {
  const store = openRunStore(path, { mustExist: true });
  try {
    return use(store);
  } finally {
    store.close();
  }
}

function positionals(args: readonly string[], names: readonly string[], sub: Subcommand): string[] {
  if (args.length !== names.length) {
    throw new UsageError(
      `runs ${sub} takes ${names.join(' ')}${args.length > names.length ? `, got an extra argument ${JSON.stringify(args[names.length])}` : ''}`,
    );
  }
  return [...args];
}

function requireRun(store: RunStore, prefix: string) {
  const id = store.resolveId(prefix);
  const head = store.getHead(id);
  const run = store.getRun(id);
  if (head === null || run === null)
    throw new DecidekitError('unknown_run', `unknown run: ${id} disappeared from ${store.path} while reading`);
  return { head, run };
}

function runList(argv: readonly string[], io: CliIo): number {
  const { values, positionals: rest } = parseCommandArgs(
    argv,
    { ...COMMON, limit: { type: 'string' }, redact: { type: 'boolean', default: false } },
    true,
  );
  positionals(rest, [], 'list');
  const limit = numberOption('limit', values.limit, (n) => Number.isInteger(n) && n >= 1, 'a whole number >= 1');
  const path = storePathOf(values.store, io);
  let heads: ReturnType<RunStore['listRuns']> = [];
  try {
    heads = withStore(path, (s) => s.listRuns(limit === undefined ? {} : { limit }));
  } catch (err) {
    // No store yet is an empty list, not an error.
    if (!(err instanceof DecidekitError && err.code === 'store_missing')) throw err;
  }
  io.stdout.write(
    values.json
      ? renderRunsListJson(heads, path, values.redact)
      : renderRunsList(heads, { colour: colourEnabled(io.stdout, io.env), storePath: path, redactHost: values.redact }),
  );
  return 0;
}

function runShow(argv: readonly string[], io: CliIo): number {
  const { values, positionals: rest } = parseCommandArgs(
    argv,
    { ...COMMON, redact: { type: 'boolean', default: false } },
    true,
  );
  const [prefix] = positionals(rest, ['RUN'], 'show');
  const { head, run } = withStore(storePathOf(values.store, io), (s) => requireRun(s, prefix!));
  io.stdout.write(
    values.json
      ? renderRunShowJson(head, run, values.redact)
      : renderRunShow(head, run, { colour: colourEnabled(io.stdout, io.env), redactHost: values.redact }),
  );
  return 0;
}

function runCompare(argv: readonly string[], io: CliIo): number {
  const { values, positionals: rest } = parseCommandArgs(
    argv,
    {
      ...COMMON,
      force: { type: 'boolean', default: false },
      format: { type: 'string' },
      out: { type: 'string' },
      redact: { type: 'boolean', default: false },
    },
    true,
  );
  if (values.format !== undefined && values.format !== 'html')
    throw new UsageError(`--format ${JSON.stringify(values.format)} is not supported by runs compare (use html)`);
  if (values.format === 'html') return runCompareHtml(rest, values, io);
  if (values.out !== undefined) throw new UsageError('runs compare --out goes with --format html');
  const [first, second] = positionals(rest, ['RUN_A', 'RUN_B'], 'compare');
  const [a, b] = withStore(
    storePathOf(values.store, io),
    (s) => [requireRun(s, first!).run, requireRun(s, second!).run] as const,
  );
  const comparison = compareRuns(a, b, { force: values.force });
  if (!comparison.sameFingerprint) {
    io.stderr.write(
      `decidekit runs compare: warning: fingerprints differ (${a.fingerprint} vs ${b.fingerprint}); comparing anyway because of --force\n`,
    );
  }
  io.stdout.write(
    values.json
      ? renderRunComparisonJson(comparison)
      : renderRunComparison(comparison, { colour: colourEnabled(io.stdout, io.env) }),
  );
  return 0;
}

function runCompareHtml(
  prefixes: readonly string[],
  values: { store?: string | undefined; force: boolean; out?: string | undefined; redact: boolean; json: boolean },
  io: CliIo,
): number {
  if (prefixes.length < 2) throw new UsageError('runs compare --format html takes two or more runs');
  if (values.json) throw new UsageError('runs compare takes --json or --format html, not both');
  const runs = withStore(storePathOf(values.store, io), (s) => prefixes.map((p) => requireRun(s, p).run));
  // The pairwise check refuses runs of different fingerprints unless --force, as the text comparison does.
  for (const other of runs.slice(1)) compareRuns(runs[0]!, other, { force: values.force });
  if (new Set(runs.map((r) => r.fingerprint)).size > 1)
    io.stderr.write('decidekit runs compare: warning: fingerprints differ; comparing anyway because of --force\n');
  const html = renderRunsCompareHtml(runs, { redactHost: values.redact });
  if (values.out === undefined) {
    io.stdout.write(html);
    return 0;
  }
  const out = resolve(io.cwd, values.out);
  writeOut(out, html, 'comparison page');
  io.stderr.write(`decidekit runs compare: HTML comparison of ${runs.length} runs written to ${out}\n`);
  return 0;
}

function writeOut(path: string, text: string, what: string): void {
  try {
    writeFileSync(path, text);
  } catch (err) {
    const reason = err instanceof Error && 'code' in err ? String(err.code) : 'write failed';
    throw new DecidekitError('write_failed', `cannot write ${what}: ${path} (${reason})`, { cause: err });
  }
}

async function runReport(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals: rest } = parseCommandArgs(
    argv,
    {
      store: COMMON.store,
      format: { type: 'string', default: 'terminal' },
      out: { type: 'string' },
      redact: { type: 'boolean', default: false },
    },
    true,
  );
  const [prefix] = positionals(rest, ['RUN'], 'report');
  const format = REPORT_FORMATS.find((f) => f === values.format);
  if (format === undefined)
    throw new UsageError(
      `--format ${JSON.stringify(values.format)} is not supported (use ${REPORT_FORMATS.join(', ')})`,
    );
  const { run } = withStore(storePathOf(values.store, io), (s) => requireRun(s, prefix!));
  const redactHost = values.redact;
  const states = format === 'markdown' ? await statesOfRun(run, io) : undefined;
  const toFile = values.out !== undefined;
  const text =
    format === 'json'
      ? renderBenchJson(
          redactHost
            ? { ...run, config: { ...run.config, endpoint: { ...run.config.endpoint, host: REDACTED_HOST } } }
            : run,
        )
      : format === 'html'
        ? renderBenchHtml(run, { redactHost })
        : format === 'markdown'
          ? renderBenchMarkdown(run, { redactHost, ...(states ? { states } : {}) })
          : renderBenchTerminal(run, {
              colour: !toFile && colourEnabled(io.stdout, io.env),
              redactHost,
              ...(io.stdout.columns === undefined ? {} : { width: io.stdout.columns }),
            });
  if (!toFile) {
    io.stdout.write(text);
    return 0;
  }
  const out = resolve(io.cwd, values.out!);
  writeOut(out, text, 'report');
  io.stderr.write(`decidekit runs report: ${format} report of run ${run.id} written to ${out}\n`);
  return 0;
}

function runExport(argv: readonly string[], io: CliIo): number {
  const { values, positionals: rest } = parseCommandArgs(
    argv,
    { store: COMMON.store, format: { type: 'string' }, out: { type: 'string' } },
    true,
  );
  const [prefix] = positionals(rest, ['RUN'], 'export');
  if (values.format === undefined) throw new UsageError('runs export needs --format jsonl');
  if (values.format !== 'jsonl')
    throw new UsageError(`--format ${JSON.stringify(values.format)} is not supported (use jsonl)`);
  const { run } = withStore(storePathOf(values.store, io), (s) => requireRun(s, prefix!));
  const text = renderRunExportJsonl(run);
  if (values.out === undefined) {
    io.stdout.write(text);
    return 0;
  }
  const out = resolve(io.cwd, values.out);
  writeOut(out, text, 'export');
  io.stderr.write(
    `decidekit runs export: ${run.cases.reduce((n, c) => n + c.decisions.length, 0)} decisions of run ${run.id} written to ${out}\n`,
  );
  return 0;
}

export const command: Command = {
  name: 'runs',
  summary: 'list, show, compare and export stored benchmark runs',
  help: HELP,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === undefined) throw new UsageError(`runs needs a subcommand: ${SUBCOMMANDS.join(', ')}`);
    switch (sub) {
      case 'list':
        return runList(rest, io);
      case 'show':
        return runShow(rest, io);
      case 'compare':
        return runCompare(rest, io);
      case 'report':
        return runReport(rest, io);
      case 'export':
        return runExport(rest, io);
      default:
        throw new UsageError(`unknown subcommand ${JSON.stringify(sub)} (use one of: ${SUBCOMMANDS.join(', ')})`);
    }
  },
};
