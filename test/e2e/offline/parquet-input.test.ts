/**
 * End to end: every offline command gives the same output for the bundled JSONL samples and
 * for the same files converted to Parquet here (with hyparquet-writer): once with the nested
 * and mixed-type columns as Parquet JSON, once with `decision` as a struct and `options` as
 * a list, as pandas or DuckDB would write them. Bad Parquet input gets the JSONL checks'
 * messages, naming rows.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parquetMetadata, type SchemaElement } from 'hyparquet';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MODERATION = join(ROOT, 'data', 'moderation');
const INBOX = join(ROOT, 'data', 'inbox');
const tmp = tempFolderRemovedAfterAll('decidekit-offline-parquet-');

function cli(...args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { cwd: ROOT });
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function readJsonl(path: string): Record<string, Json>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, Json>);
}

/** A Parquet schema element (with children) for the values of a column, or null when they do not share one. */
function schemaOf(name: string, values: readonly Json[], repetition: 'OPTIONAL' | 'REQUIRED'): SchemaElement[] | null {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return null;
  if (present.every((v) => typeof v === 'string'))
    return [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: repetition }];
  if (present.every((v) => typeof v === 'number')) return [{ name, type: 'DOUBLE', repetition_type: repetition }];
  if (present.every((v) => typeof v === 'boolean')) return [{ name, type: 'BOOLEAN', repetition_type: repetition }];
  if (present.every((v) => Array.isArray(v))) {
    const element = schemaOf('element', (present as Json[][]).flat(), 'OPTIONAL');
    if (element === null || element.length !== 1) return null;
    return [
      { name, repetition_type: repetition, converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      ...element,
    ];
  }
  if (present.every((v) => typeof v === 'object' && !Array.isArray(v))) {
    const objects = present as Record<string, Json>[];
    const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))];
    const children: SchemaElement[] = [];
    for (const key of keys) {
      const child = schemaOf(
        key,
        objects.map((o) => o[key] ?? null),
        'OPTIONAL',
      );
      if (child === null) return null;
      children.push(...child);
    }
    return [{ name, repetition_type: repetition, num_children: keys.length }, ...children];
  }
  return null;
}

/** How nested values are stored: Parquet JSON, structs and lists, or JSON text in a string column. */
type Mode = 'json' | 'struct' | 'text';
const MODES: readonly Mode[] = ['json', 'struct', 'text'];

/**
 * The JSONL file as Parquet, one column per key. Scalar columns get their type; `json`
 * mode stores every other column as Parquet JSON; `struct` mode stores objects as structs
 * and lists as lists where the values share a shape, and the rest as JSON; `text` mode
 * stores `decision` and `options` as JSON text in string columns (as Typed Decisions does).
 */
function toParquet(jsonlPath: string, mode: Mode, dir: string): string {
  const rows = readJsonl(jsonlPath);
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const schema: SchemaElement[] = [{ name: 'root', num_children: names.length }];
  const columnData = names.map((name) => {
    const data = rows.map((r) => (r[name] === undefined ? null : r[name]!));
    if (mode === 'text' && (name === 'decision' || name === 'options')) {
      schema.push({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });
      return { name, data: data.map((v) => (v === null ? null : JSON.stringify(v))) };
    }
    const scalar = schemaOf(name, data, 'OPTIONAL');
    const nested = scalar !== null && scalar.length > 1;
    if (scalar !== null && (!nested || mode === 'struct')) {
      schema.push(...scalar);
      return { name, data };
    }
    schema.push({ name, type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: 'OPTIONAL' });
    return { name, data };
  });
  const out = join(dir, basename(jsonlPath).replace(/\.jsonl$/, '.parquet'));
  writeFileSync(out, new Uint8Array(parquetWriteBuffer({ columnData, schema, rowGroupSize: 10 })));
  return out;
}

const FILES = {
  moderation: ['dataset', 'results-budget-1', 'results-careful-1', 'results-loud-1'],
  inbox: ['dataset', 'results-actionwise-1', 'results-fieldsharp-1'],
} as const;

