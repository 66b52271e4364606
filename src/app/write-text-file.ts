import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DecidekitError } from '../core/errors.js';

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

/** Why writing the file `path` failed, in words after the error code (`ENOENT: no folder /x; create it first`). */
export function writeFailureReason(path: string, err: unknown): string {
  const code = err instanceof Error && 'code' in err ? String(err.code) : null;
  switch (code) {
    case 'ENOENT':
      return `ENOENT: no folder ${dirname(path)}; create it first`;
    case 'EISDIR':
      return 'EISDIR: a folder, not a file; give a file name';
    case 'ENOTDIR':
      return `ENOTDIR: a part of ${dirname(path)} is a file, not a folder`;
    case 'EACCES':
    case 'EPERM':
      return `${code}: permission denied`;
    case 'ENOSPC':
      return 'ENOSPC: no space left on the device';
    case 'EROFS':
      return 'EROFS: a read-only file system';
    default:
      return code ?? 'write failed';
  }
}
