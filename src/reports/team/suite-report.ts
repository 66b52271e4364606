/**
 * `decidekit suite`: what each job did, then each dataset's leaderboard and the paired
 * comparisons against the baseline as `runs compare` prints them, each comparison's gate line
 * as `runs gate` prints it, and the suite's verdict. JSON: the same, in one document.
 */
import { jsonDocumentText } from '../../core/safe-text.js';
import type { MessageWords } from '../../core/message-words.js';
import type { SuiteComparison, SuiteJobRun, SuiteOutcome } from '../../core/team/suite-outcome.js';
import { METRIC_JSON_NAMES } from '../../core/bench/run-statistics.js';
import { createPalette, plural, singleLine } from '../format.js';
import { renderLeaderboard, renderLeaderboardJson } from '../runs/runs-leaderboard.js';
import { renderRunComparison, renderRunComparisonJson } from '../runs/runs-diff.js';
import { renderGateLine } from '../runs/runs-gate.js';

export interface SuiteReportOptions {
  readonly colour: boolean;
  /** The terminal's columns. Default none (a file or pipe). */
  readonly width?: number;
  /** Message words as the reader's interface spells options (flags on the command line). */
  readonly spell: (words: MessageWords) => string;
}

function describeJobRun(run: SuiteJobRun, spell: SuiteReportOptions['spell']): string {
  switch (run.kind) {
    case 'run': {
      const how = run.reused ? ' (finished earlier, reused)' : run.resumed ? ' (continued)' : '';
      return `run ${run.runId} ${run.status}${how}`;
    }
    case 'stopped':
      return `stopped: ${spell(run.words)}${run.runId === null ? '' : ` (run ${run.runId} kept as incomplete)`}`;
    case 'not_started':
      return 'not started (interrupted)';
  }
}

/** The suite's verdict: the gate's, or the comparisons' baseline when there is none. */
function describeVerdict(o: SuiteOutcome): string {
  const gate = o.suite.gate;
  if (gate === null)
    return `No gate: ${plural(o.comparisons.length, 'comparison')} against ${o.suite.models[0]!.name}.`;
  const failed = o.comparisons.filter((c) => !(c.kind === 'compared' && c.gate?.pass === true)).length;
  const of = `${failed} of ${plural(o.comparisons.length, 'check')} failed`;
  return o.gatePassed === true
    ? `Gate: PASS (${o.comparisons.length === 0 ? 'nothing to hold against ' + gate.baseline : `every model holds against ${gate.baseline}`}).`
    : `Gate: FAIL (${of}).`;
}

function comparisonTitle(c: SuiteComparison): string {
  return `${c.candidate} against ${c.baseline} on ${c.dataset}`;
}

/** The suite's report for a terminal or a file. */
export function renderSuite(o: SuiteOutcome, options: SuiteReportOptions): string {
  const p = createPalette(options.colour);
  const width = options.width === undefined ? {} : { width: options.width };
  const { models, datasets } = o.suite;
  const out: string[] = [
    p.bold(
      `Suite ${singleLine(o.suite.name)}: ${plural(models.length, 'model')} × ${plural(datasets.length, 'dataset')}`,
    ),
  ];
  for (const { job, run } of o.jobs)
    out.push(`  ${job.model.name} × ${job.dataset.name}: ${describeJobRun(run, options.spell)}`);
  out.push('');
  for (const board of o.leaderboards) {
    out.push(p.bold(`On ${board.dataset}`));
    if (board.kind === 'refused') out.push(`no leaderboard: ${options.spell(board.words)}`, '');
    else
      out.push(
        renderLeaderboard(board.rows, {
          colour: options.colour,
          conventions: board.conventions,
          cases: board.cases,
          ...width,
        }),
      );
  }
  for (const c of o.comparisons) {
    out.push(p.bold(comparisonTitle(c)));
    if (c.kind === 'refused') {
      out.push(`not compared: ${options.spell(c.words)}`, '');
      continue;
    }
    out.push(renderRunComparison(c.comparison, { colour: options.colour, ...width }));
  }
  const gate = o.suite.gate;
  if (gate !== null)
    for (const c of o.comparisons) {
      const line =
        c.kind === 'refused'
          ? `FAIL: not compared: ${options.spell(c.words)}\n`
          : renderGateLine(c.comparison, c.gate!, { metric: gate.metric, maxDrop: gate.maxDrop });
      out.push(`gate: ${comparisonTitle(c)}: ${line.trimEnd()}`);
    }
  out.push(describeVerdict(o));
  return `${out.join('\n')}\n`;
}

/** `decidekit suite --json`: the jobs' runs, the leaderboards and comparisons (as `runs compare --json`), the gate. */
export function renderSuiteJson(o: SuiteOutcome, spell: SuiteReportOptions['spell']): string {
  const gate = o.suite.gate;
  const document = {
    suite: o.suite.name,
    runs: o.jobs.map(({ job, run }) => ({
      model: job.model.name,
      dataset: job.dataset.name,
      label: job.label,
      run_id: run.kind === 'not_started' ? null : run.runId,
      status: run.kind === 'run' ? run.status : run.kind,
      reused: run.kind === 'run' && run.reused,
      resumed: run.kind === 'run' && run.resumed,
      stopped: run.kind === 'stopped' ? spell(run.words) : null,
    })),
    leaderboards: o.leaderboards.map((b) =>
      b.kind === 'refused'
        ? { dataset: b.dataset, refused: spell(b.words) }
        : {
            dataset: b.dataset,
            ...(JSON.parse(
              renderLeaderboardJson(b.rows, { colour: false, conventions: b.conventions, cases: b.cases }),
            ) as object),
          },
    ),
    comparisons: o.comparisons.map((c) => ({
      dataset: c.dataset,
      baseline: c.baseline,
      candidate: c.candidate,
      ...(c.kind === 'refused'
        ? { refused: spell(c.words) }
        : { comparison: JSON.parse(renderRunComparisonJson(c.comparison)) as object }),
    })),
    gate:
      gate === null
        ? null
        : {
            baseline: gate.baseline,
            metric: METRIC_JSON_NAMES[gate.metric],
            max_drop: gate.maxDrop,
            pass: o.gatePassed,
            checks: o.comparisons.map((c) => ({
              dataset: c.dataset,
              candidate: c.candidate,
              pass: c.kind === 'compared' && c.gate?.pass === true,
              ...(c.kind === 'compared' && c.gate !== null && !('missing' in c.gate)
                ? { worsening: c.gate.worsening, worsening_ci: [c.gate.interval.low, c.gate.interval.high] }
                : {}),
              ...(c.kind === 'refused' ? { refused: spell(c.words) } : {}),
            })),
          },
    all_complete: o.allComplete,
    interrupted: o.interrupted,
  };
  return `${jsonDocumentText(document)}\n`;
}
