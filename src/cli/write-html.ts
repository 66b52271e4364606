import type { CliIo } from './io.js';
import { writeFailureReason, writeTextFile } from '../app/write-text-file.js';

/**
 * Writes an HTML report to `path`, checked before the work by `outFileOf` (cli/out-file.ts),
 * through the one output writer, then names it on stderr so standard output keeps the
 * command's own report.
 */
export async function writeHtmlReport(io: CliIo, path: string, html: string): Promise<void> {
  const failure = (err: unknown): string => `cannot write the HTML report ${path} (${writeFailureReason(path, err)})`;
  await writeTextFile(path, html, 'the HTML report', { failure });
  io.stderr.write(`HTML report written to ${path}\n`);
}
