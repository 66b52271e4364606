/**
 * A run spread over many machines, its first half: `bench --shards N` plans the run as
 * `bench` does (the same dataset scan, case selection and configuration, so the same
 * fingerprint), stores it, and queues its cases as N shards on the store's shard queue
 * (`store/queue/`). Workers (`run-worker.ts`) send them. `bench --resume RUN` of such a run
 * queues again what is neither saved nor in a shard still queued or being sent.
 */
import { DecidekitError, OptionError } from '../../core/errors.js';
import { isPostgresUrl, shownStoreUrl, urlHasPassword } from '../../core/store-url.js';
import { optionMention as option, words } from '../../core/message-words.js';
import { createSystemOneClient, isRunStopping } from '../../protocol/client/client.js';
import type { EndpointIdentity } from '../../core/endpoint-identity.js';
import { baseUrlOf } from '../../protocol/wire/endpoint.js';
import { scanBenchDataset } from '../../datasets/typed-decisions/load-bench-dataset.js';
import { openStore } from '../../store/open-store.js';
import { openShardQueue, type ShardData } from '../../store/queue/shard-queue.js';
import { planBenchFromStore } from '../bench/execute-bench.js';
import { runConfigOf, selectCases, type BenchRequest } from '../bench/plan-bench.js';
import { datasetSourceOf } from '../dataset-choice.js';

/** The most shards a run is cut into. */
export const MAX_SHARDS = 10_000;

export interface EnqueuedRun {
  readonly runId: string;
  /** Shards queued now (fewer than asked when there are fewer cases). */
  readonly shards: number;
  /** Cases in those shards. */
  readonly cases: number;
  /** Cases of the run in all. */
  readonly total: number;
  /** The store as shown (without its password). */
  readonly store: string;
  /** The store URL carries a password, which is never printed: workers need it given again. */
  readonly passwordNotShown: boolean;
}

export interface EnqueueOptions {
  readonly toolVersion: string;
  readonly cacheDir?: string;
  readonly clock?: () => Date;
}

/** Refuses a sharded run on a store that is not a PostgreSQL database (workers on other machines reach no file). */
export function refuseShardsWithoutPostgres(storePath: string | null): asserts storePath is string {
  if (storePath === null || !isPostgresUrl(storePath))
    throw new OptionError(
      'shards',
      words`${option('shards')} needs a PostgreSQL store that every worker reaches: give ${option('storePath', 'postgresql://USER@HOST/DB')}`,
    );
}

/** Plans the run as `bench` would, stores it and queues its cases in `shards` shards. */
export async function enqueueShardedRun(
  request: BenchRequest,
  shards: number,
  options: EnqueueOptions,
): Promise<EnqueuedRun> {
  refuseShardsWithoutPostgres(request.storePath);
  const url = request.storePath;
  const plan = await planBenchFromStore(request);
  const { info, questionSet, entries } = await scanBenchDataset(datasetSourceOf(plan.dataset, options.cacheDir));
  const selected = selectCases(entries, plan);
  const endpoint =
    plan.server.kind === 'remote' ? await stopUnlessServerAnswers(plan.server.baseUrl, plan.timeoutMs) : null;
  const config = runConfigOf(plan, {
    toolVersion: options.toolVersion,
    dataset: { dataset: info, questionSet },
    cases: selected,
    endpoint,
  });
  const queue = await openShardQueue(url);
  try {
    const store = openStore(url);
    try {
      const createdAt = (options.clock?.() ?? new Date()).toISOString();
      const { id } = store.runs.create({ config, label: plan.label, createdAt });
      const data = shardsOf(id, config.caseIds, shards);
      try {
        await queue.enqueue(data);
      } catch (err) {
        store.runs.delete(id);
        throw err;
      }
      return enqueued(url, id, data, config.caseIds.length);
    } finally {
      store.close();
    }
  } finally {
    await queue.close();
  }
}

/**
 * Stops, as a plain bench stops (the same error), when nothing answers at `baseUrl`; else the
 * client's endpoint identity. Called before a run is stored or its cases queued. Any HTTP
 * answer will do, and a failure a plain bench would only record against a case (a timeout, a
 * dropped connection) is left to the workers.
 */
async function stopUnlessServerAnswers(baseUrl: string, timeoutMs: number): Promise<EndpointIdentity> {
  const client = createSystemOneClient({ baseUrl, timeoutMs });
  try {
    await client.post('').catch((err: unknown) => {
      if (isRunStopping(err)) throw err;
    });
    return client.identity;
  } finally {
    await client.close();
  }
}

/**
 * A sharded run resumed: the cases neither saved (with `retryFailed`, answered) nor in a
 * shard still queued or being sent, queued again in up to `shards` shards. Null when the
 * run was never sent in shards (a plain resume then continues it in this process).
 */
export async function enqueueMissing(
  url: string,
  prefix: string,
  input: { readonly shards?: number; readonly retryFailed: boolean },
): Promise<EnqueuedRun | null> {
  const queue = await openShardQueue(url);
  try {
    const store = openStore(url, { mustExist: true });
    try {
      const runId = store.resolveId(prefix, 'run');
      const counts = await queue.countsOf(runId);
      const everShards = counts.queued + counts.sending + counts.done + counts.failed;
      if (everShards === 0 && input.shards === undefined) return null;
      const info = store.runs.info(runId)!;
      const kept = input.retryFailed
        ? store.cases.byOutcome(runId).answered
        : store.cases.savedIds(runId, { includeFailed: true });
      const pending = await queue.pendingCaseIds(runId);
      const missing = info.config.caseIds.filter((id) => !kept.has(id) && !pending.has(id));
      const data = shardsOf(runId, missing, input.shards ?? Math.max(1, everShards)).map((d) =>
        input.retryFailed ? { ...d, retryFailed: true } : d,
      );
      if (data.length > 0) {
        // The workers will send them to the run's server: as a fresh sharded run does, stop
        // here while nothing answers there rather than queue shards bound to fail.
        if (info.config.embeddedServer === null)
          await stopUnlessServerAnswers(baseUrlOf(info.config.endpoint), info.config.timeoutMs);
        // Cases sent again replace their failed results; the run is running until they are saved.
        store.runs.reopen(runId);
        await queue.enqueue(data);
        // Their cases are in the new shards: the failed ones are no longer the run's to show.
        await queue.forgetFailed(runId);
      }
      return enqueued(url, runId, data, info.config.caseIds.length);
    } finally {
      store.close();
    }
  } finally {
    await queue.close();
  }
}

/** `caseIds` cut into `shards` runs of consecutive cases, as even as can be. */
export function shardsOf(runId: string, caseIds: readonly string[], shards: number): ShardData[] {
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_SHARDS)
    throw new DecidekitError('invalid_input', `a run is cut into 1 to ${MAX_SHARDS} shards, not ${shards}`);
  const n = Math.min(shards, caseIds.length);
  const out: ShardData[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * caseIds.length) / n);
    const to = Math.floor(((i + 1) * caseIds.length) / n);
    out.push({ runId, shard: i + 1, of: n, caseIds: caseIds.slice(from, to) });
  }
  return out;
}

function enqueued(url: string, runId: string, data: readonly ShardData[], total: number): EnqueuedRun {
  return {
    runId,
    shards: data.length,
    cases: data.reduce((n, s) => n + s.caseIds.length, 0),
    total,
    store: shownStoreUrl(url),
    passwordNotShown: urlHasPassword(url),
  };
}
