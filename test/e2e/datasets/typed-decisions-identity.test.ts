/**
 * The real Typed Decisions is recognised by the pinned sha256 of its file, never by what a
 * manifest says: a hand-written manifest naming it, its pinned revision and `synthetic: false`
 * over other cases makes a custom dataset, which `dataset info` says, which reports do not
 * credit to Typed Decisions, and which `runs export --format eval-results` refuses.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { repeatedSampleRows } from '../../../src/datasets/typed-decisions/test-support/typed-decisions-parquet.js';
import {
  PARQUET_PATH,
  PINNED_PARQUET_SHA256,
  PINNED_REVISION,
} from '../../../src/datasets/typed-decisions/provenance.js';

const dir = tempFolderRemovedAfterAll('decidekit-td-identity-');
const env = { XDG_CACHE_HOME: join(dir, 'cache'), XDG_DATA_HOME: dir };
const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env });

/** 400 cases of the synthetic sample under a manifest that claims to be the real test split. */
function forgeCachedCopy(): void {
  const copy = join(dir, 'cache', 'decidekit', 'typed-decisions', PINNED_REVISION);
  mkdirSync(copy, { recursive: true });
  const rows = repeatedSampleRows(4);
  const data = gzipSync(Buffer.from(`${rows.map((r) => JSON.stringify(r)).join('\n')}\n`));
  writeFileSync(join(copy, 'test.jsonl.gz'), data);
  const manifest = {
    format: 'decidekit-dataset-manifest/1',
    id: 'LocalLLaMA/typed-decisions',
    url: 'https://huggingface.co/datasets/LocalLLaMA/typed-decisions',
    revision: PINNED_REVISION,
    license: 'Apache-2.0',
    synthetic: false,
    attribution: 'Typed Decisions (LocalLLaMA/typed-decisions), Apache-2.0',
    source: { url: null, path: PARQUET_PATH, sha256: PINNED_PARQUET_SHA256, sha256_pinned: true },
    generator: null,
    files: [
      {
        split: 'test',
        path: 'test.jsonl.gz',
        sha256: createHash('sha256').update(data).digest('hex'),
        bytes: data.length,
        rows: rows.length,
      },
    ],
    restore: 'decidekit dataset fetch typed-decisions',
  };
  writeFileSync(join(copy, 'manifest.json'), JSON.stringify(manifest, null, 2));
}

describe('a manifest that claims to be Typed Decisions', () => {
  forgeCachedCopy();

  it('makes a custom dataset, and dataset info and verify say why', async () => {
    const info = await cli(['dataset', 'info', 'typed-decisions', '--json']);
    expect(info.stderr).toBe('');
    const described = JSON.parse(info.stdout).datasets[0].dataset;
    expect(described.id).not.toBe('LocalLLaMA/typed-decisions');
    expect(described.revision).toBeNull();
    expect(described.attribution).toContain('not Typed Decisions');
    const text = await cli(['dataset', 'info', 'typed-decisions']);
    expect(text.stdout).toContain(
      `its manifest names LocalLLaMA/typed-decisions, but its files do not have the pinned sha256`,
    );
    const verify = await cli(['dataset', 'verify', 'typed-decisions']);
    expect(verify.code).toBe(0);
    expect(verify.stdout).not.toContain('LocalLLaMA/typed-decisions @');
    expect(verify.stdout).toContain('ok      typed-decisions: test.jsonl.gz: test 400 cases');
    expect(verify.stdout).toContain('its manifest names LocalLLaMA/typed-decisions, but its files do not');
  });

  it('gives a run that is not exported as a leaderboard entry', async () => {
    const bench = await cli(['bench', '--dataset', 'typed-decisions', '--store', 'runs.db', '--json']);
    expect(bench.code).toBe(0);
    const run = JSON.parse(bench.stdout);
    expect(run.dataset.id).not.toBe('LocalLLaMA/typed-decisions');
    const runId = run.id as string;
    const exported = await cli([
      'runs',
      'export',
      runId,
      '--format',
      'eval-results',
      '--out',
      'entry',
      '--store',
      'runs.db',
    ]);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain('not LocalLLaMA/typed-decisions');
  });
});
