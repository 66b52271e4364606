import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { OptionError } from '../core/errors.js';
import { optionMention } from '../core/message-words.js';
import { outputFileOf, partialNameOf, prepareOutputPath, removeStalePartialFiles } from './output-file.js';
import { tempFoldersRemovedAfterEach } from '../datasets/test-support/temp-folders.js';

const freshFolder = tempFoldersRemovedAfterEach('decidekit-output-file-');
let dir: string;
beforeEach(() => {
  dir = freshFolder();
});

/** The message of the OptionError `prepareOutputPath` throws, as a library caller reads it. */
async function refusal(...args: Parameters<typeof prepareOutputPath>): Promise<string> {
  const err = await prepareOutputPath(...args).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(OptionError);
  return (err as OptionError).message;
}

describe('prepareOutputPath', () => {
  it('takes a path ending in "/" as a folder, leaving it to be made when the file is written', async () => {
    const place = await prepareOutputPath('a/b/', 'target', { cwd: dir });
    expect(place).toMatchObject({ folder: join(dir, 'a', 'b'), name: null });
    expect(outputFileOf(place, 'run.md')).toBe(join(dir, 'a', 'b', 'run.md'));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes an existing folder as a folder and a new path as a file in a folder still to make', async () => {
    expect(await prepareOutputPath(dir, 'htmlPath')).toMatchObject({ folder: dir, name: null });
    const place = await prepareOutputPath(join(dir, 'new', 'r.html'), 'htmlPath');
    expect(outputFileOf(place, 'score.html')).toBe(join(dir, 'new', 'r.html'));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a link, a FIFO, a file where a folder is asked for, and a path under a file, in words', async () => {
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    symlinkSync(file, join(dir, 'link'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect(await refusal(join(dir, 'link'), 'target')).toContain('link: a symbolic link, not a regular file');
    expect(await refusal(join(dir, 'fifo'), 'recordPath')).toContain('fifo: a FIFO (named pipe), not a regular file');
    expect(await refusal(file, 'outDir', { folderOnly: true })).toBe(
      `outDir ${file}: is a file, not a folder (give a folder for the reports)`,
    );
    expect(await refusal(join(file, 'r.md'), 'target')).toBe(
      `target ${join(file, 'r.md')}: a part of the path is a file, not a folder`,
    );
    expect(await refusal(join(dir, 'x'.repeat(256)), 'target')).toContain('longer than 255 bytes');
  });

  it('refuses a file the command reads, by its path, a hard link or the name a folder gives it', async () => {
    const store = join(dir, 'runs.sqlite');
    writeFileSync(store, 'a store');
    const inputs = [{ named: optionMention('storePath'), path: 'runs.sqlite' }];
    const said = `is the same file as storePath runs.sqlite, which the command reads`;
    expect(await refusal('./runs.sqlite', 'target', { cwd: dir, inputs })).toBe(
      `target ./runs.sqlite: ${said} (an output never replaces an input; give another path)`,
    );
    linkSync(store, join(dir, 'linked'));
    expect(await refusal('linked', 'target', { cwd: dir, inputs })).toContain(`linked: ${said}`);
    expect(await refusal('.', 'target', { cwd: dir, inputs, fileName: 'runs.sqlite' })).toContain(
      `target .: ${store} ${said}`,
    );
    // Named later (a run's id): refused when the file's name is known.
    const place = await prepareOutputPath('.', 'target', { cwd: dir, inputs });
    expect(() => outputFileOf(place, 'runs.sqlite')).toThrow(OptionError);
    expect(outputFileOf(place, 'report.md')).toBe(join(dir, 'report.md'));
    expect(await prepareOutputPath('new.csv', 'target', { cwd: dir, inputs })).toMatchObject({ name: 'new.csv' });
  });
});

describe('temporary names', () => {
  it('fit in 255 bytes for the longest name a file may have', () => {
    const name = partialNameOf('é'.repeat(127));
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(name).toMatch(new RegExp(`^\\.partial-${process.pid}-[0-9a-f]{8}-é+$`));
  });

  it("removes a gone process's for the same file only, and keeps a live process's", () => {
    mkdirSync(join(dir, 'out'));
    const target = join(dir, 'out', 'report.md');
    const files = [
      '.partial-11-0123abcd-report.md',
      '.partial-22-0123abcd-report.md',
      '.partial-11-0123abcd-other.md',
      '.partial-11-0123abcd-',
      'report.md',
    ];
    for (const f of files) writeFileSync(join(dir, 'out', f), 'x');
    removeStalePartialFiles(target, (pid) => pid === 22);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(
      ['.partial-22-0123abcd-report.md', '.partial-11-0123abcd-other.md', 'report.md'].sort(),
    );
  });
});
