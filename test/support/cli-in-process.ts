/** The real CLI, run in process through `runCli` with captured output. */
import { runCli } from '../../src/cli/run-cli.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runCliInProcess(argv: readonly string[], cwd: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (t) => void (stdout += t), isTTY: false },
    stderr: { write: (t) => void (stderr += t), isTTY: false },
    env: { NO_COLOR: '1', XDG_DATA_HOME: cwd },
    cwd,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}
