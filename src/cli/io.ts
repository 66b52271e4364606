import { piecesOf } from '../core/text-pieces.js';

/** What a command may touch of the outside world; tests pass fakes. */
export interface CliIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborted on the first SIGINT/SIGTERM/SIGHUP; commands stop cleanly and keep what they finished. */
  readonly signal: AbortSignal;
  /**
   * The controlling terminal, present only when stdin and stdout are both one: full-screen
   * commands (`live`) draw through `openTerminalScreen` on it; others never touch it.
   */
  readonly terminal?: TerminalPorts;
  /**
   * Told when a command that does not watch for signals is left running after one: its work
   * may be on another thread waiting for this one (DuckDB calling a JavaScript function), so
   * the process must end without waiting for that work.
   */
  readonly leftRunning?: () => void;
}

/** The streams of the controlling terminal. */
export interface TerminalPorts {
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WriteStream;
}

export interface TextSink {
  write(text: string): void;
  readonly isTTY: boolean;
  /** Terminal width in columns, when known. */
  readonly columns?: number;
  /**
   * A promise while the sink holds more than it wants (a pipe read slower than it is
   * written), resolved once it drained; null when it takes more now. Absent: always null.
   */
  readonly whenDrained?: () => Promise<void> | null;
}

/** The signals that stop a command cleanly, with the exit code of each (128 + the signal's number). */
export const STOPPING_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

export type StoppingSignal = keyof typeof STOPPING_SIGNALS;

/**
 * Why `CliIo.signal` was aborted: a signal (SIGINT is Ctrl+C, SIGHUP a closed terminal) or
 * the reader of standard error going away (null, treated as Ctrl+C).
 */
export class Interruption extends Error {
  constructor(readonly signalName: StoppingSignal | null) {
    super(signalName === null ? 'standard error was closed' : `received ${signalName}`);
  }
}

/**
 * Exit code of an interrupted command, by Unix convention 128 + the signal: 143 for SIGTERM,
 * 129 for SIGHUP, else 130.
 */
export function interruptedExitCode(signal: AbortSignal): number {
  const name = signal.reason instanceof Interruption ? signal.reason.signalName : null;
  return name === null ? STOPPING_SIGNALS.SIGINT : STOPPING_SIGNALS[name];
}

/**
 * What a command that does not watch `io.signal` returns: its own exit code, or the
 * interrupted one as soon as the signal aborts, telling `io.leftRunning` when the command is
 * still under way (the process then ends by the signal, whatever the command had running).
 */
export function endsWhenInterrupted(work: Promise<number>, io: Pick<CliIo, 'signal' | 'leftRunning'>): Promise<number> {
  let finished = false;
  const tracked = work.finally(() => (finished = true));
  const interrupted = new Promise<number>((resolve) => {
    const stop = (): void => {
      if (!finished) io.leftRunning?.();
      resolve(interruptedExitCode(io.signal));
    };
    if (io.signal.aborted) stop();
    else io.signal.addEventListener('abort', stop, { once: true });
  });
  return Promise.race([tracked, interrupted]);
}

/** Colour only on a TTY and never under NO_COLOR (any value) or TERM=dumb. */
export function colourEnabled(sink: TextSink, env: CliIo['env']): boolean {
  return sink.isTTY && env['NO_COLOR'] === undefined && env['TERM'] !== 'dumb';
}

/**
 * A long document written in pieces of about 32 K characters (the whole text is never one
 * string), waiting for a slow reader: a pipe does not pile up the document in memory.
 */
export async function writeInPieces(sink: TextSink, chunks: Iterable<string>): Promise<void> {
  for (const piece of piecesOf(chunks)) {
    sink.write(piece);
    const drained = sink.whenDrained?.() ?? null;
    if (drained !== null) await drained;
  }
}
