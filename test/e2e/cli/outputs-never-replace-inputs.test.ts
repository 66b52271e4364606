/**
 * An output never replaces what the command reads: an output path that is the same file as
 * an input or the run store (the same path, another spelling of it, a hard link, or the
 * file a folder output would get by its own name) is a usage error before any work, and
 * the input is left as it was. The final file of a folder output is checked up front too,
 * and what stands where a folder is asked for is named as what it is. The real CLI in
 * process, real files and a real SQLite store in a temp folder.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, linkSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { CAREFUL_RESULTS, DATA, MODERATION_DATASET, inboxActionsArgv } from '../../support/offline-samples.js';
import { RAW_ERROR_CODE } from '../../support/raw-error-code.js';

const tmp = tempFolderRemovedAfterAll('decidekit-outputs-inputs-');
const store = join(tmp, 's.db');
const env = { XDG_DATA_HOME: tmp };
const cli = (argv: readonly string[]): Promise<CliResult> => runCliInProcess(argv, { env, cwd: tmp });
let runId: string;
let otherId: string;

async function benchRun(): Promise<string> {
  const r = await cli(['bench', '--limit', '3', '--store', store, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { id: string }).id;
}

/** A copy of `source` in the temp folder, so a wrong write could never touch the bundled data. */
function copied(source: string, name: string): string {
  const path = join(tmp, name);
  copyFileSync(source, path);
  return path;
}

beforeAll(async () => {
  runId = await benchRun();
  otherId = await benchRun();
}, 60_000);

/**
 * Refused before any work: exit 2, the output (`--out X: is`, or for a folder `--out F/: F/name is`)
 * and the input named, nothing on stdout, the input unchanged.
 */
async function expectSameFileRefused(
  argv: readonly string[],
  said: { readonly output: string; readonly input: string },
  input: string,
): Promise<void> {
  const before = readFileSync(input);
  const r = await cli(argv);
  expect({ argv, code: r.code }, r.stderr).toEqual({ argv, code: 2 });
  expect(r.stderr).toContain(`${said.output} the same file as ${said.input}, which the command reads`);
  expect(r.stderr).not.toMatch(/internal error/);
  expect(r.stderr).not.toMatch(RAW_ERROR_CODE);
  expect(r.stdout).toBe('');
  expect(readFileSync(input).equals(before), `${input} changed`).toBe(true);
}

