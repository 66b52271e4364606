/**
 * A `--store` that cannot be a run store is refused, the same way by every command, saying
 * what is wrong: `-` (a store is a file path, not standard input or output), a path under a
 * regular file; and `runs list` of a store whose folder does not exist says so rather than
 * only "no runs yet"; a device or FIFO is named as what it is; a folder that takes no new file
 * is said in words before any work. Real CLI in process, real files.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { whileUnwritable } from '../../support/unwritable.js';
import { RAW_ERROR_CODE } from '../../support/raw-error-code.js';

const dir = tempFolderRemovedAfterAll('decidekit-store-paths-');
const cli = (args: string[]): Promise<CliResult> =>
  runCliInProcess(args, { cwd: dir, env: { XDG_DATA_HOME: join(dir, 'data') } });

describe('--store -', () => {
  it('is refused by every command that takes a store, creating no file named "-"', async () => {
    for (const argv of [
      ['bench', '--limit', '1'],
      ['runs', 'list'],
      ['runs', 'show', '2026'],
      ['runs', 'delete', '2026', '--yes'],
      ['audit'],
      ['probe'],
    ]) {
      const r = await cli([...argv, '--store', '-']);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('a run store is a file');
      expect(r.stderr).toContain('--store runs.sqlite');
      expect(r.stderr).not.toMatch(/internal error|No runs stored/);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(join(dir, '-'))).toBe(false);
  });
});

describe('a store path under a regular file', () => {
  it('is refused by runs list as by bench, naming the file in the way, in words', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'notes\n');
    const store = join(file, 'sub', 'runs.sqlite');
    for (const argv of [['runs', 'list'], ['bench', '--limit', '1'], ['runs', 'check'], ['audit']]) {
      const r = await cli([...argv, '--store', store]);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${file} is a file, not a folder`);
      expect(r.stderr).not.toMatch(/No runs stored|internal error/);
      expect(r.stderr).not.toMatch(RAW_ERROR_CODE);
      expect(r.stderr.trim().split('\n')[0]).toContain(store);
    }
  });
});

describe('a store path with a name over the file system limit', () => {
  it('is refused by runs list as by bench, in words', async () => {
    const store = join(dir, 'x'.repeat(300), 'runs.sqlite');
    for (const argv of [
      ['runs', 'list'],
      ['bench', '--limit', '1'],
    ]) {
      const r = await cli([...argv, '--store', store]);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('a name in the path is longer than the file system allows');
      expect(r.stderr).not.toMatch(/No runs stored|internal error|ENAMETOOLONG/);
    }
  });
});

describe('a store whose folder does not exist', () => {
  it('is listed as holding no runs, saying its folder does not exist yet', async () => {
    const store = join(dir, 'no-such-folder', 'runs.sqlite');
    const r = await cli(['runs', 'list', '--store', store]);
    expect(r.code, r.stderr).toBe(0);
    // Wrapped to the width: read as one line.
    const said = r.stdout.replace(/\s+/g, ' ');
    expect(said).toContain(`No runs stored in ${store}: its folder ${join(dir, 'no-such-folder')} does not exist yet`);
    // Listing makes nothing.
    expect(readdirSync(dir)).not.toContain('no-such-folder');
  });
});

describe('a store path that is a device or a FIFO', () => {
  it('says what is there, with a hint that works when pasted', async () => {
    const device = join(dir, 'mynull');
    // The null device's numbers, made in a temp folder: the real /dev is never touched.
    execFileSync('mknod', [device, 'c', '1', '3']);
    // A FIFO under the usual name: the hint cannot be a store beside it of that name.
    mkdirSync(join(dir, 'piped'));
    const fifo = join(dir, 'piped', 'runs.sqlite');
    execFileSync('mkfifo', [fifo]);
    for (const [path, what] of [
      [device, 'a device'],
      [fifo, 'a FIFO (named pipe)'],
    ] as const) {
      const r = await cli(['bench', '--limit', '1', '--store', path]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${path} is ${what}`);
      const hint = /e\.g\. --store (\S+)\)/.exec(r.stderr)?.[1];
      expect(hint, r.stderr).toBeDefined();
      const pasted = await cli(['bench', '--limit', '1', '--store', hint!]);
      expect(pasted.code, pasted.stderr).toBe(0);
    }
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });
});

describe('a store in a folder that takes no new file', () => {
  it('is refused in words before any work by every command that writes to it; reading it still works', async () => {
    const folder = join(dir, 'immutable');
    mkdirSync(folder);
    const existing = join(folder, 'existing.sqlite');
    const made = await cli(['bench', '--limit', '1', '--store', existing]);
    expect(made.code, made.stderr).toBe(0);
    const checked = await whileUnwritable(folder, 'folder', async () => {
      for (const [argv, store] of [
        [['bench', '--limit', '1'], join(folder, 'new.sqlite')],
        [['bench', '--limit', '1'], existing],
        [['audit'], join(folder, 'new.sqlite')],
        [['probe', '--cases', '1'], join(folder, 'new.sqlite')],
        [['runs', 'delete', 'no-such-run', '--yes'], existing],
      ] as const) {
        const r = await cli([...argv, '--store', store]);
        expect({ argv, code: r.code }, r.stderr).toEqual({ argv, code: 2 });
        expect(r.stderr).toContain(`--store ${store}: cannot write into the folder ${folder} (permission denied)`);
        expect(r.stderr).not.toMatch(/unable to open database file|internal error/);
        expect(r.stderr).not.toMatch(RAW_ERROR_CODE);
        expect(r.stdout).toBe('');
      }
      const list = await cli(['runs', 'list', '--store', existing]);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toContain('1 run');
    });
    // The mode (or, as root, the immutable flag) must have made it refuse writes here.
    expect(checked).toBe(true);
    expect(readdirSync(folder)).toEqual(['existing.sqlite']);
  });
});

describe('a store file that cannot be written, in a folder that takes new files', () => {
  it('is refused in words before any case is sent, by bench and runs delete; reading it still works', async () => {
    const folder = join(dir, 'frozen-file');
    mkdirSync(folder);
    const store = join(folder, 'runs.sqlite');
    const made = await cli(['bench', '--limit', '1', '--store', store]);
    expect(made.code, made.stderr).toBe(0);
    const checked = await whileUnwritable(store, 'file', async () => {
      for (const argv of [
        ['bench', '--limit', '3'],
        ['runs', 'delete', 'no-such-run', '--yes'],
      ]) {
        const r = await cli([...argv, '--store', store]);
        expect({ argv, code: r.code }, r.stderr).toEqual({ argv, code: 2 });
        expect(r.stderr).toMatch(
          new RegExp(`--store ${store}: the file cannot be written \\((permission denied|operation not permitted)\\)`),
        );
        expect(r.stderr).not.toMatch(/interrupted|sending|internal error/);
        expect(r.stderr).not.toMatch(RAW_ERROR_CODE);
        expect(r.stdout).toBe('');
      }
      const list = await cli(['runs', 'list', '--store', store]);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toContain('1 run');
    });
    // The mode (or, as root, the immutable flag) must have made it refuse writes here.
    expect(checked).toBe(true);
  });
});
