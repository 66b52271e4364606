/**
 * `dataset info` / `dataset verify` given files that are not a Typed Decisions dataset: a
 * plain file named .gz is "not valid gzip" (exit 1, as `score` says), and every command a
 * hint prints works when pasted.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import {
  CAREFUL_RESULTS as RESULTS,
  DATA,
  MODERATION_DATASET as DATASET,
  tempFolder,
} from '../../support/offline-samples.js';

const { dir: tmp, place } = tempFolder('dataset-info-bad');

/** The command inside the hint's backticks, as words (the hints quote nothing in these paths). */
function hintedCommand(stderr: string): string[] {
  const m = /`decidekit ([^`]+)`/.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return m![1]!.split(' ').map((w) => (w === 'DATASET' ? DATASET : w));
}

describe('dataset info and verify on files that are not a dataset', () => {
  for (const sub of ['info', 'verify']) {
    it(`${sub}: says a plain file named .gz is not valid gzip and exits 1, offering no command`, async () => {
      const fake = join(tmp, `fake-${sub}.jsonl.gz`);
      copyFileSync(RESULTS, fake);
      const r = await runCliInProcess(['dataset', sub, fake], { cwd: tmp });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain(`${fake} (not valid gzip`);
      expect(r.stderr).not.toContain('`decidekit');
      // score says the same of it.
      const score = await runCliInProcess(['score', '--dataset', DATASET, '--results', fake], { cwd: tmp });
      expect(score.code).toBe(1);
      expect(score.stderr).toContain('not valid gzip');
    });

    it(`${sub}: says a text file named .parquet is not readable Parquet, offering no command`, async () => {
      const fake = join(tmp, `fake-${sub}.parquet`);
      copyFileSync(RESULTS, fake);
      const r = await runCliInProcess(['dataset', sub, fake], { cwd: tmp });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain('not a readable parquet file');
      expect(r.stderr).not.toContain('`decidekit');
    });

    it(`${sub}: sends gzipped results to score with a command that works when pasted`, async () => {
      for (const name of [`results-${sub}.jsonl.gz`, `results-${sub}.gz`]) {
        const gz = place(name, gzipSync(readFileSync(RESULTS)));
        const r = await runCliInProcess(['dataset', sub, gz], { cwd: tmp });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('is a results file');
        const pasted = await runCliInProcess(hintedCommand(r.stderr), { cwd: tmp });
        expect(pasted.stderr).toBe('');
        expect(pasted.code).toBe(0);
        expect(pasted.stdout).toContain('careful-1');
      }
    });

    it(`${sub}: refuses an empty file`, async () => {
      const empty = place(`empty-${sub}.jsonl`, '\n\n');
      const r = await runCliInProcess(['dataset', sub, empty], { cwd: tmp });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toMatch(/no cases/);
    });
  }

  it('still names a gzip file without its .gz name', async () => {
    const gz = place('results-no-suffix.jsonl', gzipSync(readFileSync(RESULTS)));
    const r = await runCliInProcess(['dataset', 'info', gz], { cwd: tmp });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is gzip-compressed but its name does not end in .gz: rename it to');
  });

  it('still reads the gzipped dataset it is given', async () => {
    const sample = readFileSync(join(DATA, 'typed-decisions-sample', 'test.jsonl'));
    const gz = place('sample.jsonl.gz', gzipSync(sample));
    const r = await runCliInProcess(['dataset', 'verify', gz], { cwd: tmp });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ok');
  });
});
