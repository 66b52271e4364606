import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import {
  decimal,
  defineCommand,
  flag,
  integer,
  integers,
  list,
  MAX_LABEL_CHARACTERS,
  MAX_TIMER_SECONDS,
  text,
} from '../define-command.js';
import { given } from '../../core/given.js';
import { cacheDirOf } from '../locations.js';
import {
  apiKeyOf,
  benchDatasetOf,
  benchDatasetOption,
  keptInStoreOptions,
  keptStorePathOf,
  modelServerOptions,
  outputPathOption,
} from '../shared-options.js';
import { TOOL_VERSION } from '../version.js';
import { thisProcess } from '../this-process.js';
import { conventionChoiceOf, seedOption, statisticsOptions } from '../statistics-options.js';
import { planBenchFromStore, executeBench } from '../../app/bench/execute-bench.js';
import { benchReporter, printBenchOutcome } from '../bench-console.js';
import { UsageError } from '../../core/errors.js';
import { isPostgresUrl } from '../../core/store-url.js';
import type { BenchRequest } from '../../app/bench/plan-bench.js';
import type { Command } from '../define-command.js';
import type { CliIo } from '../io.js';

/**
 * The `--shards` branch (a run queued for workers: the team room's), handed in by the
 * command list, so this room never imports it. It returns the exit code, or null for a
 * resumed run that was never sent in shards (this process then continues it).
 */
export type ShardedBench = (
  input: {
    readonly request: BenchRequest;
    readonly shards: number | undefined;
    readonly storeArg: string | null;
    readonly cacheDir: string;
  },
  io: CliIo,
) => Promise<number | null>;

/** `--base-url`, repeatable: several are replicas of one model sharing the run's cases. */
const baseUrlsOption = list(
  'URL',
  'server base URL (endpoint: <URL>/v1/systemone); give several for replicas of one model\n(each takes the next case when it has room; default: embedded reference server)',
  { example: 'http://127.0.0.1:8080' },
);

/** `--parallel`, repeatable: once for every server, or once per `--base-url`, in their order. */
const parallelOption = integers(
  'N',
  'requests in flight to each server (a resumed run keeps its own);\ngive one per --base-url, in their order, for each replica its own',
  { min: 1, max: 1024, defaultText: '1' },
);

/** `--calibration MAP`: not with `--shards` (the workers score as they store, without a map). */
const calibrationOption = {
  ...text(
    'MAP',
    'apply a calibration map written by decidekit calibrate RUN --out before scoring\n(answers stored raw; a resumed run re-applies its own)',
  ),
  conflictsWith: ['shards'],
};

const resumeOption = text(
  'RUN',
  "continue a stored run: send only the cases without a saved answer;\ndataset, filters, server and model default to the run's own",
);

/** A million dollars per million input tokens: far above any price, far below an overflow. */
const MAX_PRICE_PER_MTOK_USD = 1_000_000;

/** `bench` without the `--shards` branch (a library or test importing the command itself). */
export const command = createBenchCommand();

