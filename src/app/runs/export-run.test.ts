/**
 * `runs export` through the real CLI on a real store: the Parquet file (read back with
 * hyparquet) and the CSV (parsed back by an independent RFC 4180 reader) hold exactly the
 * rows of the JSONL export.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { DuckDBInstance } from '@duckdb/node-api';
import { exportStoredRun } from './export-run.js';
import { prepareOutputPath } from '../output-file.js';
import { runCliInProcess } from '../../cli/test-support/in-process-cli.js';
import { scoreCase, type CaseResult } from '../../core/typed-decisions/case-result.js';
import { DECISION_COLUMNS, decisionRowsOfRun } from '../../core/export/decision-row.js';
import { openStore, summarizeRun } from '../../store/index.js';
import { SqliteCases } from '../../store/sqlite/cases.js';
import {
  answeredCase,
  benchCase,
  CASE_IDS,
  createRunConfig,
  failedCase,
  rightAnswers,
  wrongAnswers,
} from '../../core/bench/test-support/run-fixtures.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-export-');
let storePath: string;
let runId: string;
let emptyRunId: string;
const [c1, c2, c3, c4] = CASE_IDS as [string, string, string, string];

/** Text a spreadsheet would run as a formula, and every character CSV must quote. */
const HOSTILE_MESSAGE = '=HYPERLINK("http://evil.example","click"),\r\nnext line';

beforeAll(() => {
  storePath = join(dir, 'runs.sqlite');
  const config = createRunConfig({ caseIds: [c1, c2, c3, c4, 'x5'], pricePerMtokUsd: 0.3 });
  const hostile: CaseResult = scoreCase(benchCase('x5', '-workflow,"quoted"'), {
    status: 'failed',
    failure: { kind: 'http', message: HOSTILE_MESSAGE },
    latencyMs: 12.5,
  });
  const cases = [
    answeredCase(c1, rightAnswers(), 120.25, 321),
    failedCase(c2),
    answeredCase(c3, wrongAnswers(), 0.1 + 0.2, null),
    answeredCase(c4, rightAnswers(3), 1e-7, 9_007_199_254_740_991),
    hostile,
  ];
  const store = openStore(storePath);
  try {
    const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
    for (const c of cases) store.cases.save(head.id, [c]);
    const summary = summarizeRun(config, cases);
    store.runs.finish(head.id, { status: summary.status, durationMs: 10, summary });
    runId = head.id;
    const empty = store.runs.create({ config: createRunConfig(), label: null, createdAt: '2026-11-30T05:15:12Z' });
    store.runs.finish(empty.id, { status: 'complete', durationMs: 0, summary: summarizeRun(createRunConfig(), []) });
    emptyRunId = empty.id;
  } finally {
    store.close();
  }
});

async function exportJsonl(id: string): Promise<Record<string, unknown>[]> {
  const r = await runCliInProcess(['runs', 'export', id, '--format', 'jsonl', '--store', storePath]);
  expect(r.code).toBe(0);
  return r.stdout === ''
    ? []
    : r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** RFC 4180, written here from the RFC, independent of the exporter. */
function parseCsv(text: string): (string | null)[][] {
  const records: (string | null)[][] = [];
  let record: (string | null)[] = [];
  let i = 0;
  for (;;) {
    let field: string | null;
    if (text[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) throw new Error('unterminated quote');
        value += text.slice(i, q);
        if (text[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      field = value;
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '\r') end++;
      field = end === i ? null : text.slice(i, end);
      i = end;
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.slice(i, i + 2) !== '\r\n') throw new Error(`expected CRLF at ${i}`);
    records.push(record);
    record = [];
    i += 2;
    if (i === text.length) return records;
  }
}

/** A CSV record back to a row, by the schema's types; a guarded text loses its leading quote. */
function rowOfCsv(header: readonly (string | null)[], record: readonly (string | null)[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  header.forEach((name, k) => {
    const column = DECISION_COLUMNS.find((c) => c.name === name)!;
    const cell = record[k] ?? null;
    if (cell === null) row[name!] = null;
    else if (column.type === 'string') row[name!] = cell.startsWith("'") ? cell.slice(1) : cell;
    else if (column.type === 'boolean') row[name!] = cell === 'true' ? true : cell === 'false' ? false : cell;
    else row[name!] = Number(cell);
  });
  return row;
}

function bufferOf(path: string): ArrayBuffer {
  const file = readFileSync(path);
  return file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
}

/** The rows of a Parquet file read back by hyparquet, integers as numbers (as in JSONL). */
async function rowsOf(path: string): Promise<Record<string, unknown>[]> {
  const rows = await parquetReadObjects({ file: bufferOf(path) });
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])),
  );
}

