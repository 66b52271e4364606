/**
 * The one check every input file passes before it is opened: it must be a regular file.
 * Opening a named pipe with no writer blocks for ever (and a blocked open holds a thread
 * that no signal interrupts), and a device such as `/dev/zero` never ends; neither is a
 * dataset, results file, spec or manifest. The check is a `stat`, which does not open the
 * file and so cannot block.
 *
 * What it throws looks like Node's file system errors (an error with a `code`), so every
 * reader words it where it already words a missing or unreadable file, through
 * `fileErrorWords` ("cannot read file: PATH (a FIFO (named pipe), not a regular file)").
 */
import { statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';

/** Codes of the things that are not regular files (words in core/file-error-words.ts). */
export type IrregularFileCode = 'EISDIR' | 'NOT_REGULAR_FIFO' | 'NOT_REGULAR_DEVICE' | 'NOT_REGULAR_SOCKET';

/** The error {@link refuseIrregularFile} throws: a file system error in shape, with its own code. */
export class IrregularFileError extends Error {
  override readonly name = 'IrregularFileError';
  readonly code: IrregularFileCode;
  readonly path: string;

  constructor(path: string, code: IrregularFileCode) {
    super(`${code}: not a regular file: ${path}`);
    this.code = code;
    this.path = path;
  }
}

/** The code of what `stats` describes when it is not a regular file; null for a regular file. */
export function irregularCodeOf(stats: Stats): IrregularFileCode | null {
  if (stats.isFile()) return null;
  if (stats.isDirectory()) return 'EISDIR';
  if (stats.isFIFO()) return 'NOT_REGULAR_FIFO';
  if (stats.isSocket()) return 'NOT_REGULAR_SOCKET';
  return 'NOT_REGULAR_DEVICE';
}

/**
 * Throws {@link IrregularFileError} when `path` (symbolic links followed) is a folder, a
 * named pipe, a device or a socket. A path that cannot be looked at passes: opening it
 * then raises the real reason (no such file, permission denied), worded by the reader.
 */
export async function refuseIrregularFile(path: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await stat(path);
  } catch {
    return;
  }
  const code = irregularCodeOf(stats);
  if (code !== null) throw new IrregularFileError(path, code);
}

/** {@link refuseIrregularFile} for the readers that read synchronously. */
export function refuseIrregularFileSync(path: string): void {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    return;
  }
  const code = irregularCodeOf(stats);
  if (code !== null) throw new IrregularFileError(path, code);
}

/**
 * For an output that is appended to (the live monitor's record): a path that exists must
 * be a regular file, since opening a named pipe to write blocks until someone reads it.
 */
export const refuseIrregularOutputSync = refuseIrregularFileSync;
