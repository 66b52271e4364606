/**
 * The decision table made by DuckDB from the store's text of a run, on stores read through a
 * temp copy (the worker writing the text reads the copy the store reads, not the file again),
 * and with a compiled worker older than the sources (it writes nothing; the text goes into files).
 */
import { closeSync, mkdtempSync, openSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parquetReadObjects } from 'hyparquet';
import * as duckdb from '@duckdb/node-api';
import { decisionRowContextOf } from '../../core/export/decision-row.js';
import { answeredCase, createRunConfig, failedCase, rightAnswers } from '../../core/bench/test-support/run-fixtures.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/store.js';
import { writeStoreAtVersion } from '../../store/test-support/store-at-version.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';
import { parquetMetadataOf } from './decision-parquet-rules.js';
import { writeStoredDecisionParquetFromCsv, type FromCsvOptions } from './decision-parquet-csv.js';
import { pipeDecisionText } from './decision-text-pipes.js';
import { decisionTextFormat } from './decision-text-format.js';

const dir = tempFolderRemovedAfterAll('decidekit-parquet-csv-');

/** The run's table written from its text into `file` (through pipes or not); the decisions written, or null. */
async function writeFromText(
  store: Store,
  runId: string,
  file: string,
  options: FromCsvOptions,
): Promise<number | null> {
  const context = decisionRowContextOf(store.runs.info(runId)!);
  const fd = openSync(file, 'w');
  try {
    return await writeStoredDecisionParquetFromCsv(duckdb, fd, store, context, parquetMetadataOf(runId), options);
  } finally {
    closeSync(fd);
  }
}

async function rowsOf(file: string): Promise<Record<string, unknown>[]> {
  const bytes = readFileSync(file);
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
}

describe('a run written from its text', () => {
  it("hands the worker the upgraded copy an older store is read through, not the store's file again", async () => {
    const path = join(dir, 'v10.sqlite');
    const ids = Array.from({ length: 40 }, (_, i) => `c${i}`);
    const cases = ids.map((id, i) => (i % 5 === 4 ? failedCase(id, 3) : answeredCase(id, rightAnswers(i % 3), 10 + i)));
    const runId = writeStoreAtVersion(path, 10, ids, cases);
    const store = openStore(path, { mustExist: true, readOnly: true });
    try {
      // The store reads its upgraded copy: with the file gone, only a worker reading that copy has a run to read.
      renameSync(path, join(dir, 'v10-moved.sqlite'));
      const piped = join(dir, 'piped.parquet');
      expect(await writeFromText(store, runId, piped, {})).toBe(cases.length * 3);
      const fromFiles = join(dir, 'from-files.parquet');
      expect(await writeFromText(store, runId, fromFiles, { pipes: false })).toBe(cases.length * 3);
      expect(await rowsOf(piped)).toEqual(await rowsOf(fromFiles));
    } finally {
      store.close();
    }
  });
});

describe('a compiled worker making another text than the sources read', () => {
  const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
  const cases = ids.map((id, i) => (i % 4 === 3 ? failedCase(id, 3) : answeredCase(id, rightAnswers(i % 3), 10 + i)));

  /** A store at the current version holding the run; its path and the run's id. */
  function currentStore(name: string): { path: string; runId: string } {
    const path = join(dir, name);
    const store = openStore(path);
    try {
      const { id } = store.runs.create({
        config: createRunConfig({ caseIds: ids }),
        label: null,
        createdAt: '2026-11-30T04:15:12Z',
      });
      store.cases.save(id, cases);
      return { path, runId: id };
    } finally {
      store.close();
    }
  }

  it('writes none of it and says it is stale', async () => {
    const { path, runId } = currentStore('stale-worker.sqlite');
    const folder = mkdtempSync(join(dir, 'pipes-'));
    const piped = pipeDecisionText(folder, 2, {
      storePath: path,
      runId,
      pipeBytes: 1 << 20,
      caseDecisions: false,
      format: `${decisionTextFormat()}-other`,
    });
    expect(piped).not.toBeNull();
    // Nothing reads the pipes: a worker that wrote would wait for a reader until let go.
    expect(await piped!.finish(Promise.resolve())).toBe('stale');
  });

  it('leaves the export to write the text into files first', async () => {
    const { path, runId } = currentStore('stale-export.sqlite');
    const store = openStore(path, { mustExist: true, readOnly: true });
    try {
      const stale = join(dir, 'stale.parquet');
      expect(await writeFromText(store, runId, stale, { textFormat: `${decisionTextFormat()}-other` })).toBe(
        cases.length * 3,
      );
      const fromFiles = join(dir, 'files.parquet');
      expect(await writeFromText(store, runId, fromFiles, { pipes: false })).toBe(cases.length * 3);
      expect(await rowsOf(stale)).toEqual(await rowsOf(fromFiles));
    } finally {
      store.close();
    }
  });
});
