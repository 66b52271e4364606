/** Builds parquet files in Typed Decisions' real column layout, for tests. */
import { given } from '../../../core/given.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { sampleDir } from '../load-bench-dataset.js';

export type RawRow = {
  id: string;
  workflow: string;
  state: unknown;
  questions: Record<string, unknown>;
  gold: Record<string, unknown>;
};

/** A JSON column value written as this exact text (e.g. invalid JSON). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Decoded rows of the bundled sample's split. */
export function sampleRows(split: 'test' | 'train' = 'test'): RawRow[] {
  return readFileSync(join(sampleDir(), `${split}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as RawRow);
}

/** The sample's test rows repeated `copies` times with new ids (`…~r0`, `…~r1`): ~2.6 KB a row. */
export function repeatedSampleRows(copies: number): RawRow[] {
  const rows = sampleRows();
  return Array.from({ length: copies }, (_, k) => rows.map((r) => ({ ...r, id: `${r.id}~r${k}` }))).flat();
}

/**
 * A parquet file with columns id, split, workflow, state, questions, gold, factors,
 * label_agreement, n_questions; the JSON columns are JSON strings, as in the real file.
 */
export function typedDecisionsParquet(
  rows: readonly ((RawRow | (Omit<RawRow, 'gold'> & { gold: RawJson })) & { split: string })[],
  rowGroupSize?: number,
): Uint8Array {
  const json = (v: unknown) => (v instanceof RawJson ? v.text : JSON.stringify(v));
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'id', data: rows.map((r) => r.id), type: 'STRING' },
      { name: 'split', data: rows.map((r) => r.split), type: 'STRING' },
      { name: 'workflow', data: rows.map((r) => r.workflow), type: 'STRING' },
      { name: 'state', data: rows.map((r) => json(r.state)), type: 'STRING' },
      { name: 'questions', data: rows.map((r) => json(r.questions)), type: 'STRING' },
      { name: 'gold', data: rows.map((r) => json(r.gold)), type: 'STRING' },
      { name: 'factors', data: rows.map((r) => json({ secret_factor: `hidden-${r.id}` })), type: 'STRING' },
      { name: 'label_agreement', data: rows.map(() => json({ agreement: 0.67 })), type: 'STRING' },
      { name: 'n_questions', data: rows.map((r) => Object.keys(r.questions).length), type: 'INT32' },
    ],
    ...given({ rowGroupSize }),
  });
  return new Uint8Array(buffer);
}
