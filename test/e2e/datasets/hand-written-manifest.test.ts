/**
 * A manifest written by hand, in a folder given as the dataset, that breaks the manifest
 * format (a split that is not a string, a file listed twice) is a mistake to fix: the
 * message says so and names what is wrong, rather than advising to restore the folder or
 * to fetch Typed Decisions.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const SAMPLE = join(import.meta.dirname, '..', '..', '..', 'data', 'typed-decisions-sample');
const tmp = tempFolderRemovedAfterAll('decidekit-hand-written-manifest-');
const env = { XDG_DATA_HOME: join(tmp, 'xdg'), XDG_CACHE_HOME: join(tmp, 'cache') };

/** A folder with the sample's test split and a manifest changed by `change`. */
function folderWith(name: string, change: (files: Record<string, unknown>[]) => void): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  copyFileSync(join(SAMPLE, 'test.jsonl'), join(dir, 'test.jsonl'));
  const manifest = JSON.parse(readFileSync(join(SAMPLE, 'manifest.json'), 'utf8')) as {
    id: string;
    files: Record<string, unknown>[];
  };
  manifest.id = 'acme/own-cases';
  manifest.files = manifest.files.slice(0, 1);
  change(manifest.files);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

const FIX = '(fix the manifest: its keys are described in docs/file-formats.md, "Dataset manifest")';

describe('a hand-written manifest that breaks the format', () => {
  it('is named as the thing to fix, for a split that is not a string and a file listed twice', async () => {
    const numeric = folderWith('sp', (files) => (files[0]!['split'] = 5));
    const twice = folderWith('twice', (files) => files.push({ ...files[0], split: 'train' }));
    for (const [dir, problem] of [
      [numeric, 'files[0].split must be a non-empty string, got 5'],
      [twice, 'files[1] lists test.jsonl again (first as files[0]): each file once'],
    ] as const) {
      for (const argv of [
        ['bench', '--dataset', dir, '--no-store'],
        ['bench', '--dataset', join(dir, 'test.jsonl'), '--no-store'],
        ['dataset', 'info', dir],
      ]) {
        const r = await runCliInProcess(argv, { env });
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain(`invalid dataset manifest: ${join(dir, 'manifest.json')}: ${problem} ${FIX}`);
        expect(r.stderr).not.toContain('restore');
        expect(r.stderr).not.toContain('dataset fetch');
      }
    }
  });
});
