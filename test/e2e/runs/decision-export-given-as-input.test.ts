/**
 * A decision export (`runs export`, JSONL, CSV or Parquet) given where a dataset or results
 * file goes, and a file that is no database given as --store: each refused once, saying what
 * the file is and a next step that works (the DuckDB hint is run here, on DuckDB in process).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { sqlString } from '../../../src/core/sql-text.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const DATA = join(import.meta.dirname, '..', '..', '..', 'data');
const DATASET = join(DATA, 'moderation', 'dataset.jsonl');
const RESULTS = join(DATA, 'moderation', 'results-loud-1.jsonl');

const dir = tempFolderRemovedAfterAll('decidekit-export-hint-');
const store = join(dir, 'runs.sqlite');
const cli = (args: string[]): Promise<CliResult> => runCliInProcess(args, { cwd: dir, env: {} });

let decisions = 0;
let correct = 0;

beforeAll(async () => {
  expect((await cli(['bench', '--limit', '20', '--store', store])).code).toBe(0);
  for (const format of ['jsonl', 'csv', 'parquet']) {
    const r = await cli(['runs', 'export', '2026', '--store', store, '--out', `decisions.${format}`]);
    expect(r.code, r.stderr).toBe(0);
  }
  const rows = readFileSync(join(dir, 'decisions.jsonl'), 'utf8').trim().split('\n');
  decisions = rows.length;
  correct = rows.filter((line) => (JSON.parse(line) as { correct: boolean }).correct).length;
}, 60_000);

describe('a decision export given as a dataset or results file', () => {
  it.each(['jsonl', 'csv', 'parquet'])(
    'names the %s export as one and gives a DuckDB command that scores it',
    async (format) => {
      const file = `decisions.${format}`;
      for (const argv of [
        ['score', '--dataset', file, '--results', RESULTS],
        ['score', '--dataset', DATASET, '--results', file],
        ['bench', '--dataset', file],
      ]) {
        const r = await cli(argv);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`${file} (given as`);
        expect(r.stderr).toContain('is a decision export (one row per decision, written by `decidekit runs export`)');
        expect(r.stderr).not.toContain('is a results file');
      }
      const r = await cli(['score', '--dataset', file, '--results', RESULTS]);
      const command = /`(duckdb -c "(.+?)" -c "\$\(decidekit (sql --dialect duckdb)\)")`/.exec(r.stderr);
      expect(command, r.stderr).not.toBeNull();
      // The hint as the shell would run it: the view over the file, then `decidekit sql`'s query.
      const view = command![2]!.replace(/\\([\\"$`])/g, '$1');
      const sql = await cli(command![3]!.split(' '));
      expect(sql.code).toBe(0);
      const duck = await (await DuckDBInstance.create(':memory:')).connect();
      try {
        await duck.run(`SET file_search_path = ${sqlString(dir)}`);
        await duck.run(view);
        const rows = (await duck.runAndReadAll(sql.stdout)).getRowObjectsJS() as Record<string, unknown>[];
        const overall = rows.find((row) => row['scope'] === 'overall' && row['bin'] === null)!;
        expect(Number(overall['decisions'])).toBe(decisions);
        expect(Number(overall['correct'])).toBe(correct);
      } finally {
        duck.closeSync();
      }
    },
    30_000,
  );
});

describe('a file that is no database given as --store', () => {
  it('says what the file is, not "damaged", and runs check says the same without sending the user back', async () => {
    const csv = join(dir, 'notdb.sqlite');
    writeFileSync(csv, 'a,b\n1,2\n');
    for (const argv of [
      ['runs', 'list', '--store', csv],
      ['runs', 'check', '--store', csv],
    ]) {
      const r = await cli(argv);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `${csv} is not a SQLite database at all, so not a run store: it looks like a text file (CSV?)`,
      );
      expect(r.stderr).not.toContain('damaged');
      expect(r.stderr).not.toContain('runs check --store');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(readFileSync(csv, 'utf8')).toBe('a,b\n1,2\n');
    const exported = await cli(['runs', 'list', '--store', join(dir, 'decisions.parquet')]);
    expect(exported.stderr).toContain('it looks like a Parquet file');
  });

  it('names a decision export given as --store by its format: CSV as CSV, JSONL as JSONL', async () => {
    for (const [file, format] of [
      ['decisions.csv', 'CSV'],
      ['decisions.jsonl', 'JSONL'],
    ] as const) {
      const r = await cli(['runs', 'list', '--store', file]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`it looks like a decision export (${format}, from 'decidekit runs export')`);
    }
  });

  it('reads an empty file as a store with no runs yet, never asking to upgrade it, and leaves it empty', async () => {
    const empty = join(dir, 'touched.sqlite');
    writeFileSync(empty, '');
    const list = await cli(['runs', 'list', '--store', empty]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`No runs stored in ${empty} yet.`);
    for (const argv of [
      ['runs', 'show', 'x', '--store', empty],
      ['runs', 'check', '--store', empty],
      ['report', 'x', '--store', empty],
    ]) {
      const r = await cli(argv);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`no run store at ${empty} yet: the file is empty`);
      expect(r.stderr).not.toContain('schema version');
      expect(r.stderr).not.toContain('writable');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(readFileSync(empty)).toHaveLength(0);
  });

  it('still calls a SQLite file whose first page is broken damaged, and points to runs check', async () => {
    const broken = join(dir, 'broken.sqlite');
    const bytes = readFileSync(store);
    bytes.fill(0xff, 16, 100); // the header after its magic: page size and the rest
    writeFileSync(broken, bytes);
    const r = await cli(['runs', 'list', '--store', broken]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`run store ${broken} is damaged`);
    expect(r.stderr).toContain(`runs check --store ${broken}`);
  });
});
