import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import type { BenchRequest } from '../../app/bench/plan-bench.js';
import { decimal, defineCommand, flag, integer, text } from '../define-command.js';
import { colourEnabled, interruptedExitCode, writeInPieces } from '../io.js';
import { given } from '../given.js';
import { cacheDirOf, datasetChoiceOf } from '../locations.js';
import {
  apiKeyOf,
  benchDatasetOption,
  keptInStoreOptions,
  keptStorePathOf,
  modelServerOptions,
} from '../shared-options.js';
import { TOOL_VERSION } from '../version.js';
import { conventionChoiceOf, statisticsOptions } from '../statistics-options.js';

/** Node timers hold at most 2^31 - 1 ms (about 24.8 days). */
const MAX_TIMEOUT_SEC = Math.floor((2 ** 31 - 1) / 1000);

export const command = defineCommand({
  name: 'bench',
  summary: 'benchmark a decision model server on Typed Decisions (default: the built-in server)',
  usage: 'bench [options]',
  description: `Without --base-url, starts the built-in reference server on a free loopback port and
benchmarks its default model on the bundled synthetic sample.`,
  handlesSignals: true,
  options: {
    ...modelServerOptions('embedded reference server'),
    dataset: benchDatasetOption,
    parallel: integer('N', 'requests in flight (a resumed run keeps its own)', { min: 1, max: 1024, defaultText: '1' }),
    timeout: decimal('SEC', 'per-request timeout in seconds', { above: 0, max: MAX_TIMEOUT_SEC, defaultText: '60' }),
    retries: integer('N', 'retries of 429/502/503/504', { min: 0, max: 10, defaultText: '2' }),
    limit: integer('N', 'only the first N cases of the file (a filtered run, never compared with a full one)', {
      min: 1,
    }),
    sample: integer('N', 'a seeded sample of N cases spread over every workflow (a filtered run)', { min: 1 }),
    workflow: text('W', 'only cases of workflow W (filtered run)'),
    'price-per-mtok': decimal('USD', 'price per million input tokens: total cost and cost per correct decision', {
      min: 0,
    }),
    out: text('DIR', 'write <run>.json, <run>.md and <run>.html into DIR'),
    ...keptInStoreOptions('run'),
    label: text('TEXT', "a label shown in 'decidekit runs list'"),
    resume: text(
      'RUN',
      "continue a stored run: send only the cases without a saved answer;\ndataset, filters, server and model default to the run's own",
    ),
    'retry-failed': flag('with --resume, also re-send cases that failed'),
    redact: flag('show the server host as <redacted> in reports'),
    json: flag('print the run as one JSON document; progress as JSON lines on stderr'),
    ...statisticsOptions,
    seed: integer(
      'S',
      'seed of --sample, of the bootstrap intervals and of the ECE noise floor\n(stored with the run)',
      {
        min: 0,
        max: 2 ** 32 - 1,
        defaultText: '1',
      },
    ),
  },
  exitCodes: '0 complete, 1 incomplete run or invalid input, 2 usage error, 130 interrupted (143 by SIGTERM).',
  examples: [
    'decidekit bench',
    'decidekit bench --base-url http://127.0.0.1:8080 --model laya --parallel 8 --out reports/',
    'decidekit bench --resume 20261130-041512-ab12',
  ],
  async run({ values: v }, io) {
    const apiKey = apiKeyOf(v['api-key'], io);
    const request: BenchRequest = {
      ...given({
        baseUrl: v['base-url'],
        model: v.model,
        apiKey,
        dataset: v.dataset === undefined ? undefined : datasetChoiceOf(v.dataset, io),
        parallel: v.parallel,
        timeoutSec: v.timeout,
        retries: v.retries,
        limit: v.limit,
        workflow: v.workflow,
        sample: v.sample === undefined ? undefined : { cases: v.sample, seed: v.seed ?? 1 },
        pricePerMtokUsd: v['price-per-mtok'],
        label: v.label,
        resume: v.resume,
      }),
      retryFailed: v['retry-failed'],
      storePath: keptStorePathOf(v, io),
      conventions: conventionChoiceOf(v),
    };
    if (request.dataset?.kind === 'path') {
      const { refuseWrongFiles } = await import('../wrong-file.js');
      await refuseWrongFiles(
        [{ option: '--dataset', path: request.dataset.path, expects: 'typed-decisions' }],
        io.cwd,
        'bench',
      );
    }
    const { planBenchFromStore, executeBench } = await import('../../app/bench/execute-bench.js');
    const { renderBenchStart } = await import('../../reports/bench/bench-messages.js');
    const { createProgressWriter } = await import('../progress-writer.js');
    const say = (line: string) => (v.json ? undefined : io.stderr.write(`${line}\n`));
    const progress = createProgressWriter(io.stderr, v.json ? 'json' : io.stderr.isTTY ? 'bar' : 'lines', {
      colour: colourEnabled(io.stderr, io.env),
      now: () => performance.now(),
    });
    const outcome = await executeBench(await planBenchFromStore(request), {
      toolVersion: TOOL_VERSION,
      cacheDir: cacheDirOf(io),
      signal: io.signal,
      now: () => performance.now(),
      ...(v.out === undefined ? {} : { outDir: resolve(io.cwd, v.out) }),
      redactHost: v.redact,
      statistics: { choice: conventionChoiceOf(v), intervals: !v['no-ci'] },
      onStart: (start) => say(renderBenchStart(start)),
      onProgress: (p) => progress.update(p),
      onSent: () => progress.finish(),
      onNote: (note) => io.stderr.write(`decidekit bench: note: ${note}\n`),
      readCases: v.json,
    });
    if (outcome.kind === 'stopped') {
      io.stderr.write(`decidekit bench: stopped: ${outcome.message}\n`);
      return 1;
    }
    try {
      const { renderFinishedBench } = await import('../../reports/bench/bench-report.js');
      const text = renderFinishedBench(outcome, {
        json: v.json,
        redactHost: v.redact,
        storeOption: v.store ?? null,
        colour: colourEnabled(io.stdout, io.env),
        ...(io.stdout.columns ? { width: io.stdout.columns } : {}),
      });
      await writeInPieces(io.stdout, text.stdout);
      for (const line of text.stderr) io.stderr.write(`${line}\n`);
    } finally {
      outcome.dispose();
    }
    if (outcome.interrupted) return interruptedExitCode(io.signal);
    return outcome.writeError === null && outcome.run.summary.status === 'complete' ? 0 : 1;
  },
});
