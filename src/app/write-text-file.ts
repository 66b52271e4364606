import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { piecesOf } from '../core/text-pieces.js';
import { DecidekitError } from '../core/errors.js';
import { fileErrorWords } from '../core/file-error-words.js';
import { nonRegularOutputWords, partialNameOf, refusedOutputWords, removeStalePartialFiles } from './output-file.js';

/** Why writing the file `path` failed, in words (`no folder /x`), never a raw error code. */
export function writeFailureReason(path: string, err: unknown): string {
  const code = err instanceof Error && 'code' in err ? String(err.code) : null;
  switch (code) {
    case null:
      return 'write failed';
    case 'ENOENT':
      return `no folder ${dirname(path)}`;
    default:
      return fileErrorWords(err);
  }
}

/** Files being written under their temporary names (see `writeOutputFile`). */
const partials = new Set<string>();

/** Removes the temporary files of writes still under way: for a process ending at once (Ctrl+C). */
export function removePartialFiles(): void {
  for (const partial of partials) rmSync(partial, { force: true });
  partials.clear();
}

export interface WriteOutputOptions {
  /** The message of a failed write (default `cannot write WHAT: PATH (reason)`). */
  readonly failure?: (err: unknown) => string;
}

/**
 * The one writer of output files (reports, `--out`, `--html`, exports), at a path checked
 * first by `prepareOutputPath` (app/output-file.ts); missing folders are made here. The file is written beside `path` under
 * a temporary name (`.partial-PID-…`) and renamed into place once complete, so an interrupted
 * or failed write never leaves a partial file where the output was (the temporary file goes
 * on Ctrl+C, `removePartialFiles`; one left by a process killed outright goes at the next
 * write). Only a regular file is ever replaced: anything else at `path` (a symbolic link, a
 * FIFO, a device, a folder) is refused, looked at again just before the rename. A file system
 * failure is an error naming the file; other errors of `write` pass through as they are.
 */
export async function writeOutputFile(
  path: string,
  what: string,
  write: (file: FileHandle) => Promise<void>,
  options: WriteOutputOptions = {},
): Promise<void> {
  const failed = (err: unknown): DecidekitError =>
    new DecidekitError(
      'write_failed',
      options.failure?.(err) ?? `cannot write ${what}: ${path} (${writeFailureReason(path, err)})`,
      { cause: err },
    );
  const refuseNonRegular = (): void => {
    const found = nonRegularOutputWords(path);
    if (found !== null)
      throw new DecidekitError('write_failed', `cannot write ${what}: ${path} is ${refusedOutputWords(found)}`);
  };
  refuseNonRegular();
  // The output rule checked the path before the work and left its missing folders unmade, so
  // a command refused meanwhile leaves none behind: they are made now.
  await mkdir(dirname(path), { recursive: true }).catch((err: unknown) => {
    throw failed(err);
  });
  removeStalePartialFiles(path);
  const partial = join(dirname(path), partialNameOf(basename(path)));
  partials.add(partial);
  try {
    const file = await open(partial, 'wx');
    try {
      await write(file);
    } finally {
      await file.close();
    }
    refuseNonRegular();
    await rename(partial, path);
    partials.delete(partial);
  } catch (err) {
    partials.delete(partial);
    // Under a file (ENOTDIR) or with a name too long, the temporary file was never made and
    // removing it fails too: the write's own error is the one to report.
    await rm(partial, { force: true }).catch(() => undefined);
    throw isFileSystemError(err) ? failed(err) : err;
  }
}

function isFileSystemError(err: unknown): boolean {
  return !(err instanceof DecidekitError) && err instanceof Error && 'code' in err;
}

/**
 * Writes an output file from pieces of text, in writes of about 32 K characters
 * (`piecesOf`), so a long document is never one string (through `writeOutputFile`).
 */
export async function writeTextPieces(
  path: string,
  chunks: Iterable<string>,
  what: string,
  options: WriteOutputOptions = {},
): Promise<void> {
  await writeOutputFile(
    path,
    what,
    async (file) => {
      for (const piece of piecesOf(chunks)) await file.write(piece);
    },
    options,
  );
}

/** Writes an output file of one text (through `writeOutputFile`). */
export async function writeTextFile(
  path: string,
  text: string,
  what: string,
  options: WriteOutputOptions = {},
): Promise<void> {
  await writeOutputFile(path, what, async (file) => void (await file.write(text)), options);
}
