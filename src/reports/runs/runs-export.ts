import type { BenchRun } from '../../core/bench/run.js';
import { decisionRowsOfRun, type DecisionRow } from '../../core/export/decision-row.js';

/** Every decision of the run, in run order, in the export schema (`core/export/decision-row.ts`). */
export function runExportRows(run: BenchRun): DecisionRow[] {
  return [...decisionRowsOfRun(run)];
}

/** `runs export --format jsonl`: one decision a line, unrounded numbers. Empty run: empty text. */
export function renderRunExportJsonl(run: BenchRun): string {
  return runExportRows(run)
    .map((row) => `${JSON.stringify(row)}\n`)
    .join('');
}
