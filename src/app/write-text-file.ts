import { rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { piecesOf } from '../core/text-pieces.js';
import { DecidekitError } from '../core/errors.js';
import { fileErrorWords } from '../core/file-error-words.js';

/** Writes an output file; a failure (permission, missing folder) is an error naming the file. */
export function writeTextFile(path: string, text: string, what: string): void {
  try {
    writeFileSync(path, text);
  } catch (err) {
    throw new DecidekitError('write_failed', `cannot write ${what}: ${path} (${writeFailureReason(path, err)})`, {
      cause: err,
    });
  }
}

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

/** Files being written under their temporary names (see `writeTextPieces`). */
const partials = new Set<string>();

/** Removes the temporary files of writes still under way: for a process ending at once (Ctrl+C). */
export function removePartialFiles(): void {
  for (const partial of partials) rmSync(partial, { force: true });
  partials.clear();
}

/**
 * Writes an output file from pieces of text, in writes of about 32 K characters
 * (`piecesOf`), so a long document is never one string. It is written beside `path` under a
 * temporary name and renamed into place once complete: an interrupted write never leaves a
 * partial report where the report was. A failure is an error naming the file.
 */
export async function writeTextPieces(path: string, chunks: Iterable<string>, what: string): Promise<void> {
  const partial = `${path}.partial-${randomBytes(4).toString('hex')}`;
  partials.add(partial);
  try {
    const file = await open(partial, 'wx');
    try {
      for (const piece of piecesOf(chunks)) await file.write(piece);
    } finally {
      await file.close();
    }
    await rename(partial, path);
    partials.delete(partial);
  } catch (err) {
    partials.delete(partial);
    await rm(partial, { force: true });
    if (err instanceof DecidekitError) throw err;
    throw new DecidekitError('write_failed', `cannot write ${what}: ${path} (${writeFailureReason(path, err)})`, {
      cause: err,
    });
  }
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