type Paths = Record<'moderation' | 'inbox', Record<string, string>>;
const jsonlPaths: Paths = { moderation: {}, inbox: {} };
const parquetPaths: Record<Mode, Paths> = {
  json: { moderation: {}, inbox: {} },
  struct: { moderation: {}, inbox: {} },
  text: { moderation: {}, inbox: {} },
};

beforeAll(() => {
  for (const mode of MODES) {
    for (const sample of ['moderation', 'inbox'] as const) {
      const dir = mkdtempSync(join(tmp, `${mode}-${sample}-`));
      for (const name of FILES[sample]) {
        const jsonl = join(sample === 'moderation' ? MODERATION : INBOX, `${name}.jsonl`);
        jsonlPaths[sample][name] = jsonl;
        parquetPaths[mode][sample][name] = toParquet(jsonl, mode, dir);
      }
    }
  }
});

/** Each offline command, given the paths of one sample set. */
const COMMANDS: Record<string, (p: Paths) => string[]> = {
  score: (p) => ['score', '--dataset', p.moderation['dataset']!, '--results', p.moderation['results-careful-1']!],
  'score --json': (p) => [
    'score',
    '--dataset',
    p.moderation['dataset']!,
    '--results',
    p.moderation['results-loud-1']!,
    '--json',
  ],
  compare: (p) => [
    'compare',
    '--dataset',
    p.moderation['dataset']!,
    '--results',
    p.moderation['results-budget-1']!,
    p.moderation['results-careful-1']!,
    p.moderation['results-loud-1']!,
  ],
  'compare --json': (p) => [
    'compare',
    '--dataset',
    p.moderation['dataset']!,
    '--results',
    p.moderation['results-budget-1']!,
    p.moderation['results-careful-1']!,
    '--json',
  ],
  validate: (p) => [
    'validate',
    '--dataset',
    p.moderation['dataset']!,
    '--results',
    p.moderation['results-budget-1']!,
    p.moderation['results-loud-1']!,
  ],
  'validate --json': (p) => [
    'validate',
    '--dataset',
    p.inbox['dataset']!,
    '--results',
    p.inbox['results-actionwise-1']!,
    '--json',
  ],
  tune: (p) => ['tune', '--dataset', p.moderation['dataset']!, '--results', p.moderation['results-budget-1']!],
  'tune --json': (p) => [
    'tune',
    '--dataset',
    p.moderation['dataset']!,
    '--results',
    p.moderation['results-careful-1']!,
    '--json',
  ],
  actions: (p) => [
    'actions',
    '--dataset',
    p.inbox['dataset']!,
    '--spec',
    join(INBOX, 'spec.json'),
    '--results',
    p.inbox['results-fieldsharp-1']!,
    p.inbox['results-actionwise-1']!,
  ],
  'actions --json': (p) => [
    'actions',
    '--dataset',
    p.inbox['dataset']!,
    '--spec',
    join(INBOX, 'spec.json'),
    '--results',
    p.inbox['results-fieldsharp-1']!,
    p.inbox['results-actionwise-1']!,
    '--json',
  ],
};

/** Output with the Parquet paths named as their JSONL originals, so the two can be compared. */
function asJsonlPaths(text: string, mode: Mode): string {
  let out = text;
  for (const sample of ['moderation', 'inbox'] as const)
    for (const [name, path] of Object.entries(parquetPaths[mode][sample]))
      out = out.replaceAll(path, jsonlPaths[sample][name]!);
  return out;
}

