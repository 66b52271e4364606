import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';
import { InvalidInputError } from '../../core/errors.js';
import type { CaseReader } from './case-reader.js';
import { JsonText } from '../../core/json-text.js';
import { loadBenchDataset, scanBenchDataset, type DatasetSource } from './load-bench-dataset.js';
import {
  repeatedSampleRows,
  sampleRows,
  typedDecisionsParquet,
  type RawRow,
} from './test-support/typed-decisions-parquet.js';
import { tempFoldersRemovedAfterEach } from '../test-support/temp-folders.js';

const tempDir = tempFoldersRemovedAfterEach('decidekit-scan-');

const repeatedRows = repeatedSampleRows;

function jsonl(rows: readonly object[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

async function takeAll(reader: CaseReader): Promise<TypedDecisionsCase[]> {
  const out: TypedDecisionsCase[] = [];
  for (let c = await reader.take(); c !== undefined; c = await reader.take()) out.push(c);
  return out;
}

async function failureOf(p: Promise<unknown>): Promise<InvalidInputError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidInputError);
  return err as InvalidInputError;
}

/** Pass 1 and 2 against the loader: the same description, ids, workflows and cases. */
async function expectScanEqualsLoad(source: DatasetSource): Promise<void> {
  const loaded = await loadBenchDataset(source);
  const scanned = await scanBenchDataset(source);
  expect(scanned.info).toEqual(loaded.info);
  expect(scanned.questionSet).toEqual(loaded.questionSet);
  expect(scanned.location).toBe(loaded.location);
  expect(scanned.entries.map((e) => [e.id, e.workflow, e.questions])).toEqual(
    loaded.cases.map((c) => [c.id, c.workflow, c.questions.length]),
  );
  expect(await takeAll(scanned.readCases(scanned.entries, { bufferCases: 16 }))).toEqual(loaded.cases);
  // Every third case: the others are skipped, the order is the file's.
  const some = scanned.entries.filter((_, i) => i % 3 === 1);
  expect(await takeAll(scanned.readCases(some, { bufferCases: 4 }))).toEqual(
    loaded.cases.filter((_, i) => i % 3 === 1),
  );
}

