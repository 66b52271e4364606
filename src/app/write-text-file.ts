import { writeFileSync } from 'node:fs';
import { DecidekitError } from '../core/errors.js';

/** Writes an output file; a failure (permission, missing folder) is an error naming the file. */
export function writeTextFile(path: string, text: string, what: string): void {
  try {
    writeFileSync(path, text);
  } catch (err) {
    const reason = err instanceof Error && 'code' in err ? String(err.code) : 'write failed';
    throw new DecidekitError('write_failed', `cannot write ${what}: ${path} (${reason})`, { cause: err });
  }
}
