import type { Command } from '../command.js';
import { command as runs } from './runs.js';

/** `decidekit report RUN` is `decidekit runs report RUN`, the name the benchmark docs use. */
export const command: Command = {
  name: 'report',
  summary: "re-render a stored run's report (same as 'runs report')",
  help: `decidekit report: re-render a stored benchmark run's report

Usage: decidekit report RUN [--format terminal|markdown|json|html] [--out FILE] [--redact] [--store PATH]

RUN is a run id or a unique prefix of one (see 'decidekit runs list'). The Markdown report
includes state previews in its trace when the run's dataset is still at hand.

Example:
  decidekit report 20261130-0415 --format markdown --out report.md
  decidekit report 20261130-0415 --format html --out report.html
`,
  run: (argv, io) => runs.run(['report', ...argv], io),
};