describe('scanBenchDataset: pass 1 keeps no case, pass 2 reads the chosen ones again', () => {
  it('equals loadBenchDataset on the bundled sample (JSONL under a manifest)', async () => {
    await expectScanEqualsLoad({ kind: 'sample' });
  });

  it('equals loadBenchDataset on a JSONL file read in several pieces', async () => {
    const path = join(tempDir(), 'big.jsonl');
    writeFileSync(path, jsonl(repeatedRows(10)));
    await expectScanEqualsLoad({ kind: 'path', path });
  });

  it('equals loadBenchDataset on JSONL.gz and on parquet', async () => {
    const dir = tempDir();
    const gz = join(dir, 'big.jsonl.gz');
    writeFileSync(gz, gzipSync(jsonl(repeatedRows(6))));
    await expectScanEqualsLoad({ kind: 'path', path: gz });
    const parquet = join(dir, 'cases.parquet');
    writeFileSync(parquet, typedDecisionsParquet(sampleRows().map((r) => ({ ...r, split: 'test' }))));
    await expectScanEqualsLoad({ kind: 'path', path: parquet });
  });

  it('reports bad lines deep in the file with the same located problems as the loader', async () => {
    const rows: object[] = repeatedRows(10);
    const path = join(tempDir(), 'bad.jsonl');
    const lines = jsonl(rows).split('\n');
    lines[899] = '{"id": "broken", ';
    const deep = rows[949] as RawRow;
    lines[949] = JSON.stringify({ ...deep, workflow: 7 });
    writeFileSync(path, lines.join('\n'));
    const fromScan = await failureOf(scanBenchDataset({ kind: 'path', path }));
    const fromLoad = await failureOf(loadBenchDataset({ kind: 'path', path }));
    expect(fromScan.problems).toEqual(fromLoad.problems);
    expect(fromScan.problems.map((p) => [p.file, p.line, p.field ?? null])).toEqual([
      [path, 900, null],
      [path, 950, 'workflow'],
    ]);
  });

  it('holds at most the buffer and one read of cases while nobody takes them', async () => {
    const path = join(tempDir(), 'big.jsonl');
    writeFileSync(path, jsonl(repeatedRows(20)));
    const scanned = await scanBenchDataset({ kind: 'path', path });
    const reader = scanned.readCases(scanned.entries, { bufferCases: 8 });
    const first = await reader.take();
    // Whatever the producer managed meanwhile, it stopped at the buffer plus one read (~400 cases of the 2,000).
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    const buffered = (reader as { readonly buffered?: number }).buffered!;
    expect(buffered).toBeGreaterThan(0);
    expect(buffered).toBeLessThan(1000);
    expect(first?.id).toBe(scanned.entries[0]!.id);
    const rest = await takeAll(reader);
    expect(rest.map((c) => c.id)).toEqual(scanned.entries.slice(1).map((e) => e.id));
  });

  it('stops reading when closed: later takes give nothing', async () => {
    const path = join(tempDir(), 'big.jsonl');
    writeFileSync(path, jsonl(repeatedRows(10)));
    const scanned = await scanBenchDataset({ kind: 'path', path });
    const reader = scanned.readCases(scanned.entries, { bufferCases: 4 });
    expect((await reader.take())?.id).toBe(scanned.entries[0]!.id);
    reader.close();
    expect(await reader.take()).toBeUndefined();
  });

  it('fails the take when a line was edited in place after it was checked (same length, gold changed)', async () => {
    const rows = repeatedRows(3);
    const path = join(tempDir(), 'cases.jsonl');
    writeFileSync(path, jsonl(rows));
    const scanned = await scanBenchDataset({ kind: 'path', path });
    const before = JSON.stringify(rows[150]);
    type Gold = { label: string; probabilities: Record<string, number> };
    const edited = structuredClone(rows[150]!) as unknown as { gold: Record<string, Gold> };
    // The gold reversed: another option of the same spelled length becomes the label, the
    // two probabilities swapped, so the row is still valid and the line as long.
    const sameLength = (g: Gold, k: string): boolean =>
      k !== g.label &&
      k.length === g.label.length &&
      String(g.probabilities[k]).length === String(g.probabilities[g.label]).length;
    const [name, gold] = Object.entries(edited.gold).find(([, g]) =>
      Object.keys(g.probabilities).some((k) => sameLength(g, k)),
    )!;
    const other = Object.keys(gold.probabilities).find((k) => sameLength(gold, k))!;
    [gold.probabilities[gold.label], gold.probabilities[other]] = [
      gold.probabilities[other]!,
      gold.probabilities[gold.label]!,
    ];
    gold.label = other;
    rows[150] = edited as unknown as RawRow;
    expect(JSON.stringify(rows[150]).length).toBe(before.length);
    writeFileSync(path, jsonl(rows));
    const err = await failureOf(takeAll(scanned.readCases(scanned.entries, { bufferCases: 8 })));
    expect(name).toBeTruthy();
    expect(err.problems).toEqual([
      {
        file: path,
        line: 151,
        message: `case ${scanned.entries[150]!.id} was edited on this line: the file changed after it was checked (run the command again)`,
      },
    ]);
  });

  it('fails the take with a located message when the file changed after it was checked', async () => {
    const rows = repeatedRows(3);
    const path = join(tempDir(), 'cases.jsonl');
    writeFileSync(path, jsonl(rows));
    const scanned = await scanBenchDataset({ kind: 'path', path });
    // Two rows swapped: each line still holds a valid case, but not the one checked there.
    [rows[150], rows[151]] = [rows[151]!, rows[150]!];
    writeFileSync(path, jsonl(rows));
    const err = await failureOf(takeAll(scanned.readCases(scanned.entries, { bufferCases: 8 })));
    expect(err.problems).toEqual([
      {
        file: path,
        line: 151,
        message: `case ${scanned.entries[150]!.id} is no longer on this line: the file changed after it was checked (run the command again)`,
      },
    ]);
  });
});

describe('the second read of a case only sent on', () => {
  it('keeps a state written as JSON.stringify writes it as that text, and parses any other', async () => {
    const rows = sampleRows().slice(0, 3);
    const lines = rows.map((r) => JSON.stringify(r));
    // The second row's state with a space after its first colon: not what JSON.stringify writes.
    lines[1] = lines[1]!.replace(/("state":\{"[^"]*":)/, '$1 ');
    const path = join(tempDir(), 'cases.jsonl');
    writeFileSync(path, lines.join('\n') + '\n');
    const scanned = await scanBenchDataset({ kind: 'path', path });
    const parsed = await takeAll(scanned.readCases(scanned.entries, { bufferCases: 8 }));
    const asText = await takeAll(scanned.readCases(scanned.entries, { bufferCases: 8, stateAsText: true }));
    expect(asText.map((c) => c.state instanceof JsonText)).toEqual([true, false, true]);
    asText.forEach((c, i) => {
      const state = c.state instanceof JsonText ? (JSON.parse(c.state.text) as unknown) : c.state;
      expect(state).toEqual(parsed[i]!.state);
      if (c.state instanceof JsonText) expect(c.state.text).toBe(JSON.stringify(parsed[i]!.state));
      expect({ ...c, state: null }).toEqual({ ...parsed[i]!, state: null });
    });
  });
});
