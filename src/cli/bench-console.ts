/**
 * What `bench` shows around its use case: the start line, progress (a bar on a terminal,
 * lines when piped, JSON lines with `--json`) and notes on stderr while it runs; then the
 * finished run on stdout and the exit code. The numbers come from `app/bench`, the words from
 * `reports/bench`; this is only where they meet the terminal.
 */
import { performance } from 'node:perf_hooks';
import type { BenchOutcome, BenchReporter } from '../app/bench/execute-bench.js';
import { renderBenchStart } from '../reports/bench/bench-messages.js';
import { renderFinishedBench } from '../reports/bench/bench-report.js';
import { colourEnabled, interruptedExitCode, writeInPieces, type CliIo } from './io.js';
import { spellForCli } from './option-flags.js';
import { benchResumeCommand } from '../core/command-hints.js';
import { createProgressWriter } from './progress-writer.js';
import { fitLines } from '../reports/text-fit.js';

/** The reporter that shows a running benchmark on stderr. */
export function benchReporter(io: CliIo, json: boolean): BenchReporter {
  const progress = createProgressWriter(io.stderr, json ? 'json' : io.stderr.isTTY ? 'bar' : 'lines', {
    colour: colourEnabled(io.stderr, io.env),
    now: () => performance.now(),
  });
  return {
    onStart: (start) =>
      json ? undefined : io.stderr.write(`${fitLines([renderBenchStart(start)], io.stderr.columns)}\n`),
    onCase: (p) => progress.onCase(p),
    onFinish: () => progress.onFinish(),
    onNote: (_note, words) => io.stderr.write(`decidekit bench: note: ${spellForCli(words)}\n`),
  };
}

/**
 * Prints a benchmark's outcome and returns the exit code: 0 for a complete run whose
 * `--out` files were written, 1 for a stopped or incomplete run or an unwritten `--out`,
 * 130/143 when interrupted.
 */
export async function printBenchOutcome(
  outcome: BenchOutcome,
  io: CliIo,
  options: {
    readonly json: boolean;
    readonly redactHost: boolean;
    readonly storeOption: string | null;
    readonly stored: boolean;
  },
): Promise<number> {
  if (outcome.kind === 'stopped') {
    io.stderr.write(`decidekit bench: stopped: ${spellForCli(outcome.words)}\n`);
    if (outcome.incompleteRunId !== null)
      io.stderr.write(
        `run ${outcome.incompleteRunId} is kept as incomplete; resume with: ${benchResumeCommand(outcome.incompleteRunId, { retryFailed: true, store: options.storeOption })}\n`,
      );
    return 1;
  }
  try {
    const text = renderFinishedBench(outcome, {
      ...options,
      colour: colourEnabled(io.stdout, io.env),
      ...(io.stdout.columns ? { width: io.stdout.columns } : {}),
    });
    await writeInPieces(io.stdout, text.stdout);
    for (const line of text.stderr) io.stderr.write(`${line}\n`);
  } finally {
    outcome.dispose();
  }
  if (outcome.interrupted) return interruptedExitCode(io.signal);
  return outcome.writeError === null && outcome.run.summary.status === 'complete' ? 0 : 1;
}
