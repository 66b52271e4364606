/**
 * `decidekit worker`: takes shards of any queued run from the store's shard queue and sends
 * them (`send-shard.ts`), one shard at a time, until stopped (Ctrl+C gives the shard being
 * sent back to the queue) or, with `untilEmpty`, until no shard is left queued or taken.
 * The worker that saves a run's last case finishes the run (its summary from the stored
 * cases, as `bench --resume` sums a run). Delivery is at least once: a shard may be sent
 * by a second worker after the first died, and then only its cases not saved are sent;
 * the store keeps one result per (run, case), the last saved. A shard its server stops
 * (nothing listening there, key refused …) is put back for later and the worker goes on to
 * other shards; a shard stopped too often is failed for good, its reason kept for `runs show`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunProgress } from '../../core/bench/progress.js';
import { DecidekitError, OptionError } from '../../core/errors.js';
import { optionMention as option, words } from '../../core/message-words.js';
import { isPostgresUrl } from '../../core/store-url.js';
import { createSystemOneClient } from '../../protocol/client/client.js';
import { baseUrlOf } from '../../protocol/wire/endpoint.js';
import { startReferenceServer } from '../../protocol/server/server.js';
import { scanBenchDataset } from '../../datasets/typed-decisions/load-bench-dataset.js';
import { checkResumable } from '../../store/resume-check.js';
import { openStore } from '../../store/open-store.js';
import { openShardQueue, type SetAsideShard, type ShardData, type ShardQueue } from '../../store/queue/shard-queue.js';
import { summarizeRun } from '../../store/run-summary.js';
import type { Store } from '../../store/store.js';
import { datasetChoiceOf } from '../bench/plan-bench.js';
import { datasetSourceOf } from '../dataset-choice.js';
import { wiringOf, type UseCaseWiring } from '../use-case-wiring.js';
import { sendShard, type RunSetup, type ShardEnd } from './send-shard.js';

/** A shard's lease when none is given: long enough for a stalled moment, short enough to lose little time. */
export const DEFAULT_LEASE_SEC = 60;
/** How often an idle worker asks the queue for a shard. */
const IDLE_POLL_MS = 500;

export interface WorkerOptions extends Partial<UseCaseWiring> {
  /** The store (a PostgreSQL URL) whose queue the worker takes shards from. */
  readonly storeUrl: string;
  /** Requests in flight. Default: the run's own `parallel`. */
  readonly parallel?: number;
  /** Stop once no shard is queued or taken (default: wait for more). */
  readonly untilEmpty?: boolean;
  /** A taken shard's lease in seconds, renewed while it is sent. Default 60. */
  readonly leaseSec?: number;
  /** Send to this server instead of the run's (a replica of the same model). */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly cacheDir?: string;
  readonly clock?: () => Date;
  readonly reporter?: WorkerReporter;
}

export interface WorkerReporter {
  readonly onShard?: (shard: ShardData, toSend: number) => void;
  readonly onCase?: (progress: RunProgress) => void;
  readonly onShardEnd?: (shard: ShardData, end: ShardEnd) => void;
  readonly onRunFinished?: (runId: string, status: string) => void;
  /** A shard of a run no longer in the store, taken off the queue unsent. */
  readonly onShardDropped?: (shard: ShardData) => void;
  /** A shard its server stopped, queued again for later or failed for good. */
  readonly onShardSetAside?: (shard: ShardData, setAside: SetAsideShard) => void;
}

export interface WorkerOutcome {
  readonly shards: number;
  readonly cases: number;
  /** Shards this worker failed for good: their server stopped them too often. */
  readonly failedShards: number;
  readonly interrupted: boolean;
}

/** Runs a worker until stopped, or (with `untilEmpty`) until the queue is empty. */
export async function runWorker(asked: WorkerOptions): Promise<WorkerOutcome> {
  const options = wiringOf(asked);
  if (!isPostgresUrl(options.storeUrl))
    throw new OptionError(
      'storePath',
      words`a worker takes shards from the queue of a PostgreSQL store: give ${option('storePath', 'postgresql://USER@HOST/DB')}`,
    );
  const leaseSec = options.leaseSec ?? DEFAULT_LEASE_SEC;
  if (!(leaseSec >= 1)) throw new OptionError('leaseSec', words`${option('leaseSec')} is at least 1 second`);
  const store = openStore(options.storeUrl, { mustExist: true });
  let queue: ShardQueue | null = null;
  const setups = new Map<string, RunSetup>();
  let shards = 0;
  let cases = 0;
  let failedShards = 0;
  try {
    // The upkeep that finds a dead worker's lease over runs a few times a lease.
    queue = await openShardQueue(options.storeUrl, { upkeep: true, upkeepIntervalSec: leaseSec / 4 });
    while (!options.signal.aborted) {
      const shard = await queue.take(leaseSec);
      if (shard === null) {
        if (options.untilEmpty === true && (await queue.unfinished()) === 0) break;
        await sleep(IDLE_POLL_MS, undefined, { signal: options.signal }).catch(() => undefined);
        continue;
      }
      if (store.runs.head(shard.data.runId) === null) {
        // The run was deleted after it was queued: its shards have nothing left to fill.
        await queue.complete(shard);
        options.reporter?.onShardDropped?.(shard.data);
        continue;
      }
      let setup: RunSetup;
      try {
        setup = await setupOf(setups, store, shard.data.runId, options);
      } catch (err) {
        await queue.giveBack(shard, 'the worker could not read the run');
        throw err;
      }
      options.reporter?.onShard?.(shard.data, shard.data.caseIds.length);
      const end = await sendShard({
        store,
        queue,
        shard,
        setup,
        parallel: options.parallel ?? setup.config.parallel,
        leaseSec,
        signal: options.signal,
        now: options.now,
        ...(options.reporter?.onCase === undefined ? {} : { onCase: options.reporter.onCase }),
      });
      cases += end.cases;
      options.reporter?.onShardEnd?.(shard.data, end);
      if (end.kind === 'lease-lost') continue;
      if (end.kind === 'stopped') {
        // Put back for later (or failed for good): the worker goes on to other shards.
        const setAside = await queue.setAside(shard, stopWords(end));
        if (setAside.kind === 'failed') failedShards++;
        options.reporter?.onShardSetAside?.(shard.data, setAside);
        if (setAside.kind === 'failed') await stopIfNothingLeft(store, queue, shard.data.runId, setup, options);
        continue;
      }
      if (end.kind === 'interrupted') {
        await queue.giveBack(shard, end.kind);
        break;
      }
      await queue.complete(shard);
      shards++;
      if (!finishIfAllSaved(store, shard.data.runId, setup, options.clock?.() ?? new Date(), options.reporter))
        await stopIfNothingLeft(store, queue, shard.data.runId, setup, options);
    }
    return { shards, cases, failedShards, interrupted: options.signal.aborted };
  } finally {
    for (const s of setups.values()) await s.close();
    await queue?.close();
    store.close();
  }
}

