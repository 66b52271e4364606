import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DecidekitError } from '../core/errors.js';
import { removePartialFiles, writeOutputFile, writeTextFile, writeTextPieces } from './write-text-file.js';
import { nonRegularOutputWords } from './output-file.js';
import { tempFoldersRemovedAfterEach } from '../datasets/test-support/temp-folders.js';

const freshFolder = tempFoldersRemovedAfterEach('decidekit-write-pieces-');
let dir: string;

/** `n` pieces of 32,000 characters, made as they are written. */
function* manyPieces(n: number): Generator<string> {
  const piece = 'y'.repeat(32_000);
  for (let i = 0; i < n; i++) yield piece;
}
beforeEach(() => {
  dir = freshFolder();
});

describe('writeTextPieces', () => {
  it('writes the pieces in order and leaves only the file', async () => {
    const path = join(dir, 'report.md');
    await writeTextPieces(path, ['# A\n', 'x'.repeat(100_000), '\nend\n'], 'the report');
    expect(readFileSync(path, 'utf8')).toBe(`# A\n${'x'.repeat(100_000)}\nend\n`);
    expect(readdirSync(dir)).toEqual(['report.md']);
  });

  it('keeps the earlier file whole when the pieces fail midway, and leaves no partial file', async () => {
    const path = join(dir, 'report.md');
    await writeTextPieces(path, ['old report\n'], 'the report');
    function* failing(): Generator<string> {
      yield 'new start\n'.repeat(10_000);
      throw new DecidekitError('store_unreadable', 'the store went away');
    }
    await expect(writeTextPieces(path, failing(), 'the report')).rejects.toThrow('the store went away');
    expect(readFileSync(path, 'utf8')).toBe('old report\n');
    expect(readdirSync(dir)).toEqual(['report.md']);
  });

  it('names a folder given as the file, in words, and leaves nothing behind', async () => {
    const path = join(dir, 'out');
    mkdirSync(path);
    const err = await writeTextPieces(path, ['x'], 'the report').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecidekitError);
    expect((err as Error).message).toBe(
      `cannot write the report: ${path} is a folder, not a regular file: it is never replaced; give the path of a file`,
    );
    expect(readdirSync(dir)).toEqual(['out']);
  });

  it('removes the temporary file of a write under way when the process ends at once', async () => {
    const path = join(dir, 'big.md');
    const writing = writeTextPieces(path, manyPieces(2000), 'the report');
    // Until the temporary file is opened: up to 5 s, as the open waits for a free thread of
    // libuv's pool, which other test files in the same worker may still be using.
    const partials = () =>
      readdirSync(dir).filter((f) => f.startsWith(`.partial-${process.pid}-`) && f.endsWith('-big.md'));
    const until = Date.now() + 5000;
    while (partials().length === 0 && Date.now() < until) await new Promise<void>((resolve) => setTimeout(resolve, 1));
    expect(partials()).toHaveLength(1);
    removePartialFiles();
    expect(readdirSync(dir)).toEqual([]);
    // The write itself then fails (its file is gone), as in a process that is ending.
    await expect(writing).rejects.toThrow(`cannot write the report: ${path}`);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('writeOutputFile', () => {
  it('refuses a symbolic link at the output path and leaves the link and its target as they were', async () => {
    const target = join(dir, 'target.md');
    writeFileSync(target, 'kept\n');
    const link = join(dir, 'link.md');
    symlinkSync(target, link);
    await expect(writeTextFile(link, 'new\n', 'the report')).rejects.toThrow(
      `cannot write the report: ${link} is a symbolic link, not a regular file: it is never replaced; give the path of a file`,
    );
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('kept\n');
    expect(readdirSync(dir).sort()).toEqual(['link.md', 'target.md']);
  });

  it('refuses a FIFO at the output path without opening it, and leaves it in place', async () => {
    const fifo = join(dir, 'pipe.md');
    execFileSync('mkfifo', [fifo]);
    // Opening a FIFO for writing would wait for a reader: the refusal must come first.
    await expect(writeTextPieces(fifo, ['x'], 'the report')).rejects.toThrow(
      `cannot write the report: ${fifo} is a FIFO (named pipe), not a regular file`,
    );
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['pipe.md']);
  });

  it('makes the missing folders of the file it writes', async () => {
    const path = join(dir, 'a', 'b', 'out.txt');
    await writeTextFile(path, 'made', 'the report');
    expect(readFileSync(path, 'utf8')).toBe('made');
  });

  it('replaces a regular file and writes a new one', async () => {
    const path = join(dir, 'out.bin');
    writeFileSync(path, 'old');
    await writeOutputFile(path, 'the export', async (file) => void (await file.write('new')));
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(nonRegularOutputWords(path)).toBeNull();
    expect(nonRegularOutputWords(join(dir, 'not-yet'))).toBeNull();
  });

  it('takes a character device such as /dev/null as one never to replace', () => {
    // Only looked at: writing into the real /dev is not for a test.
    expect(nonRegularOutputWords('/dev/null')).toBe('a device');
  });

  it('names the output in the message a caller gives for a failed write', async () => {
    writeFileSync(join(dir, 'a-file'), 'x');
    const path = join(dir, 'a-file', 'x.json');
    await expect(
      writeTextFile(path, '{}', 'the audit report', { failure: () => 'cannot write the audit reports into D' }),
    ).rejects.toThrow(/^cannot write the audit reports into D$/);
  });
});

describe('writeOutputFile under a file', () => {
  it('fails as a write error naming the path, not an error of removing the temporary file', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const caught = await writeTextFile(join(file, 'report.md'), 'text', 'the report').catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(DecidekitError);
    expect((caught as DecidekitError).message).toContain(`cannot write the report: ${join(file, 'report.md')}`);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });
});
