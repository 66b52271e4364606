import type { RunProgress } from '../core/bench/progress.js';
import { renderProgressBar, renderProgressEvent, renderProgressLine } from '../reports/bench/progress.js';
import type { TextSink } from './io.js';
import type { WorkReporter } from '../app/work-reporter.js';

export type ProgressMode = 'bar' | 'lines' | 'json' | 'off';

/**
 * The one writer of benchmark progress, as the cases and the end of a reporter
 * (`WorkReporter`): a redrawn bar on a TTY, periodic lines otherwise, JSON lines with `--json`.
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
  return {
    onCase(progress) {
      if (mode === 'off') return;
      const t = options.now();
      const final = progress.casesDone === progress.casesTotal;
      if (mode === 'json') {
        sink.write(`${renderProgressEvent(progress)}\n`);
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
      if (drawn) sink.write('\r\x1b[K');
      drawn = false;
    },
  };
}
