/**
 * The real CLI run in process (src/cli/test-support/in-process-cli.ts) in `cwd`, with the run
 * store's data home there too, so each test's runs stay in its own folder.
 */
import { runCliInProcess as runInProcess, type CliResult } from '../../src/cli/test-support/in-process-cli.js';

export type { CliResult };

export function runCliInProcess(argv: readonly string[], cwd: string): Promise<CliResult> {
  return runInProcess(argv, { cwd, env: { XDG_DATA_HOME: cwd } });
}
