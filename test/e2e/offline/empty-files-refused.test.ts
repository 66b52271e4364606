/**
 * An empty results file (no bytes, blank lines only, a Parquet file of no rows) is refused
 * by every offline command, "RESULTS: no results in the file" and exit 1, not scored as a
 * report of nothing but missing cases; an empty dataset likewise.
 */
import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import {
  CAREFUL_RESULTS as CAREFUL,
  MODERATION_DATASET as DATASET,
  inboxActionsArgv,
  tempFolder,
} from '../../support/offline-samples.js';

const { place } = tempFolder('empty-results');

const EMPTY: Record<string, string> = {
  'no bytes': place('empty.jsonl', ''),
  'blank lines only': place('blank.jsonl', '\n  \n\t\n'),
  'gzipped, no lines': place('empty.jsonl.gz', gzipSync('')),
  'Parquet, no rows': place(
    'empty.parquet',
    new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'case_id', data: [], type: 'STRING' },
          { name: 'model', data: [], type: 'STRING' },
          { name: 'decision', data: [], type: 'STRING' },
        ],
      }),
    ),
  ),
};

function expectRefused(r: { code: number; stdout: string; stderr: string }, file: string): void {
  expect(r.code).toBe(1);
  expect(r.stdout + r.stderr).toContain(`${file}: no results in the file`);
  expect(r.stdout).not.toContain('(no results)');
}

describe('an empty results file', () => {
  for (const [what, file] of Object.entries(EMPTY)) {
    it(`score refuses one with ${what}`, async () => {
      expectRefused(await runCliInProcess(['score', '--dataset', DATASET, '--results', file]), file);
    });
  }

  it('score --engine duckdb refuses one too', async () => {
    for (const file of [EMPTY['no bytes']!, EMPTY['blank lines only']!])
      expectRefused(
        await runCliInProcess(['score', '--engine', 'duckdb', '--dataset', DATASET, '--results', file]),
        file,
      );
  });

  it('compare, validate and tune refuse one', async () => {
    const file = EMPTY['no bytes']!;
    expectRefused(await runCliInProcess(['compare', '--dataset', DATASET, '--results', CAREFUL, file]), file);
    expectRefused(await runCliInProcess(['validate', '--dataset', DATASET, '--results', file]), file);
    expectRefused(await runCliInProcess(['tune', '--dataset', DATASET, '--results', file]), file);
  });

  it('actions refuses one', async () => {
    const file = EMPTY['blank lines only']!;
    const r = await runCliInProcess(inboxActionsArgv(file));
    expectRefused(r, file);
  });

  it('a results file of one line is still scored', async () => {
    const one = place('one.jsonl', '\n{"case_id":"yn-1","model":"m","decision":{"probability":0.9}}\n\n');
    const r = await runCliInProcess(['score', '--dataset', DATASET, '--results', one]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('35 missing');
  });
});

describe('an empty dataset', () => {
  for (const engine of ['node', 'duckdb'])
    it(`score --engine ${engine} refuses it`, async () => {
      const empty = place(`empty-dataset-${engine}.jsonl`, '\n\n');
      const r = await runCliInProcess(['score', '--engine', engine, '--dataset', empty, '--results', CAREFUL]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${empty}: no cases (the dataset is empty)`);
    });
});