describe('offline commands read Parquet as they read JSONL', () => {
  for (const mode of MODES) {
    for (const [name, argsOf] of Object.entries(COMMANDS)) {
      it(`${name}: the same output from Parquet (${mode} columns) as from JSONL`, async () => {
        const fromJsonl = await cli(...argsOf(jsonlPaths));
        expect(fromJsonl.code, fromJsonl.stderr).toBe(0);
        const fromParquet = await cli(...argsOf(parquetPaths[mode]));
        expect(fromParquet.code, fromParquet.stderr).toBe(0);
        expect(asJsonlPaths(fromParquet.stdout, mode)).toBe(fromJsonl.stdout);
        expect(asJsonlPaths(fromParquet.stderr, mode)).toBe(fromJsonl.stderr);
      });
    }
  }

  it('converts with structs and lists where the values share a shape (so both readings are exercised)', () => {
    const groupsOf = (path: string) => {
      const bytes = readFileSync(path);
      const schema = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)).schema;
      return schema.filter((e) => (e.num_children ?? 0) > 0 && e.name !== 'root').map((e) => e.name);
    };
    expect(groupsOf(parquetPaths.struct.inbox['results-actionwise-1']!)).toContain('decision');
    // Mixed kinds in one struct: a yes/no row has null probabilities and value, read as absent.
    expect(groupsOf(parquetPaths.struct.moderation['results-careful-1']!)).toEqual(['decision', 'probabilities']);
    expect(groupsOf(parquetPaths.struct.moderation['results-budget-1']!)).toEqual([
      'decision',
      'probabilities',
      'list',
    ]);
    expect(groupsOf(parquetPaths.struct.moderation['dataset']!)).toContain('options');
    expect(groupsOf(parquetPaths.json.moderation['results-careful-1']!)).toEqual([]);
  });

  it('mixes a JSONL dataset with Parquet results', async () => {
    const mixed = await cli(
      'score',
      '--dataset',
      jsonlPaths.moderation['dataset']!,
      '--results',
      parquetPaths.struct.moderation['results-careful-1']!,
      '--json',
    );
    const plain = await cli(...COMMANDS['score']!(jsonlPaths), '--json');
    expect(asJsonlPaths(mixed.stdout, 'struct')).toBe(plain.stdout);
  });

  it('recognises Parquet by its magic bytes under any name', async () => {
    const renamed = join(tmp, 'careful-results.data');
    writeFileSync(renamed, readFileSync(parquetPaths.json.moderation['results-careful-1']!));
    const r = await cli('score', '--dataset', jsonlPaths.moderation['dataset']!, '--results', renamed, '--json');
    expect(r.code, r.stderr).toBe(0);
    const plain = await cli(...COMMANDS['score']!(jsonlPaths), '--json');
    expect(r.stdout.replaceAll(renamed, jsonlPaths.moderation['results-careful-1']!)).toBe(plain.stdout);
  });
});

