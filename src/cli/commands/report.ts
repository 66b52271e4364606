import { defineCommand } from '../define-command.js';
import { reportSpec } from './runs/report.js';

/** `decidekit report RUN` is `decidekit runs report RUN`, the name the benchmark docs use. */
export const command = defineCommand({
  ...reportSpec('report'),
  summary: "re-render a stored run's report (same as 'runs report')",
  usage:
    'report RUN [--format terminal|markdown|json|html] [--out FILE] [--redact] [--calibration MAP] [--no-ci] [--ece-bins N] [--ece-binning B] [--ece-average A] [--seed S] [--store PATH]',
  examples: [
    'decidekit report 20261130-0415 --format markdown --out report.md',
    'decidekit report 20261130-0415 --ece-bins 15 --ece-binning equal-mass',
  ],
});
