/**
 * End-to-end: the real CLI (`runCli` in process, on the current source) against run
 * stores seeded here through the library.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../test-support/in-process-cli.js';
import { uniquePrefix } from '../test-support/unique-prefix.js';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { BenchSummary } from '../../core/bench/summary.js';
import type { RunConfig } from '../../core/bench/run.js';
import { benchSummaryJson } from '../../reports/bench/bench-json-shapes.js';
import { openStore, summarizeRun, SCHEMA_VERSION } from '../../store/index.js';
import {
  answeredCase,
  CASE_IDS,
  failedCase,
  rightAnswers,
  runConfig,
  wrongAnswers,
} from '../../store/test-support/run-fixtures.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';

function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCliInProcess(args, { cwd: dir, env: env });
}

const dir = tempFolderRemovedAfterAll('decidekit-runs-cli-');
let storePath: string;
const seeded: { id: string; summary: BenchSummary; decisions: number }[] = [];
const [c1, c2, c3, c4] = CASE_IDS as [string, string, string, string];

function seed(
  path: string,
  config: RunConfig,
  cases: CaseResult[],
  createdAt: string,
  label: string | null,
  random: number,
) {
  const store = openStore(path, { randomBytes: () => Uint8Array.of(random, random) });
  try {
    const head = store.runs.create({ config, label, createdAt });
    for (const c of cases) store.cases.save(head.id, [c]);
    const summary = summarizeRun(config, cases);
    store.runs.finish(head.id, { status: summary.status, durationMs: 5000, summary });
    return { id: head.id, summary, decisions: cases.length * 3 };
  } finally {
    store.close();
  }
}

beforeAll(() => {
  storePath = join(dir, 'runs.sqlite');
  // [0] baseline: 6/12; [1] same cases, better: 9/12; [2] filtered run of one case.
  seeded.push(
    seed(
      storePath,
      runConfig(),
      [
        answeredCase(c1, rightAnswers()),
        failedCase(c2),
        answeredCase(c3, wrongAnswers()),
        answeredCase(c4, rightAnswers()),
      ],
      '2026-11-30T04:15:12Z',
      'baseline',
      0x11,
    ),
  );
  seeded.push(
    seed(
      storePath,
      runConfig(),
      [
        answeredCase(c1, wrongAnswers()),
        answeredCase(c2, rightAnswers()),
        answeredCase(c3, rightAnswers()),
        answeredCase(c4, rightAnswers()),
      ],
      '2026-12-01T09:30:00Z',
      null,
      0x22,
    ),
  );
  seeded.push(
    seed(
      storePath,
      runConfig({ caseIds: [c1], filters: { limit: 1, workflow: null } }),
      [answeredCase(c1, rightAnswers())],
      '2026-12-01T09:31:00Z',
      'quick',
      0x33,
    ),
  );
});

const baseline = () => seeded[0]!;
const better = () => seeded[1]!;
const filtered = () => seeded[2]!;

describe.concurrent('decidekit runs list', () => {
  it('lists runs newest first', async () => {
    const r = await cli(['runs', 'list', '--store', storePath]);
    expect(r.code).toBe(0);
    const ids = r.stdout.split('\n').flatMap((l) => l.match(/^\d{8}-\d{6}-[0-9a-f]{4}/) ?? []);
    expect(ids).toEqual([filtered().id, better().id, baseline().id]);
    expect(r.stdout).toContain('(filtered)');
  });

  it('counts the whole store in the footer, also under --limit, and fits 100 columns', async () => {
    const r = await cli(['runs', 'list', '--store', storePath, '--limit', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`The 2 newest of 3 runs in ${storePath} (`);
    expect(r.stdout).toMatch(/ \((\d) complete(, (\d) incomplete)?\)\./);
    const [, complete, , incomplete] = / \((\d) complete(, (\d) incomplete)?\)\./.exec(r.stdout)!;
    const statuses = seeded.map((s) => s.summary.status);
    expect(Number(complete)).toBe(statuses.filter((s) => s === 'complete').length);
    expect(Number(incomplete ?? 0)).toBe(statuses.filter((s) => s === 'incomplete').length);
    for (const line of r.stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(100);
  });

  it('prints unrounded headline metrics as JSON and honours --limit', async () => {
    const r = await cli(['runs', 'list', '--store', storePath, '--json', '--limit', '2']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.runs.map((h: { id: string }) => h.id)).toEqual([filtered().id, better().id]);
    expect(doc.runs[1].headline.accuracy).toBe(better().summary.accuracy);
    expect(doc.runs[1].headline.brier).toBe(better().summary.brier);
  });

  it('finds the store under XDG_DATA_HOME by default', async () => {
    const xdg = join(dir, 'xdg');
    const only = seed(
      join(xdg, 'decidekit', 'runs.sqlite'),
      runConfig(),
      [answeredCase(c1, rightAnswers())],
      '2026-10-01T00:00:00Z',
      null,
      0x44,
    );
    const r = await cli(['runs', 'list', '--json'], { XDG_DATA_HOME: xdg });
    expect(JSON.parse(r.stdout).runs.map((h: { id: string }) => h.id)).toEqual([only.id]);
  });

  it('reports an empty list for a store that does not exist yet, without creating it', async () => {
    const missing = join(dir, 'none', 'runs.sqlite');
    const r = await cli(['runs', 'list', '--store', missing, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).runs).toEqual([]);
    expect(() => readFileSync(missing)).toThrow();
  });

  it('rejects a bad --limit as a usage error', async () => {
    const r = await cli(['runs', 'list', '--store', storePath, '--limit', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--limit');
  });
});

describe.concurrent('decidekit runs show', () => {
  it('shows a run found by a unique prefix', async () => {
    const r = await cli(['runs', 'show', baseline().id.slice(0, 10), '--store', storePath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Run ${baseline().id}  baseline`);
    expect(r.stdout).toMatch(/accuracy\s+50\.0%/);
  });

  it('prints the stored summary unchanged as JSON', async () => {
    const r = await cli(['runs', 'show', better().id, '--store', storePath, '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.summary).toMatchObject(benchSummaryJson(better().summary));
    expect(doc.summary.mean_confidence).toBe(better().summary.meanConfidence);
    expect(doc.summary.accuracy_ci[0]).toBeLessThanOrEqual(better().summary.accuracy!);
    expect(doc.summary.accuracy_ci[1]).toBeGreaterThanOrEqual(better().summary.accuracy!);
    expect(doc.summary.conventions.ece_bins).toBe(10);
    expect(doc.config.case_ids).toEqual(CASE_IDS);
  });

  it('exits 1 with a clear message for an unknown or ambiguous id', async () => {
    const unknown = await cli(['runs', 'show', '1999', '--store', storePath]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown run: no stored run id starts with "1999"');
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
    const ambiguous = await cli(['runs', 'show', '20261201', '--store', storePath]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('ambiguous run id');
  });

  it('exits 1 naming the file for a store from a newer decidekit, and leaves it unchanged', async () => {
    const path = join(dir, 'future.sqlite');
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    const before = readFileSync(path);
    const r = await cli(['runs', 'list', '--store', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(path);
    expect(r.stderr).toContain('upgrade decidekit');
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe.concurrent('decidekit runs compare', () => {
  it('compares runs with the same fingerprint', async () => {
    const r = await cli(['runs', 'compare', baseline().id, better().id, '--store', storePath, '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.same_fingerprint).toBe(true);
    expect(doc.headline.accuracy).toEqual({ a: 0.5, b: 0.75, delta: 0.25 });
    // c1 right -> wrong (3), c2 failed -> right (3), c3 wrong -> right (3).
    expect([doc.changed.length, doc.fixed, doc.broken]).toEqual([9, 6, 3]);
  });

  it('refuses runs of different work unless forced, naming the difference, and warns when forced', async () => {
    const refused = await cli(['runs', 'compare', baseline().id, filtered().id, '--store', storePath]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('they measured different work (case set: A 4 cases, B 1');
    const forced = await cli(['runs', 'compare', baseline().id, filtered().id, '--store', storePath, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('warning: the runs measured different work');
    expect(forced.stdout).toContain('Run comparison');
  });

  it('needs two runs', async () => {
    expect((await cli(['runs', 'compare', baseline().id, '--store', storePath])).code).toBe(2);
  });

  it('refuses one run given twice (also by two prefixes), for compare and gate', async () => {
    const id = baseline().id;
    for (const argv of [
      [
        'runs',
        'compare',
        id,
        uniquePrefix(
          id,
          seeded.map((run) => run.id),
        ),
      ],
      ['runs', 'compare', better().id, id, id],
      ['runs', 'gate', '--baseline', id, '--candidate', id],
    ]) {
      const r = await cli([...argv, '--store', storePath]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`are the same run ${id}: give each run once`);
      expect(r.stdout).toBe('');
    }
  });
});

describe.concurrent('decidekit runs report', () => {
  it('re-renders the stored run as the bench JSON document, unchanged', async () => {
    const r = await cli(['runs', 'report', better().id, '--format', 'json', '--store', storePath]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.id).toBe(better().id);
    expect(doc.summary.accuracy).toBe(better().summary.accuracy);
    expect(doc.decisions).toHaveLength(better().decisions);
  });

  it('writes the Markdown report to --out with the host redacted', async () => {
    const out = join(dir, 'report.md');
    const r = await cli([
      'runs',
      'report',
      baseline().id,
      '--format',
      'markdown',
      '--redact',
      '--out',
      out,
      '--store',
      storePath,
    ]);
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(baseline().id);
    expect(text).not.toContain('127.0.0.1');
  });

  it('writes <run>.<ext> into a folder given as --out, and makes a missing folder', async () => {
    const folder = mkdtempSync(join(dir, 'reports folder '));
    const id = baseline().id;
    for (const [format, ext] of [
      ['markdown', 'md'],
      ['json', 'json'],
      ['html', 'html'],
      ['terminal', 'txt'],
    ] as const) {
      const r = await cli(['runs', 'report', id, '--format', format, '--out', folder, '--store', storePath]);
      expect(r.stderr).not.toContain('EISDIR');
      expect(r.code).toBe(0);
      const file = join(folder, `${id}.${ext}`);
      expect(r.stderr).toContain(`written to ${file}`);
      // The same text the report prints to standard output.
      const printed = await cli(['runs', 'report', id, '--format', format, '--store', storePath]);
      expect(readFileSync(file, 'utf8')).toBe(printed.stdout);
    }
    const missing = join(dir, 'no such folder', 'r.md');
    const m = await cli(['runs', 'report', id, '--out', missing, '--store', storePath]);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stderr).toBe(`decidekit runs report: markdown report of run ${id} written to ${missing}\n`);
    expect(readFileSync(missing, 'utf8')).toContain(id);
  });

  it('prints the terminal summary by default and rejects unknown formats', async () => {
    const r = await cli(['runs', 'report', baseline().id, '--store', storePath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Accuracy\s+50\.0%/);
    expect((await cli(['runs', 'report', baseline().id, '--format', 'pdf', '--store', storePath])).code).toBe(2);
  });

  it('prints the HTML report with --format html', async () => {
    const r = await cli(['runs', 'report', baseline().id, '--format', 'html', '--store', storePath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^<!doctype html>/);
    expect(r.stdout).toContain(`<code>${baseline().id}</code>`);
  });
});

describe.concurrent('decidekit runs export', () => {
  it('writes one JSON line per decision to stdout', async () => {
    const r = await cli(['runs', 'export', baseline().id, '--format', 'jsonl', '--store', storePath]);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(baseline().decisions);
    expect(rows.filter((row) => row.correct).length).toBe(baseline().summary.correct);
    expect(rows.filter((row) => row.status === 'failed').every((row) => row.error_kind === 'timeout')).toBe(true);
  });

  it('writes to --out and says so on stderr', async () => {
    const out = join(dir, 'export.jsonl');
    const r = await cli(['runs', 'export', better().id, '--format', 'jsonl', '--out', out, '--store', storePath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(out);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(better().decisions);
  });

  it('needs a format, given or read from the --out extension', async () => {
    const none = await cli(['runs', 'export', better().id, '--store', storePath]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('decidekit runs export: needs --format jsonl, csv, parquet or eval-results');
    expect((await cli(['runs', 'export', better().id, '--format', 'xml', '--store', storePath])).code).toBe(2);
    expect((await cli(['runs', 'export', better().id, '--out', join(dir, 'x.txt'), '--store', storePath])).code).toBe(
      2,
    );
    const out = join(dir, 'by-extension.csv');
    expect((await cli(['runs', 'export', better().id, '--out', out, '--store', storePath])).code).toBe(0);
    expect(readFileSync(out, 'utf8').split('\r\n')[0]).toMatch(/^schema_version,run_id,/);
  });
});

describe.concurrent('decidekit runs', () => {
  it('needs a known subcommand', async () => {
    expect((await cli(['runs'])).code).toBe(2);
    const r = await cli(['runs', 'purge']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown subcommand "purge"');
  });

  it('prints help with an example', async () => {
    const r = await cli(['runs', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
  });
});