describe('an output that is the same file as the run store', () => {
  it('is refused by runs export, report and runs compare, and the store still reads', async () => {
    for (const argv of [
      ['runs', 'export', runId, '--format', 'csv'],
      ['report', runId],
      ['runs', 'report', runId, '--format', 'json'],
      ['runs', 'compare', runId, otherId, '--format', 'html'],
    ]) {
      await expectSameFileRefused(
        [...argv, '--store', store, '--out', store],
        { output: `--out ${store}: is`, input: `--store ${store}` },
        store,
      );
      // Another spelling of the same path.
      await expectSameFileRefused(
        [...argv, '--store', store, '--out', './sub/../s.db'],
        { output: '--out ./sub/../s.db: is', input: `--store ${store}` },
        store,
      );
    }
    const list = await cli(['runs', 'list', '--store', store]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(runId);
  });

  it('is refused through a hard link, and when a folder output would get the store by its own name', async () => {
    const linked = join(tmp, 'hard-link.db');
    linkSync(store, linked);
    await expectSameFileRefused(
      ['runs', 'export', runId, '--format', 'csv', '--store', store, '--out', linked],
      { output: `--out ${linked}: is`, input: `--store ${store}` },
      store,
    );
    // The store named as the export would name its file in a folder: <run>.csv.
    const folder = join(tmp, 'exports');
    mkdirSync(folder);
    const named = join(folder, `${runId}.csv`);
    copyFileSync(store, named);
    await expectSameFileRefused(
      ['runs', 'export', runId, '--format', 'csv', '--store', named, '--out', `${folder}/`],
      { output: `--out ${folder}/: ${named} is`, input: `--store ${named}` },
      named,
    );
    const reported = join(folder, `${runId}.txt`);
    copyFileSync(store, reported);
    await expectSameFileRefused(
      ['report', runId, '--store', reported, '--out', folder],
      { output: `--out ${folder}: ${reported} is`, input: `--store ${reported}` },
      reported,
    );
  });
});

describe('an HTML report onto an input file', () => {
  it('is refused by score, compare, tune and actions, and the inputs stay as they were', async () => {
    const dataset = copied(MODERATION_DATASET, 'dataset.jsonl');
    const results = copied(CAREFUL_RESULTS, 'results.jsonl');
    const loud = copied(join(DATA, 'moderation', 'results-loud-1.jsonl'), 'loud.jsonl');
    const spec = copied(join(DATA, 'inbox', 'spec.json'), 'spec.json');
    const offline = ['--dataset', dataset, '--results', results];
    await expectSameFileRefused(
      ['score', ...offline, '--html', results],
      { output: `--html ${results}: is`, input: `--results ${results}` },
      results,
    );
    await expectSameFileRefused(
      ['score', ...offline, '--html', dataset],
      { output: `--html ${dataset}: is`, input: `--dataset ${dataset}` },
      dataset,
    );
    await expectSameFileRefused(
      ['tune', ...offline, '--html', results],
      { output: `--html ${results}: is`, input: `--results ${results}` },
      results,
    );
    await expectSameFileRefused(
      ['compare', ...offline, loud, '--html', loud],
      { output: `--html ${loud}: is`, input: `--results ${loud}` },
      loud,
    );
    await expectSameFileRefused(
      [...inboxActionsArgv(undefined, spec), '--html', spec],
      { output: `--html ${spec}: is`, input: `--spec ${spec}` },
      spec,
    );
    // A folder output whose own file name is an input: score.html given as the results.
    const folder = join(tmp, 'html');
    mkdirSync(folder);
    const named = copied(CAREFUL_RESULTS, join('html', 'score.html'));
    await expectSameFileRefused(
      ['score', '--dataset', dataset, '--results', named, '--html', `${folder}/`],
      { output: `--html ${folder}/: ${named} is`, input: `--results ${named}` },
      named,
    );
  });
});

describe('a live record onto its dataset', () => {
  it('is refused before anything is asked, and the dataset stays as it was', async () => {
    const dataset = copied(join(DATA, 'typed-decisions-sample', 'test.jsonl'), 'typed.jsonl');
    await expectSameFileRefused(
      ['live', '--dataset', dataset, '--record', dataset, '--base-url', 'http://127.0.0.1:1'],
      { output: `--record ${dataset}: is`, input: `--dataset ${dataset}` },
      dataset,
    );
  });
});

describe('the file a folder output gets by its own name is checked before the work', () => {
  it('refuses a symbolic link there with exit 2, before the run is read', async () => {
    const kept = join(tmp, 'kept.txt');
    writeFileSync(kept, 'kept\n');
    for (const [argv, name] of [
      [['report', runId], `${runId}.txt`],
      [['runs', 'export', runId, '--format', 'csv'], `${runId}.csv`],
      [['runs', 'compare', runId, otherId, '--format', 'html'], 'runs-compare.html'],
    ] as const) {
      const folder = join(tmp, `lk-${name}`);
      mkdirSync(folder);
      symlinkSync(kept, join(folder, name));
      const r = await cli([...argv, '--store', store, '--out', `${folder}/`]);
      expect({ argv, code: r.code }, r.stderr).toEqual({ argv, code: 2 });
      expect(r.stderr).toContain(`--out ${folder}/: ${join(folder, name)} is a symbolic link, not a regular file`);
      expect(r.stdout).toBe('');
      expect(lstatSync(join(folder, name)).isSymbolicLink()).toBe(true);
    }
    const folder = join(tmp, 'lk-score');
    mkdirSync(folder);
    symlinkSync(kept, join(folder, 'score.html'));
    const r = await cli(['score', '--dataset', MODERATION_DATASET, '--results', CAREFUL_RESULTS, '--html', folder]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--html ${folder}: ${join(folder, 'score.html')} is a symbolic link`);
    expect(r.stdout).toBe('');
    expect(readFileSync(kept, 'utf8')).toBe('kept\n');
  });
});

describe('what stands where a folder is asked for', () => {
  it('is named as what it is: a device, a FIFO, a file', async () => {
    const device = join(tmp, 'mynull');
    // The null device's numbers, made in the temp folder: the real /dev is never touched.
    execFileSync('mknod', [device, 'c', '1', '3']);
    const fifo = join(tmp, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const file = join(tmp, 'plain');
    writeFileSync(file, 'x');
    for (const [path, what] of [
      [device, 'a device'],
      [fifo, 'a FIFO (named pipe)'],
      [file, 'a file'],
    ] as const) {
      const r = await cli(['bench', '--limit', '1', '--no-store', '--out', path]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--out ${path}: is ${what}, not a folder`);
    }
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });
});