describe('bad Parquet input', () => {
  function writeRows(
    name: string,
    columnData: { name: string; data: unknown[]; type?: 'STRING' | 'JSON' | 'DOUBLE' }[],
  ) {
    const path = join(tmp, name);
    writeFileSync(path, new Uint8Array(parquetWriteBuffer({ columnData: columnData as never })));
    return path;
  }

  it('names the row, case and field of each problem, as the JSONL checks do', async () => {
    const results = writeRows('bad-results.parquet', [
      { name: 'case_id', data: ['yn-1', 'yn-2', 'ch-1', 'yn-1'], type: 'STRING' },
      { name: 'model', data: ['m', 'm', 'm', 'm'], type: 'STRING' },
      {
        name: 'decision',
        data: [
          { probability: 0.9 },
          { probability: 1.5 },
          { probabilities: { allow: 0.5, flag: 0.5, remove: 0.3 } },
          { probability: 0.2 },
        ],
        type: 'JSON',
      },
    ]);
    const r = await cli('validate', '--dataset', jsonlPaths.moderation['dataset']!, '--results', results, '--json');
    expect(r.code).toBe(1);
    const problems = JSON.parse(r.stdout).files[1].problems;
    expect(problems).toEqual([
      {
        file: results,
        row: 2,
        case_id: 'yn-2',
        field: 'probability',
        message: 'probability must be a number in [0, 1], got 1.5',
      },
      {
        file: results,
        row: 3,
        case_id: 'ch-1',
        field: 'probabilities',
        message: 'probabilities sum to 1.30, expected 1',
      },
      {
        file: results,
        row: 4,
        case_id: 'yn-1',
        field: 'case_id',
        message: 'duplicate result for this case (first on row 1)',
      },
    ]);
    const text = await cli('score', '--dataset', jsonlPaths.moderation['dataset']!, '--results', results);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(`${results} row 2 case yn-2: probability must be a number in [0, 1], got 1.5`);
    expect(text.stderr).not.toMatch(/internal error|^\s+at /m);
  });

  it('reports a missing column once, naming the columns there are', async () => {
    const results = writeRows('no-decision.parquet', [
      { name: 'case_id', data: ['yn-1', 'yn-2'], type: 'STRING' },
      { name: 'model', data: ['m', 'm'], type: 'STRING' },
    ]);
    const r = await cli('score', '--dataset', jsonlPaths.moderation['dataset']!, '--results', results);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${results}: missing column decision (columns: case_id, model)`);
    expect(r.stderr).toContain('invalid input (1 problem)');
  });

  it('checks JSON columns strictly, naming row and column', async () => {
    const dataset = writeRows('dup-key.parquet', [
      { name: 'id', data: ['a', 'b'], type: 'STRING' },
      { name: 'kind', data: ['yes_no', 'yes_no'], type: 'STRING' },
      { name: 'correct', data: ['true', 'false'], type: 'STRING' },
    ]);
    // Written as text, the column is text: `correct` must then be a boolean.
    const asText = await cli('validate', '--dataset', dataset);
    expect(asText.code).toBe(1);
    expect(asText.stdout).toContain(`${dataset} row 1 case a: correct must be true or false, got "true"`);

    // In a Parquet JSON column the same strict parse applies: nesting deeper than 512 is a problem of its row.
    let deep: Json = 1;
    for (let i = 0; i < 600; i++) deep = { a: deep };
    const path = writeRows('deep-json.parquet', [
      { name: 'id', data: ['a', 'b'], type: 'STRING' },
      { name: 'kind', data: ['yes_no', 'yes_no'], type: 'STRING' },
      { name: 'correct', data: [true, deep], type: 'JSON' },
    ]);
    const r = await cli('validate', '--dataset', path);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`${path} row 2: column correct: .*deep`));
    expect(r.stdout).toContain('1 problem');
  });

  it('parses a decision stored as text strictly, naming the row and column of bad JSON', async () => {
    const results = writeRows('text-decision.parquet', [
      { name: 'case_id', data: ['yn-1', 'yn-2', 'yn-3'], type: 'STRING' },
      { name: 'model', data: ['m', 'm', 'm'], type: 'STRING' },
      {
        name: 'decision',
        data: ['{"probability": 0.9}', '{"probability": 0.2, "probability": 0.8}', 'not json'],
        type: 'STRING',
      },
    ]);
    const r = await cli('validate', '--dataset', jsonlPaths.moderation['dataset']!, '--results', results, '--json');
    expect(r.code).toBe(1);
    const problems = JSON.parse(r.stdout).files[1].problems as { row: number; field: string; message: string }[];
    expect(problems.map((p) => [p.row, p.field])).toEqual([
      [2, 'decision'],
      [3, 'decision'],
    ]);
    expect(problems[0]!.message).toMatch(/^column decision: .*"probability"/);
  });

  it('refuses Parquet results given as the dataset, as it refuses JSONL ones', async () => {
    const results = parquetPaths.json.moderation['results-loud-1']!;
    const r = await cli('score', '--dataset', results, '--results', results);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${results} (given as --dataset) is a results file`);
    expect(r.stderr).toContain('give it as --results');
  });

  it('says a file named .parquet that is not Parquet cannot be read', async () => {
    const path = join(tmp, 'not-really.parquet');
    writeFileSync(path, '{"id": "a"}\n');
    const r = await cli('validate', '--dataset', path);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`cannot read file: ${path} (not a readable parquet file`);
    expect(r.stdout + r.stderr).not.toMatch(/internal error/);
  });
});
