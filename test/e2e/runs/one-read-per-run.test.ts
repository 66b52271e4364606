/**
 * Every command that reads a stored run reads its cases from the store at most once (the
 * terminal summary of a run whose statistics and listings are kept reads none): the reports
 * in every format, compare (two runs and a leaderboard), gate, export, and the read-back after
 * `bench --json` and `--out`. The passes are counted on the SQLite adapter's own case reads
 * its flat read of decisions and its CSV text of them (spies that call through, so the real
 * store answers), per run. Their output is what the
 * renderers give when left to read the run as often as they like.
 * The real CLI in process (the embedded reference server, the bundled sample), a real store.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { SqliteCases } from '../../../src/store/sqlite/cases.js';
import { openStore } from '../../../src/store/index.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { openStoredRun } from '../../../src/app/runs/stored-runs.js';
import { statesOfRun } from '../../../src/app/runs/run-case-states.js';
import { analyzeRun } from '../../../src/app/bench/run-analysis.js';
import { renderBenchMarkdown } from '../../../src/reports/bench/bench-markdown.js';
import { renderBenchJson } from '../../../src/reports/bench/bench-json.js';
import { renderBenchHtml } from '../../../src/reports/bench/bench-html.js';
import { renderBenchTerminal } from '../../../src/reports/bench/bench-terminal.js';
import { compareRuns } from '../../../src/core/bench/run-diff.js';
import { renderRunComparisonJson } from '../../../src/reports/runs/runs-diff.js';
import type { ConventionChoice } from '../../../src/core/stats/conventions.js';

const dir = tempFolderRemovedAfterAll('decidekit-one-read-');
const store = join(dir, 'runs.sqlite');
const askedBy = { command: 'runs report' } as const;

const iterate = vi.spyOn(SqliteCases.prototype, 'iterate');
const readAll = vi.spyOn(SqliteCases.prototype, 'readAll');
const decisionValues = vi.spyOn(SqliteCases.prototype, 'decisionValues');
const decisionCsv = vi.spyOn(SqliteCases.prototype, 'decisionCsv');
afterAll(() => {
  decisionCsv.mockRestore();
  iterate.mockRestore();
  readAll.mockRestore();
  decisionValues.mockRestore();
});

function cli(args: string[]): Promise<CliResult> {
  return runCliInProcess([...args, '--store', store], { cwd: dir, env: { XDG_DATA_HOME: join(dir, 'data') } });
}

/** Runs the command and counts the passes it made over each run's stored cases. */
async function passesOf(args: string[]): Promise<{ result: CliResult; passes: Record<string, number> }> {
  iterate.mockClear();
  readAll.mockClear();
  decisionValues.mockClear();
  decisionCsv.mockClear();
  const result = await cli(args);
  const passes: Record<string, number> = {};
  const runIds = [iterate, readAll, decisionValues, decisionCsv].flatMap((spy) =>
    (spy.mock.calls as unknown[][]).map((call) => call[0] as string),
  );
  for (const runId of runIds) passes[runId] = (passes[runId] ?? 0) + 1;
  return { result, passes };
}

function newestRunId(): string {
  const s = openStore(store, { mustExist: true, readOnly: true });
  try {
    return s.runs.list()[0]!.id;
  } finally {
    s.close();
  }
}

let heuristic = '';
let prior = '';
let uniform = '';

beforeAll(async () => {
  for (const model of ['heuristic', 'prior', 'uniform']) {
    const r = await cli(['bench', '--model', model, '--seed', '3']);
    expect(r.code, r.stderr).toBe(0);
  }
  const s = openStore(store, { mustExist: true, readOnly: true });
  try {
    [uniform, prior, heuristic] = s.runs.list().map((h) => h.id) as [string, string, string];
  } finally {
    s.close();
  }
}, 60_000);

/** What the report would be rendered from the run read as often as the renderers like. */
async function expectedReport(id: string, format: string, choice: ConventionChoice, intervals: boolean) {
  const opened = openStoredRun(store, id, askedBy);
  const { run, statistics } = analyzeRun(opened.run, choice, { intervals, stored: opened.stored });
  if (format === 'markdown') {
    const states = await statesOfRun(run, {});
    return renderBenchMarkdown(run, { statistics, ...(states ? { states } : {}) });
  }
  if (format === 'json') return renderBenchJson(run, { statistics });
  if (format === 'html') return renderBenchHtml(run, { statistics });
  return renderBenchTerminal(run, { colour: false, statistics });
}

const VARIANTS: readonly { args: string[]; choice: ConventionChoice; intervals: boolean }[] = [
  { args: [], choice: {}, intervals: true },
  { args: ['--seed', '7'], choice: { seed: 7 }, intervals: true },
  { args: ['--ece-bins', '15'], choice: { eceBins: 15 }, intervals: true },
  { args: ['--no-ci'], choice: {}, intervals: false },
];

