import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { DecidekitError } from '../core/errors.js';
import { refuseKernelFolder } from '../datasets/folders.js';
import type { CliIo } from './io.js';
import { writeFailureReason, writeTextFile } from '../app/write-text-file.js';

/**
 * Writes an HTML report given with `--html FILE` / `--out FILE` (folders created; the file
 * through the one output writer, `writeOutputFile`), then names it on stderr so standard
 * output keeps the command's own report.
 */
export async function writeHtmlReport(io: CliIo, file: string, html: string): Promise<void> {
  const path = resolve(io.cwd, file);
  refuseKernelFolder(dirname(path), 'htmlPath', 'the HTML report goes into');
  const failure = (err: unknown): string => `cannot write the HTML report ${file} (${writeFailureReason(path, err)})`;
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (err) {
    throw new DecidekitError('write_failed', failure(err), { cause: err });
  }
  await writeTextFile(path, html, 'the HTML report', { failure });
  io.stderr.write(`HTML report written to ${file}\n`);
}