/** What the worker needs to send a run's shards: read on its first shard, kept for the next. */
async function setupOf(
  setups: Map<string, RunSetup>,
  store: Store,
  runId: string,
  options: WorkerOptions,
): Promise<RunSetup> {
  const known = setups.get(runId);
  if (known !== undefined) return known;
  const info = store.runs.info(runId);
  if (info === null)
    throw new DecidekitError('unknown_run', `a queued shard names run ${runId}, which the store does not hold`);
  const { config } = info;
  const scanned = await scanBenchDataset(datasetSourceOf(datasetChoiceOf(config), options.cacheDir));
  const check = checkResumable(config, { ...config, dataset: scanned.info, questionSet: scanned.questionSet });
  if (!check.ok) throw new DecidekitError('not_resumable', `cannot send run ${runId}: ${check.reasons.join('; ')}`);
  const server =
    config.embeddedServer === null || options.baseUrl !== undefined
      ? null
      : await startReferenceServer({ host: '127.0.0.1', port: 0, model: config.embeddedServer.model });
  const client = createSystemOneClient({
    baseUrl: options.baseUrl ?? server?.url ?? baseUrlOf(config.endpoint),
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(config.model === null ? {} : { model: config.model }),
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    connections: options.parallel ?? config.parallel,
  });
  const setup: RunSetup = {
    config,
    dataset: scanned,
    entryOf: new Map(scanned.entries.map((e) => [e.id, e])),
    client,
    close: async () => {
      await client.close();
      await server?.close();
    },
  };
  setups.set(runId, setup);
  return setup;
}

/**
 * A run some of whose shards failed for good, with none left queued or being sent: nothing
 * will save its missing cases until `bench --resume` queues them again, so it is finished as
 * incomplete (from its saved cases) rather than left said to be running.
 */
async function stopIfNothingLeft(
  store: Store,
  queue: ShardQueue,
  runId: string,
  { config }: RunSetup,
  options: WorkerOptions,
): Promise<void> {
  const counts = await queue.countsOf(runId);
  if (counts.failed === 0 || counts.queued > 0 || counts.sending > 0) return;
  if (store.runs.info(runId) === null || store.runs.head(runId)?.status !== 'running') return;
  finishFromSaved(store, runId, config, options.clock?.() ?? new Date(), 'incomplete');
}

/** The run finished once every case has a saved result: summed from the store, as a resumed run is. True when it was. */
function finishIfAllSaved(
  store: Store,
  runId: string,
  { config }: RunSetup,
  now: Date,
  reporter: WorkerReporter | undefined,
): boolean {
  const saved = store.cases.savedIds(runId, { includeFailed: true });
  if (config.caseIds.some((id) => !saved.has(id))) return false;
  const summary = finishFromSaved(store, runId, config, now);
  reporter?.onRunFinished?.(runId, summary.status);
  return true;
}

/**
 * Finishes the run with the summary of its saved cases (summed as a resumed run is), timed
 * from its creation to `now`; `status` in place of the summary's own when given.
 */
function finishFromSaved(
  store: Store,
  runId: string,
  config: RunSetup['config'],
  now: Date,
  status?: 'incomplete',
): ReturnType<typeof summarizeRun> {
  const info = store.runs.info(runId)!;
  const summed = summarizeRun(config, store.cases.iterate(runId));
  const summary = status === undefined ? summed : { ...summed, status };
  store.runs.finish(runId, {
    status: summary.status,
    durationMs: Math.max(0, now.getTime() - Date.parse(info.createdAt)),
    summary,
  });
  return summary;
}

/** What stopped a shard, in words (the server's error message). */
export function stopWords(end: Extract<ShardEnd, { kind: 'stopped' }>): string {
  return end.error instanceof Error ? end.error.message : String(end.error);
}