describe('a stored run is read once', () => {
  for (const format of ['terminal', 'markdown', 'json', 'html']) {
    it(`runs report --format ${format}, under its own conventions and others, gives the same text`, async () => {
      for (const v of VARIANTS) {
        const { result, passes } = await passesOf(['runs', 'report', heuristic, '--format', format, ...v.args]);
        expect(result.code, result.stderr).toBe(0);
        // The terminal summary of a run under its own conventions reads none: its statistics
        // and listings are kept with it.
        const none = format === 'terminal' && Object.keys(v.choice).length === 0;
        expect(passes, v.args.join(' ')).toEqual(none ? {} : { [heuristic]: 1 });
        expect(result.stdout).toBe(await expectedReport(heuristic, format, v.choice, v.intervals));
      }
    });
  }

  it('report RUN --out FILE', async () => {
    const out = join(dir, 'report.md');
    const { result, passes } = await passesOf(['report', prior, '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(passes).toEqual({ [prior]: 1 });
    expect(readFileSync(out, 'utf8')).toBe(await expectedReport(prior, 'markdown', {}, true));
  });

  it('runs compare of two runs (text, JSON, HTML) and of three', async () => {
    for (const extra of [[], ['--json'], ['--format', 'html'], ['--json', '--seed', '5']]) {
      const { result, passes } = await passesOf(['runs', 'compare', heuristic, prior, ...extra]);
      expect(result.code, result.stderr).toBe(0);
      expect(passes, extra.join(' ')).toEqual({ [heuristic]: 1, [prior]: 1 });
    }
    // A leaderboard takes each run's stored statistics: at most one pass each.
    for (const extra of [['--json'], ['--format', 'html'], ['--seed', '5']]) {
      const three = await passesOf(['runs', 'compare', heuristic, prior, uniform, ...extra]);
      expect(three.result.code, three.result.stderr).toBe(0);
      for (const id of [heuristic, prior, uniform])
        expect(three.passes[id] ?? 0, extra.join(' ')).toBeLessThanOrEqual(1);
    }
  });

  it('runs compare --json gives the comparison made from runs read as often as it likes', async () => {
    const { result } = await passesOf(['runs', 'compare', heuristic, prior, '--json', '--seed', '5']);
    const [a, b] = [heuristic, prior].map((id) => {
      const opened = openStoredRun(store, id, askedBy);
      return analyzeRun(opened.run, { seed: 5 }, { intervals: true, stored: opened.stored });
    });
    const expected = compareRuns(a!.run, b!.run, { conventions: a!.statistics.conventions, intervals: true });
    expect(result.stdout).toBe(renderRunComparisonJson(expected));
  });

  it('runs gate', async () => {
    const { result, passes } = await passesOf(['runs', 'gate', '--baseline', prior, '--candidate', heuristic]);
    expect(result.code, result.stderr).toBe(0);
    expect(passes).toEqual({ [heuristic]: 1, [prior]: 1 });
  });

  it('runs export in every format', async () => {
    for (const format of ['jsonl', 'csv', 'parquet']) {
      const { result, passes } = await passesOf([
        'runs',
        'export',
        heuristic,
        '--format',
        format,
        '--out',
        join(dir, `export.${format}`),
      ]);
      expect(result.code, result.stderr).toBe(0);
      // Parquet's one pass is the store's text, made by a worker thread (one `decisionCsv` there):
      // this thread reads nothing.
      expect(passes, format).toEqual(format === 'parquet' ? {} : { [heuristic]: 1 });
    }
  });

  it('bench --json reads the finished run back once', async () => {
    const { result, passes } = await passesOf(['bench', '--json', '--seed', '3']);
    expect(result.code, result.stderr).toBe(0);
    expect(passes).toEqual({ [newestRunId()]: 1 });
  });

  it('bench --out (and --json) reads the finished run back once for its reports, the same as runs report', async () => {
    const out = join(dir, 'out');
    const { result, passes } = await passesOf(['bench', '--out', out, '--json', '--seed', '3']);
    expect(result.code, result.stderr).toBe(0);
    const id = newestRunId();
    expect(passes).toEqual({ [id]: 1 });
    expect(result.stdout).toBe(await expectedReport(id, 'json', {}, true));
    for (const [ext, format] of [
      ['md', 'markdown'],
      ['json', 'json'],
      ['html', 'html'],
    ] as const)
      expect(readFileSync(join(out, `${id}.${ext}`), 'utf8'), format).toBe(await expectedReport(id, format, {}, true));
  });
});
