import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { defineCommand, flag } from '../define-command.js';
import { given } from '../../core/given.js';
import { suiteResumeCommand } from '../../core/command-hints.js';
import type { SuiteJob } from '../../core/team/suite.js';
import type { SuiteOutcome } from '../../core/team/suite-outcome.js';
import { readSuiteFile } from '../../app/team/read-suite.js';
import { runSuite, type SuiteReporter } from '../../app/team/run-suite.js';
import { renderBenchStart } from '../../reports/bench/bench-messages.js';
import { renderSuite, renderSuiteJson } from '../../reports/team/suite-report.js';
import { colourEnabled, interruptedExitCode, writeInPieces, type CliIo } from '../io.js';
import { cacheDirOf, storePathOf } from '../locations.js';
import { spellForCli } from '../option-flags.js';
import { storeOption } from '../shared-options.js';
import { thisProcess } from '../this-process.js';
import { TOOL_VERSION } from '../version.js';

export const command = defineCommand({
  name: 'suite',
  summary: 'run every model of a suite file on every dataset, rank them, compare and gate',
  usage: 'suite FILE [--store PATH] [--resume] [--json]',
  description: `Reads a suite file (JSON, or YAML for .yaml and .yml; docs/suite.md): models (a
server's base URL, the model name, and the NAME of the environment variable holding its key,
never the key), datasets and options, and a gate. Checks the file whole and asks every
server's /health before any work. Then benchmarks every model on every dataset as ordinary
stored runs ('runs list' shows them, labelled "suite NAME: MODEL × DATASET"): runs against
different servers at once, runs against the same server one after another. Prints each
dataset's leaderboard and every model against the gate's baseline, paired (as 'runs
compare'), and the gate's line for each (as 'runs gate'). An interrupted suite is taken up
again with --resume: the finished runs recorded for it are reused and its unfinished ones
continued.`,
  handlesSignals: true,
  options: {
    store: storeOption,
    resume: flag("reuse this suite's finished runs in the store and continue its unfinished ones"),
    json: flag('print the outcome as one JSON document'),
  },
  positionals: { min: 1, max: 1, names: 'one suite file' },
  exitCodes:
    "0 every run complete and the gate passes, 1 the gate fails (as 'runs gate'), a run did not finish or invalid input, 2 usage error, 130 interrupted (143 by SIGTERM).",
  examples: [
    'decidekit suite examples/suite.json',
    'TEAM_KEY=... decidekit suite nightly.json --store team.sqlite --resume',
  ],
  async run({ values, positionals }, io) {
    const file = positionals[0]!;
    const read = await readSuiteFile(resolve(io.cwd, file), { shown: file, env: io.env });
    const outcome = await runSuite(read, {
      storePath: storePathOf(values.store, io),
      storeArg: values.store ?? null,
      resume: values.resume,
      env: io.env,
      cacheDir: cacheDirOf(io),
      toolVersion: TOOL_VERSION,
      signal: io.signal,
      now: () => performance.now(),
      claimOwner: thisProcess(),
      reporter: suiteReporter(io),
    });
    await writeInPieces(
      io.stdout,
      values.json
        ? renderSuiteJson(outcome, spellForCli)
        : renderSuite(outcome, {
            colour: colourEnabled(io.stdout, io.env),
            spell: spellForCli,
            ...given({ width: io.stdout.columns }),
          }),
    );
    return exitCodeOf(outcome, io, file, values.store);
  },
});

/** One line a job's start, note and end on stderr (runs go at once: no progress bars). */
function suiteReporter(io: CliIo): SuiteReporter {
  const name = (job: SuiteJob) => `decidekit suite: ${job.model.name} × ${job.dataset.name}`;
  return {
    bench: (job) => ({
      onStart: (start) =>
        io.stderr.write(`${name(job)}: ${renderBenchStart(start).replace(/^decidekit bench: /, '')}\n`),
      onNote: (_note, words) => io.stderr.write(`${name(job)}: note: ${spellForCli(words)}\n`),
    }),
    onJobEnd: (job, run) => {
      if (run.kind === 'run' && !run.reused) io.stderr.write(`${name(job)}: run ${run.runId} ${run.status}\n`);
    },
  };
}

/** 0 when every run is complete and the gate (if any) passes; 1 otherwise, as `runs gate`; 130/143 when interrupted. */
function exitCodeOf(outcome: SuiteOutcome, io: CliIo, file: string, store: string | undefined): number {
  // --resume is offered only when it has something to take up: a job not started, or a run kept unfinished.
  const resumable = outcome.jobs.some(
    ({ run }) =>
      run.kind === 'not_started' || (run.kind === 'stopped' ? run.runId !== null : run.status !== 'complete'),
  );
  if (outcome.interrupted || !outcome.allComplete)
    io.stderr.write(
      resumable
        ? `decidekit suite: not every run finished; take the suite up again with: ${suiteResumeCommand(file, store)}\n`
        : 'decidekit suite: not every run finished, and none was kept to take up again\n',
    );
  if (outcome.interrupted) return interruptedExitCode(io.signal);
  if (outcome.gatePassed === false || !outcome.allComplete) return 1;
  return 0;
}
