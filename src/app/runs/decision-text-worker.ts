/**
 * The worker thread of `decision-text-pipes.ts`: opens the store read-only and writes the
 * run's text (`StoreCases.decisionCsv`) into the named pipes DuckDB reads, one after the
 * other, a pipe of about `pipeBytes` at a time. A write waits while DuckDB has not read what
 * the pipe holds, so this thread and DuckDB's `COPY` run side by side and no text is kept.
 * The pipes the text did not reach are opened and closed empty, so DuckDB reads each to its
 * end. It replies once, `{ offered }`, `{ failed }` or `{ stale }`, and ends. A worker whose text
 * format (`decision-text-format.ts`) is not the one the exporter reads (a compiled worker older
 * than the sources that started it) replies `{ stale }` at once, having touched no pipe.
 */
import { closeSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../../store/open-store.js';
import { decisionTextFormat, textSplitter } from './decision-text-format.js';

export interface DecisionTextWorkerData {
  readonly storePath: string;
  readonly runId: string;
  readonly pipes: readonly string[];
  readonly pipeBytes: number;
  readonly caseDecisions: boolean;
  /** The text format the exporter reads (`decisionTextFormat()` of its code). */
  readonly format: string;
}

/**
 * `offered`: what `decisionCsv` returned; `failed`: the text stopped on an error (a pipe DuckDB
 * closed, a store error); `stale`: this worker makes another text format than the exporter
 * reads, and wrote nothing.
 */
export type DecisionTextWorkerReply =
  { readonly offered: boolean } | { readonly failed: string } | { readonly stale: string };

function writeText(data: DecisionTextWorkerData): DecisionTextWorkerReply {
  const format = decisionTextFormat();
  // Before any pipe is opened: the exporter lets DuckDB go from the pipes a worker left.
  if (data.format !== format) return { stale: `the worker makes text format ${format}, not ${String(data.format)}` };
  let next = 0;
  const pipes = textSplitter(
    () => openSync(data.pipes[next++]!, 'w'),
    data.pipeBytes,
    () => next < data.pipes.length,
  );
  try {
    const store = openStore(data.storePath, { mustExist: true, readOnly: true });
    try {
      return { offered: store.cases.decisionCsv(data.runId, pipes.write, { caseDecisions: data.caseDecisions }) };
    } finally {
      store.close();
    }
  } catch (err) {
    return { failed: err instanceof Error ? err.message : String(err) };
  } finally {
    pipes.close();
    // Waits for DuckDB to open each (or, when DuckDB has stopped, for the exporter to).
    for (; next < data.pipes.length; next++) {
      try {
        closeSync(openSync(data.pipes[next]!, 'w'));
      } catch {
        // A pipe removed by the exporter: nothing waits on it.
      }
    }
  }
}

parentPort?.postMessage(writeText(workerData as DecisionTextWorkerData));
