/** Everything `bench` prints once a run has finished: the report and the lines around it. */
import { given } from '../../core/given.js';
import type { FinishedBench } from '../../core/bench/finished-bench.js';
import { renderBenchJsonChunks } from './bench-json.js';
import { renderBenchEnding } from './bench-messages.js';
import { renderBenchTerminal } from './bench-terminal.js';

export interface FinishedBenchOptions {
  readonly json: boolean;
  readonly redactHost: boolean;
  /** `--store` as the user gave it (repeated in hints), or null for the default store. */
  readonly storeOption: string | null;
  /** False without a store (`--no-store`). */
  readonly stored: boolean;
  readonly colour: boolean;
  readonly width?: number;
}

/**
 * The report for standard output (one JSON document in pieces, or the terminal report) and
 * the lines for standard error: the files written, then the resume or show hint.
 */
export function renderFinishedBench(
  o: FinishedBench,
  options: FinishedBenchOptions,
): { readonly stdout: Iterable<string>; readonly stderr: readonly string[] } {
  const { run } = o;
  const stdout = options.json
    ? renderBenchJsonChunks(run, { statistics: o.statistics, redactHost: options.redactHost }, o.decisionRows)
    : [
        renderBenchTerminal(run, {
          colour: options.colour,
          redactHost: options.redactHost,
          statistics: o.statistics,
          ...given({ width: options.width }),
        }),
      ];
  const ending = renderBenchEnding(
    {
      runId: run.id,
      saved: o.saved,
      storeOption: options.storeOption,
      stored: options.stored,
      interrupted: o.interrupted,
      casesKept: run.cases.length,
      casesTotal: o.casesTotal,
      failedCases: run.summary.requests.failed,
      complete: run.summary.status === 'complete',
      writeError: o.writeError,
      credentials: run.config.credentials ?? null,
    },
    { quiet: options.json },
  );
  const wrote = o.written.length > 0 && !options.json ? [`wrote ${o.written.join(' and ')}`] : [];
  return { stdout, stderr: [...wrote, ...ending] };
}
