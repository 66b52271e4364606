/**
 * A suite's runs compared as `runs compare` and `runs gate` compare stored runs: per dataset,
 * the complete runs ranked (two or more), and every other model's run against the
 * baseline's, paired, gated when the suite has a gate. A comparison the runs refuse (a run
 * missing or unfinished) is kept as such: the gate fails on it.
 */
import { DecidekitError } from '../../core/errors.js';
import { words } from '../../core/message-words.js';
import type { AskedBy } from '../../store/record-kind.js';
import type { Suite, SuiteModel } from '../../core/team/suite.js';
import {
  suiteGatePasses,
  type SuiteComparison,
  type SuiteJobResult,
  type SuiteLeaderboard,
  type SuiteOutcome,
} from '../../core/team/suite-outcome.js';
import {
  compareStoredRuns,
  gateStoredRuns,
  readStoredRunsToCompare,
  type IncomparableHints,
} from '../runs/stored-runs.js';
import { runsCompareForceCommand, suiteResumeCommand } from '../../core/command-hints.js';

type Compared = Pick<SuiteOutcome, 'leaderboards' | 'comparisons' | 'gatePassed'>;

export function compareSuiteRuns(
  suite: Suite,
  ran: readonly SuiteJobResult[],
  storePath: string,
  storeArg: string | null,
  baseline: SuiteModel,
  file: string,
): Compared {
  const askedBy: AskedBy = { command: 'suite', storeArg: storeArg ?? undefined };
  // A refusal's hints are commands that work pasted: the suite's own resume (its keys read
  // again from the variables the file names), and `runs compare`, as suite has no force option.
  const hints: IncomparableHints = {
    resume: () => suiteResumeCommand(file, storeArg),
    anyway: (a, b) => words`with: ${runsCompareForceCommand(a, b, storeArg)}`,
  };
  const leaderboards: SuiteLeaderboard[] = [];
  const comparisons: SuiteComparison[] = [];
  for (const dataset of suite.datasets) {
    const here = ran.filter((r) => r.job.dataset === dataset);
    const complete = here.flatMap((r) => (r.run.kind === 'run' && r.run.status === 'complete' ? [r.run.runId] : []));
    if (complete.length >= 2) {
      try {
        const { analyzed, rows } = readStoredRunsToCompare(storePath, complete, { force: false, askedBy, hints });
        const first = analyzed[0]!.statistics;
        leaderboards.push({
          kind: 'ranked',
          dataset: dataset.name,
          rows,
          conventions: first.conventions,
          cases: first.cases,
        });
      } catch (err) {
        if (!(err instanceof DecidekitError)) throw err;
        leaderboards.push({ kind: 'refused', dataset: dataset.name, words: err.words });
      }
    }
    const base = here.find((r) => r.job.model === baseline)!;
    for (const other of here) {
      if (other === base) continue;
      comparisons.push(compareOne(suite, dataset.name, base, other, storePath, askedBy, hints));
    }
  }
  return { leaderboards, comparisons, gatePassed: suite.gate === null ? null : suiteGatePasses(comparisons) };
}

function compareOne(
  suite: Suite,
  dataset: string,
  base: SuiteJobResult,
  other: SuiteJobResult,
  storePath: string,
  askedBy: AskedBy,
  hints: IncomparableHints,
): SuiteComparison {
  const names = { dataset, baseline: base.job.model.name, candidate: other.job.model.name };
  const missing = [base, other].find((r) => r.run.kind !== 'run');
  if (missing !== undefined)
    return { kind: 'refused', ...names, words: words`${missing.job.model.name} has no run on ${dataset}` };
  const [a, b] = [base, other].map((r) => (r.run.kind === 'run' ? r.run.runId : ''));
  try {
    if (suite.gate === null) {
      const comparison = compareStoredRuns(storePath, a!, b!, { force: false, askedBy, hints });
      return { kind: 'compared', ...names, comparison, gate: null };
    }
    const { comparison, gate } = gateStoredRuns(storePath, {
      baseline: a!,
      candidate: b!,
      metric: suite.gate.metric,
      maxDrop: suite.gate.maxDrop,
      askedBy,
      hints,
    });
    return { kind: 'compared', ...names, comparison, gate };
  } catch (err) {
    if (!(err instanceof DecidekitError)) throw err;
    return { kind: 'refused', ...names, words: err.words };
  }
}