/** `bench`, with `sharded` loading the `--shards` branch when it is used. */
export function createBenchCommand(sharded?: () => Promise<ShardedBench>): Command {
  return defineCommand({
    name: 'bench',
    summary: 'benchmark a decision model server on Typed Decisions (default: the built-in server)',
    usage: 'bench [options]',
    description: `Without --base-url, starts the built-in reference server on a free loopback port and
benchmarks its default model on the bundled synthetic sample.`,
    handlesSignals: true,
    options: {
      ...modelServerOptions('embedded reference server'),
      'base-url': baseUrlsOption,
      dataset: benchDatasetOption,
      parallel: parallelOption,
      timeout: decimal('SEC', 'per-request timeout in seconds', {
        above: 0,
        max: MAX_TIMER_SECONDS,
        defaultText: '60',
      }),
      retries: integer('N', 'retries of 429/502/503/504', { min: 0, max: 10, defaultText: '2' }),
      limit: integer('N', 'only the first N cases of the file (a filtered run, never compared with a full one)', {
        min: 1,
      }),
      sample: integer('N', 'a seeded sample of N cases spread over every workflow (a filtered run)', { min: 1 }),
      workflow: text('W', 'only cases of workflow W (filtered run)'),
      // Bounded so a run's cost stays a finite number (a price near 1e308 overflowed to n/a).
      'price-per-mtok': decimal('USD', 'price per million input tokens: total cost and cost per correct decision', {
        min: 0,
        max: MAX_PRICE_PER_MTOK_USD,
      }),
      out: outputPathOption(text('DIR', 'write <run>.json, <run>.md and <run>.html into DIR'), 'folder'),
      ...keptInStoreOptions('run'),
      label: text('TEXT', "a label shown in 'decidekit runs list'", { maxLength: MAX_LABEL_CHARACTERS }),
      resume: resumeOption,
      'retry-failed': flag('with --resume, also re-send cases that failed'),
      calibration: calibrationOption,
      redact: flag('show the server host as <redacted> in reports'),
      json: flag('print the run as one JSON document; progress as JSON lines on stderr'),
      ...statisticsOptions,
      seed: seedOption(
        'seed of --sample, of the bootstrap intervals and of the ECE noise floor\n(stored with the run)',
      ),
      shards: {
        ...integer('N', "queue the run as N shards for 'decidekit worker' processes (a PostgreSQL --store)", {
          min: 1,
          max: 10_000,
        }),
        conflictsWith: ['no-store', 'out', 'json'],
      },
    },
    exitCodes: '0 complete, 1 incomplete run or invalid input, 2 usage error, 130 interrupted (143 by SIGTERM).',
    examples: [
      'decidekit bench',
      'decidekit bench --base-url http://127.0.0.1:8080 --model laya \\\n' + '    --parallel 8 --out reports/',
      'decidekit bench --resume 20261130-041512-ab12',
      'decidekit bench --base-url http://gpu1:8080 --parallel 16 \\\n' + '    --base-url http://gpu2:8080 --parallel 4',
    ],
    async run({ values: v }, io) {
      // Parse: the request as given (a stored run's own settings fill the rest when resuming).
      const request = {
        ...given({
          baseUrl: v['base-url'][0],
          replicaUrls: v['base-url'].length > 1 ? v['base-url'].slice(1) : undefined,
          model: v.model,
          apiKey: apiKeyOf(v['api-key'], io),
          dataset: await benchDatasetOf(v.dataset, io, 'bench'),
          parallel: v.parallel.length === 1 ? v.parallel[0] : undefined,
          parallelByReplica: v.parallel.length > 1 ? v.parallel : undefined,
          timeoutSec: v.timeout,
          retries: v.retries,
          limit: v.limit,
          workflow: v.workflow,
          sample: v.sample === undefined ? undefined : { cases: v.sample, seed: v.seed ?? 1 },
          pricePerMtokUsd: v['price-per-mtok'],
          label: v.label,
          resume: v.resume,
          // Resolved, so a resume from another folder finds the same file.
          calibrationPath: v.calibration === undefined ? undefined : resolve(io.cwd, v.calibration),
        }),
        retryFailed: v['retry-failed'],
        storePath: keptStorePathOf(v, io),
        conventions: conventionChoiceOf(v),
      };
      const distributed =
        v.shards !== undefined ||
        (request.resume !== undefined && request.storePath !== null && isPostgresUrl(request.storePath));
      if (v.shards !== undefined && v['base-url'].length > 1)
        throw new UsageError(
          "--shards sends to one --base-url: give it one, and start each worker with the replica it sends to (worker's --base-url); or give the replicas to a bench without --shards",
        );
      if (sharded === undefined && v.shards !== undefined)
        throw new UsageError('--shards is not available in this build of the bench command');
      if (sharded !== undefined && distributed) {
        const code = await (
          await sharded()
        )({ request, shards: v.shards, storeArg: v.store ?? null, cacheDir: cacheDirOf(io) }, io);
        if (code !== null) return code;
      }
      // Plan, execute, print.
      const outcome = await executeBench(await planBenchFromStore(request), {
        toolVersion: TOOL_VERSION,
        cacheDir: cacheDirOf(io),
        signal: io.signal,
        now: () => performance.now(),
        ...(v.out === undefined ? {} : { outDir: resolve(io.cwd, v.out) }),
        redactHost: v.redact,
        statistics: { choice: conventionChoiceOf(v), intervals: !v['no-ci'] },
        readCases: v.json,
        claimOwner: thisProcess(),
        reporter: benchReporter(io, v.json),
      });
      return printBenchOutcome(outcome, io, {
        json: v.json,
        redactHost: v.redact,
        storeOption: v.store ?? null,
        stored: request.storePath !== null,
      });
    },
  });
}
