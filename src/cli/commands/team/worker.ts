import { performance } from 'node:perf_hooks';
import { decimal, defineCommand, flag, integer, MAX_TIMER_SECONDS, text } from '../../define-command.js';
import { given } from '../../../core/given.js';
import { DEFAULT_LEASE_SEC, runWorker, stopWords, type WorkerReporter } from '../../../app/team/run-worker.js';
import type { ShardEnd } from '../../../app/team/send-shard.js';
import { benchResumeCommand } from '../../../core/command-hints.js';
import { SHARD_STOP_LIMIT } from '../../../store/queue/shard-queue.js';
import { cacheDirOf, storePathOf } from '../../locations.js';
import { apiKeyOf } from '../../shared-options.js';
import { interruptedExitCode, type CliIo } from '../../io.js';
import { TOOL_VERSION } from '../../version.js';

export const command = defineCommand({
  name: 'worker',
  summary: "take and send shards of runs queued by 'bench --shards N'",
  usage: 'worker --store postgresql://USER@HOST/DB [--parallel N] [--until-empty]',
  description: `Takes shards of any queued run ('bench --store postgresql://… --shards N'
queues them) from the store's shard queue, one at a time, and sends their cases to the run's server, each
finished case saved to the store. Start as many workers as you like, on any machine that
reaches the store and the servers. A taken shard is leased and the lease renewed while it is
sent: a worker killed outright loses nothing, its shard is taken again once its lease is over,
and only the cases it had not saved are sent. Ctrl+C gives the shard back at once. A shard
its server stops (nothing listening, key refused …) is queued again after a wait while the
worker goes on to other shards; after ${SHARD_STOP_LIMIT} stops it is failed, and 'runs show' of its run says
why and how to queue it again. The worker
that saves a run's last case finishes the run. The password of the store URL may be given as
PGPASSWORD instead (it is never printed).`,
  handlesSignals: true,
  options: {
    store: text('URL', 'the PostgreSQL store holding the runs and their shard queue', {
      required: '--store postgresql://USER@HOST/DB is required: the store every worker shares',
    }),
    parallel: integer('N', "requests in flight (default: the run's own)", { min: 1, max: 1024 }),
    'until-empty': flag('stop once no shard is queued or being sent (default: wait for more)'),
    lease: decimal('SEC', "how long a taken shard stays this worker's without a renewal", {
      min: 1,
      max: MAX_TIMER_SECONDS,
      defaultText: String(DEFAULT_LEASE_SEC),
    }),
    'base-url': text('URL', "send to this server instead of the run's (a replica of the same model)"),
    'api-key': text('KEY', 'Bearer key (or env DECIDEKIT_API_KEY); never stored or printed'),
  },
  exitCodes: `0 stopped with the queue empty, 1 a shard failed for good (its server stopped it ${SHARD_STOP_LIMIT} times) or the store stopped the worker, 2 usage error, 130 interrupted (143 by SIGTERM).`,
  examples: [
    'decidekit worker --store postgresql://bench@db.internal/decidekit',
    'decidekit worker --store postgresql://bench@db.internal/decidekit \\\n    --parallel 16 --until-empty',
  ],
  async run({ values: v }, io) {
    const storeUrl = storePathOf(v.store, io);
    const outcome = await runWorker({
      storeUrl,
      untilEmpty: v['until-empty'],
      ...given({
        parallel: v.parallel,
        leaseSec: v.lease,
        baseUrl: v['base-url'],
        apiKey: apiKeyOf(v['api-key'], io),
      }),
      cacheDir: cacheDirOf(io),
      toolVersion: TOOL_VERSION,
      signal: io.signal,
      now: () => performance.now(),
      reporter: workerReporter(io, storeUrl),
    });
    const failed = outcome.failedShards === 0 ? '' : `, ${outcome.failedShards} failed`;
    io.stderr.write(
      `decidekit worker: ${outcome.shards} shard${outcome.shards === 1 ? '' : 's'} sent${failed}, ${outcome.cases} case${outcome.cases === 1 ? '' : 's'} saved\n`,
    );
    if (outcome.interrupted) return interruptedExitCode(io.signal);
    return outcome.failedShards === 0 ? 0 : 1;
  },
});

/** One line a shard taken and ended, one a run finished (no progress bar: many workers share a terminal's worth of logs). */
function workerReporter(io: CliIo, store: string): WorkerReporter {
  const name = (s: { shard: number; of: number; runId: string }) => `shard ${s.shard} of ${s.of} of run ${s.runId}`;
  return {
    onShard: (shard, cases) => io.stderr.write(`decidekit worker: took ${name(shard)} (${cases} cases)\n`),
    onShardEnd: (shard, end) => io.stderr.write(`decidekit worker: ${name(shard)}: ${endWords(end)}\n`),
    onRunFinished: (runId, status) => io.stderr.write(`decidekit worker: run ${runId} ${status}\n`),
    onShardDropped: (s) =>
      io.stderr.write(
        `decidekit worker: run ${s.runId} is no longer in the store: its shard ${s.shard} of ${s.of} is dropped\n`,
      ),
    onShardSetAside: (shard, setAside) => {
      switch (setAside.kind) {
        case 'queued-again':
          io.stderr.write(
            `decidekit worker: ${name(shard)}: queued again in ${setAside.inSec} s (stop ${setAside.stops} of ${setAside.limit})\n`,
          );
          return;
        case 'failed':
          io.stderr.write(
            `decidekit worker: ${name(shard)} failed after ${setAside.stops} stops; once its server answers, queue it again with: ${benchResumeCommand(shard.runId, { store })}\n`,
          );
          return;
        case 'lease-lost':
          io.stderr.write(`decidekit worker: ${name(shard)}: its lease ran out; another worker has it now\n`);
          return;
      }
    },
  };
}

function endWords(end: ShardEnd): string {
  switch (end.kind) {
    case 'sent':
      return `done (${end.cases} cases sent)`;
    case 'interrupted':
      return `interrupted after ${end.cases} cases; given back to the queue`;
    case 'lease-lost':
      return `its lease ran out after ${end.cases} cases; another worker has it now`;
    case 'stopped':
      return `stopped after ${end.cases} cases: ${stopWords(end)}`;
  }
}
