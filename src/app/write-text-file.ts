import { lstatSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { piecesOf } from '../core/text-pieces.js';
import { DecidekitError } from '../core/errors.js';
import { fileErrorWords } from '../core/file-error-words.js';

/**
 * Why writing the file `path` failed: the error code, then in words (`ENOENT: no folder /x;
 * create it first`); the words of codes without a word about the path are fileErrorWords'.
 */
export function writeFailureReason(path: string, err: unknown): string {
  const code = err instanceof Error && 'code' in err ? String(err.code) : null;
  switch (code) {
    case null:
      return 'write failed';
    case 'ENOENT':
      return `ENOENT: no folder ${dirname(path)}; create it first`;
    case 'EISDIR':
      return 'EISDIR: a folder, not a file; give a file name';
    case 'ENOTDIR':
      return `ENOTDIR: a part of ${dirname(path)} is a file, not a folder`;
    default: {
      const words = fileErrorWords(err);
      return words === code ? code : `${code}: ${words}`;
    }
  }
}

/** Files being written under their temporary names (see `writeOutputFile`). */
const partials = new Set<string>();

/** Removes the temporary files of writes still under way: for a process ending at once (Ctrl+C). */
export function removePartialFiles(): void {
  for (const partial of partials) rmSync(partial, { force: true });
  partials.clear();
}

/**
 * What is at an output path: nothing yet or a regular file (replaced), a character device
 * such as /dev/null (written into, never replaced), or something that must not be replaced
 * (a symbolic link, a FIFO, a socket, a block device), in words.
 */
export type OutputPathKind =
  { readonly kind: 'file' } | { readonly kind: 'device' } | { readonly kind: 'refused'; readonly what: string };

/** What `path` is as an output (see `OutputPathKind`); a path that cannot be looked at is left to the write. */
export function outputPathKind(path: string): OutputPathKind {
  let entry;
  try {
    entry = lstatSync(path);
  } catch {
    return { kind: 'file' };
  }
  if (entry.isFile() || entry.isDirectory()) return { kind: 'file' };
  if (entry.isCharacterDevice()) return { kind: 'device' };
  if (entry.isSymbolicLink()) return { kind: 'refused', what: 'a symbolic link' };
  if (entry.isFIFO()) return { kind: 'refused', what: 'a FIFO (named pipe)' };
  if (entry.isSocket()) return { kind: 'refused', what: 'a socket' };
  if (entry.isBlockDevice()) return { kind: 'refused', what: 'a block device' };
  return { kind: 'refused', what: 'not a regular file' };
}

/** Why an output path that is not a regular file is refused, in words (for the message). */
export function refusedOutputWords(what: string): string {
  return `${what}, not a regular file: it is never replaced; give the path of a file`;
}

export interface WriteOutputOptions {
  /** The message of a failed write (default `cannot write WHAT: PATH (reason)`). */
  readonly failure?: (err: unknown) => string;
}

/**
 * The one writer of output files (reports, `--out`, `--html`, exports). The file is written
 * beside `path` under a temporary name and renamed into place once complete, so an
 * interrupted or failed write never leaves a partial file where the output was (and the
 * temporary file goes on Ctrl+C, `removePartialFiles`). Only a regular file is ever replaced:
 * a symbolic link, FIFO, socket or block device at `path` is refused; a character device
 * (/dev/null) is written into directly. A file system failure is an error naming the file;
 * other errors of `write` pass through as they are.
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
  const target = outputPathKind(path);
  if (target.kind === 'refused')
    throw new DecidekitError('write_failed', `cannot write ${what}: ${path} is ${refusedOutputWords(target.what)}`);
  if (target.kind === 'device') {
    try {
      const file = await open(path, 'w');
      try {
        await write(file);
      } finally {
        await file.close();
      }
    } catch (err) {
      throw isFileSystemError(err) ? failed(err) : err;
    }
    return;
  }
  const partial = `${path}.partial-${randomBytes(4).toString('hex')}`;
  partials.add(partial);
  try {
    const file = await open(partial, 'wx');
    try {
      await write(file);
    } finally {
      await file.close();
    }
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

/** Where an output given as `path` goes: `path` itself, or `path/name` when `path` is a folder. */
export function outputPathIn(path: string, name: string): string {
  let folder = false;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    // Not there (yet): a file to write.
  }
  return folder ? join(path, name) : path;
}
