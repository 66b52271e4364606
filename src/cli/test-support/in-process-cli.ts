/** Runs the CLI in this process through `runCli(argv, io)`, capturing what it writes. */
import { given } from '../../core/given.js';
import { runCli } from '../run-cli.js';
import type { CliIo, TerminalPorts } from '../io.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface InProcessOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  readonly signal?: AbortSignal;
  /** Called with all of stdout so far after each write (e.g. to abort after N lines). */
  readonly onStdout?: (text: string) => void;
  /** Called with all of stderr so far after each write (e.g. to abort on a progress line). */
  readonly onStderr?: (text: string) => void;
  readonly isTTY?: boolean;
  readonly columns?: number;
  /** A controlling terminal (stdin and stdout one), e.g. `fakeTerminal` of ./fake-terminal.ts. */
  readonly terminal?: TerminalPorts;
}

/**
 * Options that run the CLI in `folder` with the run store's data home there too
 * (`XDG_DATA_HOME`), so a test's default store and relative paths stay in its own folder.
 */
export function inFolder(folder: string): InProcessOptions {
  return { cwd: folder, env: { XDG_DATA_HOME: folder } };
}

export async function runCliInProcess(argv: readonly string[], options: InProcessOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const tty = options.isTTY === true;
  const io: CliIo = {
    stdout: {
      write: (t) => {
        stdout += t;
        options.onStdout?.(stdout);
      },
      isTTY: tty,
      ...given({ columns: options.columns }),
    },
    stderr: {
      write: (t) => {
        stderr += t;
        options.onStderr?.(stderr);
      },
      isTTY: tty,
      ...given({ columns: options.columns }),
    },
    env: { NO_COLOR: '1', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal ?? new AbortController().signal,
    ...given({ terminal: options.terminal }),
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}
