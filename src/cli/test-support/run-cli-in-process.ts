/**
 * The real CLI, in process: `runCli(argv, io)` with captured output, so CLI tests exercise
 * the current source (never a stale build) without spawning Node. Spawned tests remain for
 * what needs a process: signals, exit codes and the installed bin.
 */
import { runCli } from '../run-cli.js';

export interface CliOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface InProcessOptions {
  /** Added to this process's environment (with NO_COLOR=1). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  readonly signal?: AbortSignal;
  /** Pretend standard error is a terminal (progress lines). */
  readonly stderrIsTTY?: boolean;
}

export async function runCliInProcess(argv: readonly string[], options: InProcessOptions = {}): Promise<CliOutcome> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: options.stderrIsTTY ?? false },
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal ?? new AbortController().signal,
  });
  return { code, stdout, stderr };
}
