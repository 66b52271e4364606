/**
 * `bench --shards N` and `bench --resume RUN` of a run sent in shards: the run planned and
 * stored, its cases queued for `decidekit worker` processes, and the command a worker
 * machine runs printed. The bench command calls this through the command list (the bench
 * room never imports the team room).
 */
import {
  enqueueMissing,
  enqueueShardedRun,
  refuseShardsWithoutPostgres,
  type EnqueuedRun,
} from '../../../app/team/enqueue-shards.js';
import { benchResumeCommand, runsShowCommand, workerCommand } from '../../../core/command-hints.js';
import type { ShardedBench } from '../bench.js';
import type { CliIo } from '../../io.js';
import { TOOL_VERSION } from '../../version.js';

export const shardedBench: ShardedBench = async ({ request, shards, cacheDir }, io) => {
  if (request.resume !== undefined) {
    refuseShardsWithoutPostgres(request.storePath);
    const queued = await enqueueMissing(request.storePath, request.resume, {
      ...(shards === undefined ? {} : { shards }),
      retryFailed: request.retryFailed === true,
    });
    if (queued === null) return null;
    printQueued(queued, io, true);
    return 0;
  }
  if (shards === undefined) return null;
  printQueued(await enqueueShardedRun(request, shards, { toolVersion: TOOL_VERSION, cacheDir }), io, false);
  return 0;
};

function printQueued(queued: EnqueuedRun, io: CliIo, resumed: boolean): void {
  const { runId, shards, cases, total, store } = queued;
  if (shards === 0)
    io.stdout.write(
      `run ${runId}: nothing to queue: each of its ${total} cases is saved or in a shard queued or being sent\n`,
    );
  else
    io.stdout.write(
      `run ${runId}: ${resumed ? 'queued again' : 'queued'} ${cases} of ${total} cases as ${shards} shard${shards === 1 ? '' : 's'}\n`,
    );
  io.stdout.write(`On each worker machine, run:\n  ${workerCommand(store)}\n`);
  if (queued.passwordNotShown) io.stdout.write('  (with the store password in PGPASSWORD: it is never printed)\n');
  io.stdout.write(`Follow it with: ${runsShowCommand(runId, store)}\n`);
  if (!resumed) {
    const again = benchResumeCommand(runId, { store });
    io.stderr.write(`decidekit bench: a stopped distributed run is queued again with: ${again}\n`);
  }
}
