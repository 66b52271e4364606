import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { DecidekitError } from '../core/errors.js';
import { refuseKernelFolder } from '../datasets/folders.js';
import type { CliIo } from './io.js';
import { writeFailureReason } from '../app/write-text-file.js';

/**
 * Writes an HTML report given with `--html FILE` / `--out FILE` (folders created), then
 * names it on stderr so standard output keeps the command's own report.
 */
export async function writeHtmlReport(io: CliIo, file: string, html: string): Promise<void> {
  const path = resolve(io.cwd, file);
  refuseKernelFolder(dirname(path), 'the HTML report goes into');
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, html);
  } catch (err) {
    throw new DecidekitError(
      'write_failed',
      `cannot write the HTML report ${file} (${writeFailureReason(path, err)})`,
      {
        cause: err,
      },
    );
  }
  io.stderr.write(`HTML report written to ${file}\n`);
}
