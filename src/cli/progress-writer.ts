import type { RunProgress } from '../core/bench/progress.js';
import { renderProgressBar, renderProgressEvent, renderProgressLine } from '../reports/bench/progress.js';
import type { TextSink } from './io.js';
import type { WorkReporter } from '../app/work-reporter.js';

export type ProgressMode = 'bar' | 'lines' | 'json' | 'off';

/**
 * The one writer of benchmark progress, as the cases and the end of a reporter
 * (`WorkReporter`): a redrawn bar on a TTY, periodic lines otherwise, JSON lines with `--json`.
 * JSON lines come for the first case and at every hundredth of the cases (about 100 a run,
 * whatever its size), and the progress last seen is always written: when the last case is done, or at the end of
 * sending when it stopped early.
 */
export type ProgressWriter = Required<Pick<WorkReporter<unknown, RunProgress>, 'onCase' | 'onFinish'>>;

export function createProgressWriter(
  sink: TextSink,
  mode: ProgressMode,
  options: { colour: boolean; now: () => number; intervalMs?: number },
): ProgressWriter {
  let last = -Infinity;
  let drawn = false;
  const interval = options.intervalMs ?? (mode === 'bar' ? 80 : 2000);
  /** JSON: the last progress seen and whether it was written; the cases done at the next line due. */
  let seen: RunProgress | null = null;
  let seenWritten = true;
  let nextJsonAt = 0;
  const writeJson = (progress: RunProgress) => {
    sink.write(`${renderProgressEvent(progress)}\n`);
    seenWritten = true;
    const step = Math.max(1, Math.ceil(progress.casesTotal / 100));
    nextJsonAt = (Math.floor(progress.casesDone / step) + 1) * step;
  };
  return {
    onCase(progress) {
      if (mode === 'off') return;
      const t = options.now();
      const final = progress.casesDone === progress.casesTotal;
      if (mode === 'json') {
        seen = progress;
        seenWritten = false;
        if (final || progress.casesDone >= nextJsonAt) writeJson(progress);
        return;
      }
      if (!final && t - last < interval) return;
      last = t;
      if (mode === 'bar') {
        const columns = sink.columns !== undefined && sink.columns > 0 ? sink.columns : 80;
        const width = Math.max(40, Math.min(columns, 120) - 1);
        sink.write(`\r${renderProgressBar(progress, width, options.colour)}\x1b[K`);
        drawn = true;
      } else {
        sink.write(`${renderProgressLine(progress)}\n`);
      }
    },
    /** Clears the bar (if any) so the report starts on a clean line. */
    onFinish() {
      if (mode === 'json' && seen !== null && !seenWritten) writeJson(seen);
      if (drawn) sink.write('\r\x1b[K');
      drawn = false;
    },
  };
}
