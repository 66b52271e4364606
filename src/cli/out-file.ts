/**
 * An output file option (`--html FILE`, `--out FILE`) is checked before the work starts, so
 * a path that can never be written (a folder, a path under a file) is a usage error naming
 * the option at once, not a write error after the scoring or reading is done.
 */
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { fileErrorWords } from '../core/file-error-words.js';
import { refuseKernelFolder } from '../datasets/folders.js';
import { outputPathKind, refusedOutputWords } from '../app/write-text-file.js';

/**
 * Throws a UsageError when `value` (given to `option`, resolved against `cwd`) is a folder,
 * lies under a file, is something the output writer never replaces (a symbolic link, a FIFO)
 * or cannot be looked at; a path that does not exist yet is fine. What only
 * the write can tell (a full disk) is still the write's to report.
 */
export async function refuseUnwritableOutFile(option: string, value: string | undefined, cwd: string): Promise<void> {
  if (value === undefined) return;
  const path = resolve(cwd, value);
  refuseKernelFolder(dirname(path), 'target', option);
  const target = outputPathKind(path);
  if (target.kind === 'refused') throw new UsageError(`${option} ${value}: ${refusedOutputWords(target.what)}`);
  let isFolder: boolean;
  try {
    isFolder = (await stat(path)).isDirectory();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new UsageError(`${option} ${value}: cannot be written (${fileErrorWords(err)})`);
  }
  if (isFolder) throw new UsageError(`${option} ${value}: it is a folder (give the path of a file to write)`);
}
