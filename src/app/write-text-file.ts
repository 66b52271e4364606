import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { piecesOf } from '../core/text-pieces.js';
import { DecidekitError } from '../core/errors.js';
import { fileErrorWords } from '../core/file-error-words.js';

/** Writes an output file; a failure (permission, missing folder) is an error naming the file. */
export function writeTextFile(path: string, text: string, what: string): void {
  try {
    writeFileSync(path, text);
  } catch (err) {
    throw new DecidekitError('write_failed', `cannot write ${what}: ${path} (${fileErrorWords(err, 'write failed')})`, {
      cause: err,
    });
  }
}

/**
 * Writes an output file from pieces of text, in writes of about 32 K characters
 * (`piecesOf`), so a long document is never one string; a failure is an error naming the file.
 */
export async function writeTextPieces(path: string, chunks: Iterable<string>, what: string): Promise<void> {
  try {
    const file = await open(path, 'w');
    try {
      for (const piece of piecesOf(chunks)) await file.write(piece);
    } finally {
      await file.close();
    }
  } catch (err) {
    if (err instanceof DecidekitError) throw err;
    throw new DecidekitError('write_failed', `cannot write ${what}: ${path} (${fileErrorWords(err, 'write failed')})`, {
      cause: err,
    });
  }
}