/** The Parquet export as written where DuckDB is not installed (hyparquet-writer); its path. */
async function exportWithoutDuckDb(store: string, id: string, name: string): Promise<string> {
  const path = join(dir, name);
  const notInstalled = Object.assign(new Error('Cannot find package @duckdb/node-api'), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
  const place = await prepareOutputPath(path, 'target', { cwd: dir, inputs: [] });
  await exportStoredRun(
    store,
    id,
    'parquet',
    { kind: 'place', place },
    { command: 'runs export' },
    {
      importDuckDb: () => Promise.reject(notInstalled),
    },
  );
  return path;
}

describe('runs export round trips', () => {
  it("exports the rows the run's cases make, read flat from the store", async () => {
    const store = openStore(storePath, { mustExist: true, readOnly: true });
    let expected: Record<string, unknown>[];
    try {
      expected = [...decisionRowsOfRun(store.runs.get(runId)!)].map((row) => ({ ...row }));
    } finally {
      store.close();
    }
    // Answered, failed and priced cases, score questions and a hostile failure message.
    expect(expected.map((row) => row['status'])).toContain('failed');
    expect(expected.map((row) => row['gold_level'])).toContain(2);
    expect(expected.map((row) => row['cost_usd'])).toContain(0);
    expect(await exportJsonl(runId)).toEqual(expected);
  });

  it('writes a Parquet file that reads back as the JSONL rows, with typed nullable columns, by either writer', async () => {
    const jsonl = await exportJsonl(runId);
    expect(jsonl).toHaveLength(15);
    const out = join(dir, 'decisions.parquet');
    const r = await runCliInProcess([
      'runs',
      'export',
      runId,
      '--format',
      'parquet',
      '--out',
      out,
      '--store',
      storePath,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`15 decisions of run ${runId} written to ${out}`);
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
    const hyparquetOut = await exportWithoutDuckDb(storePath, runId, 'decisions-hyparquet.parquet');
    for (const [path, writer] of [
      [out, 'duckdb'],
      [hyparquetOut, 'hyparquet'],
    ] as const) {
      const buffer = bufferOf(path);
      const metadata = parquetMetadata(buffer);
      expect(metadata.created_by ?? '', writer).toMatch(writer === 'duckdb' ? /DuckDB/i : /^decidekit$/);
      const types = Object.fromEntries(metadata.schema.slice(1).map((e) => [e.name, [e.type, e.repetition_type]]));
      expect(Object.keys(types)).toEqual(DECISION_COLUMNS.map((c) => c.name));
      for (const c of DECISION_COLUMNS) {
        const physical = { integer: 'INT64', double: 'DOUBLE', boolean: 'BOOLEAN', string: 'BYTE_ARRAY' }[c.type];
        // DuckDB marks every column optional; hyparquet-writer only the nullable ones.
        const repetition = writer === 'duckdb' || c.nullable ? 'OPTIONAL' : 'REQUIRED';
        expect(types[c.name], `${writer} ${c.name}`).toEqual([physical, repetition]);
      }
      expect(metadata.key_value_metadata).toContainEqual({ key: 'decidekit.decision_schema_version', value: '1' });
      expect(metadata.key_value_metadata).toContainEqual({ key: 'decidekit.run_id', value: runId });
      expect(await rowsOf(path), writer).toEqual(jsonl);
    }
    // DuckDB reads both files as the same typed table.
    const duckdb = await (await DuckDBInstance.create(':memory:')).connect();
    const described = async (path: string) =>
      (await duckdb.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${path}')`))
        .getRows()
        .map((row) => row.slice(0, 2));
    expect(await described(hyparquetOut)).toEqual(await described(out));
    expect(await described(out)).toEqual(
      DECISION_COLUMNS.map((c) => [
        c.name,
        { integer: 'BIGINT', double: 'DOUBLE', boolean: 'BOOLEAN', string: 'VARCHAR' }[c.type],
      ]),
    );
    const differing = await duckdb.runAndReadAll(
      `SELECT count(*) FROM (SELECT * FROM read_parquet('${out}') EXCEPT ALL SELECT * FROM read_parquet('${hyparquetOut}'))`,
    );
    expect(differing.getRows()).toEqual([[0n]]);
    duckdb.closeSync();
  });

  it('writes a run larger than one row group in groups (DuckDB: 10,240 rows, hyparquet-writer: 10,000) that read back as the JSONL rows', async () => {
    const bigStore = join(dir, 'big.sqlite');
    const ids = Array.from({ length: 7_000 }, (_, i) => `case-${String(i).padStart(4, '0')}`);
    const config = createRunConfig({ caseIds: ids });
    const cases = ids.map((id, i) =>
      i % 7 === 3 ? failedCase(id) : answeredCase(id, i % 2 === 0 ? rightAnswers(i) : wrongAnswers(), i / 8, i),
    );
    const store = openStore(bigStore);
    let id: string;
    try {
      id = store.runs.create({ config, label: null, createdAt: '2026-11-30T06:15:12Z' }).id;
      store.cases.save(id, cases);
      const summary = summarizeRun(config, cases);
      store.runs.finish(id, { status: summary.status, durationMs: 10, summary });
    } finally {
      store.close();
    }
    const jsonl = await runCliInProcess(['runs', 'export', id, '--format', 'jsonl', '--store', bigStore]);
    const expected = jsonl.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(expected).toHaveLength(21_000);
    const out = join(dir, 'big.parquet');
    const r = await runCliInProcess(['runs', 'export', id, '--format', 'parquet', '--out', out, '--store', bigStore]);
    expect(r.code).toBe(0);
    const groups = (path: string) => parquetMetadata(bufferOf(path)).row_groups.map((g) => Number(g.num_rows));
    expect(groups(out)).toEqual([10_240, 10_240, 520]);
    expect(await rowsOf(out)).toEqual(expected);
    const hyparquetOut = await exportWithoutDuckDb(bigStore, id, 'big-hyparquet.parquet');
    expect(groups(hyparquetOut)).toEqual([10_000, 10_000, 1_000]);
    expect(await rowsOf(hyparquetOut)).toEqual(expected);
  });

  it("writes Parquet from the store's text with every number exact, and from the flat read when the text cannot carry a row", async () => {
    const edgeStore = join(dir, 'edge.sqlite');
    const ids = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'];
    const config = createRunConfig({ caseIds: ids, pricePerMtokUsd: 0.7 });
    const cases = [
      answeredCase('e1', rightAnswers(1), 1e10, 17),
      answeredCase('e2', wrongAnswers(), 0, null),
      answeredCase('e3', rightAnswers(2), 5e-324, 3),
      failedCase('e4', 8388608),
      answeredCase('e5', rightAnswers(3), 8388607.999999999, 2 ** 53 - 1),
      answeredCase('e6', wrongAnswers(), 1 / 3, 0),
    ];
    const store = openStore(edgeStore);
    let id: string;
    try {
      id = store.runs.create({ config, label: null, createdAt: '2026-11-30T07:15:12Z' }).id;
      store.cases.save(id, cases);
      const summary = summarizeRun(config, cases);
      store.runs.finish(id, { status: summary.status, durationMs: 10, summary });
    } finally {
      store.close();
    }
    // Scores at and beyond the ends of the exact integer form, and a gold label no answer has.
    const db = new Database(edgeStore);
    db.prepare(
      `UPDATE decisions SET kl = 5e-324, brier = 0, confidence = 1 WHERE case_id = 'e1' AND position = 0`,
    ).run();
    db.prepare(
      `UPDATE decisions SET kl = -1e300, brier = 4.547473508864641e-13 WHERE case_id = 'e2' AND position = 1`,
    ).run();
    db.prepare(`UPDATE decisions SET gold_label = 'none of them' WHERE case_id = 'e6' AND type = 'score'`).run();
    db.close();
    // Which way each export went: the text made on this thread (files), or the flat read.
    const text = vi.spyOn(SqliteCases.prototype, 'decisionCsv');
    const flat = vi.spyOn(SqliteCases.prototype, 'decisionValues');
    // Through pipes (the CLI, a worker thread making the text), and through temp files.
    const exported = async (name: string) => {
      const out = join(dir, name);
      const made = text.mock.calls.length;
      const r = await runCliInProcess([
        'runs',
        'export',
        id,
        '--format',
        'parquet',
        '--out',
        out,
        '--store',
        edgeStore,
      ]);
      expect(r.code, r.stderr).toBe(0);
      // The CLI's text is made off this thread.
      expect(text.mock.calls.length).toBe(made);
      const viaFiles = join(dir, `files-${name}`);
      const place = await prepareOutputPath(viaFiles, 'target', { cwd: dir, inputs: [] });
      await exportStoredRun(
        edgeStore,
        id,
        'parquet',
        { kind: 'place', place },
        { command: 'runs export' },
        { pipes: false },
      );
      const rows = await rowsOf(out);
      expect(await rowsOf(viaFiles)).toEqual(rows);
      return rows;
    };
    const jsonl = async () =>
      (await runCliInProcess(['runs', 'export', id, '--format', 'jsonl', '--store', edgeStore])).stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    try {
      const expected = await jsonl();
      expect(expected.map((row) => row['kl'])).toEqual(expect.arrayContaining([5e-324, -1e300]));
      expect(expected.map((row) => row['gold_level'])).toContain(-1);
      flat.mockClear();
      expect(await exported('edge.parquet')).toEqual(expected);
      // The pipes' text came from the worker (no flat read here), the files' from this thread.
      expect(flat).not.toHaveBeenCalled();
      expect(text.mock.results.map((r) => r.value)).toEqual([true]);
      expect(await rowsOf(await exportWithoutDuckDb(edgeStore, id, 'edge-hyparquet.parquet'))).toEqual(expected);
      // A text holding the text's own quote character: the store declines the text, the flat read writes the file.
      const quoted = new Database(edgeStore);
      quoted.prepare(`UPDATE cases SET error_message = 'a\x1eb' WHERE case_id = 'e4'`).run();
      quoted.prepare(`UPDATE decisions SET error_message = 'a\x1eb' WHERE case_id = 'e4'`).run();
      quoted.close();
      const withQuote = await jsonl();
      expect(withQuote.map((row) => row['error_message'])).toContain('a\x1eb');
      flat.mockClear();
      expect(await exported('edge-quoted.parquet')).toEqual(withQuote);
      expect(text.mock.results.map((r) => r.value)).toEqual([true, false]);
      expect(flat).toHaveBeenCalledTimes(2);
      // A distribution JSON.stringify would not write (white space): DuckDB declines it, the flat read writes it.
      const spaced = new Database(edgeStore);
      spaced
        .prepare(`UPDATE decisions SET probabilities_json = '[0.25, 0.75]' WHERE case_id = 'e1' AND position = 0`)
        .run();
      spaced.close();
      const withSpace = await jsonl();
      expect(withSpace.map((row) => row['predicted_distribution'])).toContain('[0.25, 0.75]');
      expect(await exported('edge-spaced.parquet')).toEqual(withSpace);
    } finally {
      text.mockRestore();
      flat.mockRestore();
    }
  });

  it('writes Parquet from the flat read when the worker making the text cannot open the store, without waiting on its pipes', async () => {
    const gone = join(dir, 'gone.sqlite');
    writeFileSync(gone, readFileSync(storePath));
    const out = join(dir, 'gone.parquet');
    const place = await prepareOutputPath(out, 'target', { cwd: dir, inputs: [] });
    const flat = vi.spyOn(SqliteCases.prototype, 'decisionValues');
    try {
      // The store is removed once this thread has it open: the worker finds no store to read.
      const summary = await exportStoredRun(
        gone,
        runId,
        'parquet',
        { kind: 'place', place },
        { command: 'runs export' },
        {
          importDuckDb: async () => {
            rmSync(gone);
            return import('@duckdb/node-api');
          },
        },
      );
      expect(flat).toHaveBeenCalledTimes(1);
      expect(await rowsOf(out)).toEqual(await rowsOf(await exportWithoutDuckDb(storePath, runId, 'kept.parquet')));
      expect(summary.decisions).toBeGreaterThan(0);
    } finally {
      flat.mockRestore();
    }
  });

  it('writes a CSV that parses back as the JSONL rows, formula-like text guarded', async () => {
    const jsonl = await exportJsonl(runId);
    const r = await runCliInProcess(['runs', 'export', runId, '--format', 'csv', '--store', storePath]);
    expect(r.code).toBe(0);
    const [header, ...records] = parseCsv(r.stdout);
    expect(header).toEqual(DECISION_COLUMNS.map((c) => c.name));
    expect(records.map((rec) => rowOfCsv(header!, rec))).toEqual(jsonl);
    // No cell of the file starts with a formula character.
    for (const rec of records) for (const cell of rec) expect(cell ?? '').not.toMatch(/^[=+\-@\t\r]/);
    expect(r.stdout).toContain(`"'${HOSTILE_MESSAGE.replace(/"/g, '""')}"`);
  });

  it('keeps numbers unrounded in every format', async () => {
    const jsonl = await exportJsonl(runId);
    expect(jsonl.map((row) => row['latency_ms'])).toContain(0.1 + 0.2);
    expect(jsonl.map((row) => row['input_tokens'])).toContain(9_007_199_254_740_991);
  });

  it('exports a run without decisions as a header (CSV), nothing (JSONL) and an empty typed table (Parquet)', async () => {
    expect(await exportJsonl(emptyRunId)).toEqual([]);
    const csv = await runCliInProcess(['runs', 'export', emptyRunId, '--format', 'csv', '--store', storePath]);
    expect(csv.stdout).toBe(`${DECISION_COLUMNS.map((c) => c.name).join(',')}\r\n`);
    const out = join(dir, 'empty.parquet');
    expect((await runCliInProcess(['runs', 'export', emptyRunId, '--out', out, '--store', storePath])).code).toBe(0);
    const file = readFileSync(out);
    const buffer = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
    expect(Number(parquetMetadata(buffer).num_rows)).toBe(0);
    expect(
      parquetMetadata(buffer)
        .schema.slice(1)
        .map((e) => e.name),
    ).toEqual(DECISION_COLUMNS.map((c) => c.name));
  });

  it('refuses Parquet without --out, and an unwritable --out, leaving no file behind', async () => {
    const r = await runCliInProcess(['runs', 'export', runId, '--format', 'parquet', '--store', storePath]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('a parquet export is binary: give --out FILE');
    expect(r.stdout).toBe('');
    const plain = join(dir, 'plain-file');
    writeFileSync(plain, 'x');
    const under = join(plain, 'x.parquet');
    const w = await runCliInProcess(['runs', 'export', runId, '--out', under, '--store', storePath]);
    expect(w.code).toBe(2);
    expect(w.stderr).toContain(`--out ${under}: a part of the path is a file, not a folder`);
    expect(w.stderr).not.toContain('internal error');
    expect(readFileSync(plain, 'utf8')).toBe('x');
  });

  it('writes <run>.<format> into a folder given as --out, made when it ends in "/" and does not exist', async () => {
    const folder = join(dir, 'exports folder');
    mkdirSync(folder);
    for (const format of ['csv', 'jsonl', 'parquet'] as const) {
      const r = await runCliInProcess([
        'runs',
        'export',
        runId,
        '--format',
        format,
        '--out',
        folder,
        '--store',
        storePath,
      ]);
      expect(r.stderr).not.toContain('EISDIR');
      expect(r.code).toBe(0);
      const file = join(folder, `${runId}.${format}`);
      expect(r.stderr).toContain(`written to ${file}`);
      expect(statSync(file).size).toBeGreaterThan(0);
    }
    // The same text as the export to standard output.
    for (const format of ['csv', 'jsonl'] as const) {
      const text = await runCliInProcess(['runs', 'export', runId, '--format', format, '--store', storePath]);
      expect(readFileSync(join(folder, `${runId}.${format}`), 'utf8')).toBe(text.stdout);
    }
    expect(readdirSync(folder).sort()).toEqual([`${runId}.csv`, `${runId}.jsonl`, `${runId}.parquet`]);
    const missing = `${join(dir, 'not-made')}/`;
    const m = await runCliInProcess([
      'runs',
      'export',
      runId,
      '--format',
      'csv',
      '--out',
      missing,
      '--store',
      storePath,
    ]);
    expect(m.code, m.stderr).toBe(0);
    expect(readdirSync(join(dir, 'not-made'))).toEqual([`${runId}.csv`]);
  });
});
