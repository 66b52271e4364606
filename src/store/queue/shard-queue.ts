/**
 * The queue of a distributed run's shards: pg-boss 10 (a maintained job queue on
 * PostgreSQL) in its own schema of the store's database, so the shards live beside the run
 * they fill and every machine that reaches the store reaches the queue. docs/workers.md says
 * why pg-boss, and how a shard moves: queued, taken (a lease), done or given back.
 *
 * A taken shard is leased: the worker renews the lease while it sends; a worker that dies
 * stops renewing, pg-boss's maintenance fails the job once the lease is over and it is
 * queued again for another worker. pg-boss 10 has no call to renew a job's expiry, so
 * `renew` updates the job's row itself (its `started_on` and `expire_in`, the two columns the
 * expiry rule of pg-boss 10 reads), guarded by the retry count the take gave: a worker whose
 * lease ran out and was taken by another never renews the other's lease.
 */
import type PgBoss from 'pg-boss';
import { DecidekitError } from '../../core/errors.js';
import { shownStoreUrl } from '../../core/store-url.js';

/** The one queue every distributed run's shards go to. */
export const SHARD_QUEUE = 'decidekit-shards';
/** The schema pg-boss keeps its tables in (not pg-boss's default, which another tool may use). */
export const SHARD_QUEUE_SCHEMA = 'decidekit_queue';
/** How often a shard given back (Ctrl+C, a dead worker's lease) may be taken again. */
const RETRY_LIMIT = 1000;
/** The lease of a shard queued but not yet renewed by a worker that took it. */
const FIRST_LEASE_SEC = 300;
/** How often a shard's server may stop it (nothing listening, key refused …) before the shard is failed for good. */
export const SHARD_STOP_LIMIT = 3;
/** A stopped shard waits this many seconds times its stops so far before a worker takes it again. */
const STOP_DELAY_SEC = 5;

/** What one shard is: a part of a stored run's cases. */
export interface ShardData {
  readonly runId: string;
  /** 1-based number among `of`, for messages. */
  readonly shard: number;
  readonly of: number;
  readonly caseIds: readonly string[];
  /** Send its cases whose saved request failed too (`bench --resume --retry-failed`). */
  readonly retryFailed?: boolean;
  /** How often its server stopped it so far (absent: never). */
  readonly stops?: number;
}

/** A shard its server stopped, put back: queued again after a wait, or failed for good. */
export type SetAsideShard =
  | { readonly kind: 'queued-again'; readonly stops: number; readonly limit: number; readonly inSec: number }
  | { readonly kind: 'failed'; readonly stops: number }
  /** The lease ran out first: another worker has the shard now. */
  | { readonly kind: 'lease-lost' };

/** A shard no worker takes again, and why, when its server stopped it. */
export interface FailedShard {
  readonly shard: number;
  readonly of: number;
  /** What stopped it the last time (null: it was given back or its lease ran out too often). */
  readonly reason: string | null;
  readonly stops: number | null;
}

/** A shard a worker took, with what renewing its lease needs. */
export interface TakenShard {
  readonly jobId: string;
  readonly data: ShardData;
  readonly retryCount: number;
}

/** A run's shards by where they are. */
export interface ShardCounts {
  /** Waiting for a worker (new, or given back). */
  readonly queued: number;
  /** Taken by a worker, its lease current or not yet found expired. */
  readonly sending: number;
  readonly done: number;
  /** Stopped by its server too often, or given back more often than the queue allows: no worker takes it again. */
  readonly failed: number;
  /** The failed ones, in shard order. */
  readonly failures: readonly FailedShard[];
}

export interface ShardQueueOptions {
  /**
   * How often this process runs the queue's upkeep (expiring leases that are over) when no
   * other process did it meanwhile. Default 10 seconds; a short lease wants a short interval.
   */
  readonly upkeepIntervalSec?: number;
  /** Run the upkeep at all (workers do; a command that only enqueues or reads need not). */
  readonly upkeep?: boolean;
}

/** The shard queue in the database at `url` (the store's URL), started. */
export async function openShardQueue(url: string, options: ShardQueueOptions = {}): Promise<ShardQueue> {
  // Loaded here, not with the module: a command that never uses the queue skips its load.
  const { default: PgBossClass } = await import('pg-boss');
  const boss = new PgBossClass({
    connectionString: url.trim(),
    application_name: 'decidekit',
    schema: SHARD_QUEUE_SCHEMA,
    max: 4,
    supervise: options.upkeep === true,
    schedule: false,
    maintenanceIntervalSeconds: Math.max(1, Math.round(options.upkeepIntervalSec ?? 10)),
    archiveCompletedAfterSeconds: 7 * 24 * 3600,
  });
  const shown = shownStoreUrl(url);
  let lastError: unknown = null;
  // pg-boss reports upkeep failures as events; one without a listener would end the process.
  boss.on('error', (err) => void (lastError = err));
  try {
    await boss.start();
    await ensureQueue(boss);
  } catch (err) {
    await boss.stop({ graceful: false, close: true }).catch(() => undefined);
    throw queueError(shown, err);
  }
  return new ShardQueue(boss, shown, () => lastError);
}

async function ensureQueue(boss: PgBoss): Promise<void> {
  if ((await boss.getQueue(SHARD_QUEUE)) !== null) return;
  try {
    await boss.createQueue(SHARD_QUEUE, { name: SHARD_QUEUE, retryLimit: RETRY_LIMIT, retryDelay: 0 });
  } catch (err) {
    // Another process created it meanwhile.
    if ((await boss.getQueue(SHARD_QUEUE)) === null) throw err;
  }
}

const COUNT_STATES = `SELECT state::text AS state, count(*)::int AS n FROM (
    SELECT state FROM ${SHARD_QUEUE_SCHEMA}.job WHERE name = $1 AND data->>'runId' = $2
    UNION ALL SELECT state FROM ${SHARD_QUEUE_SCHEMA}.archive WHERE name = $1 AND data->>'runId' = $2
  ) s GROUP BY state`;

const FAILED_SHARDS = `SELECT data, output FROM (
    SELECT data, output FROM ${SHARD_QUEUE_SCHEMA}.job WHERE name = $1 AND data->>'runId' = $2 AND state = 'failed'
    UNION ALL SELECT data, output FROM ${SHARD_QUEUE_SCHEMA}.archive WHERE name = $1 AND data->>'runId' = $2 AND state = 'failed'
  ) f ORDER BY (data->>'shard')::int`;

function countsOfRows(
  rows: readonly Record<string, unknown>[],
  failedRows: readonly Record<string, unknown>[],
): ShardCounts {
  const of = (...states: string[]) =>
    rows.filter((r) => states.includes(String(r['state']))).reduce((n, r) => n + Number(r['n']), 0);
  return {
    queued: of('created', 'retry'),
    sending: of('active'),
    done: of('completed'),
    failed: of('failed'),
    failures: failedRows.map(failedShardOf),
  };
}

function failedShardOf(row: Record<string, unknown>): FailedShard {
  const data = row['data'] as ShardData;
  const output = (row['output'] ?? {}) as Record<string, unknown>;
  const stops = output['stops'];
  const reason = output['reason'];
  return {
    shard: data.shard,
    of: data.of,
    reason: typeof stops === 'number' && typeof reason === 'string' ? reason : null,
    stops: typeof stops === 'number' ? stops : null,
  };
}

/**
 * The shards of `runId` in the store at `url`, read without starting the queue (a read
 * creates nothing); null when the run was never sent in shards.
 */
export async function readShardCounts(url: string, runId: string): Promise<ShardCounts | null> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url.trim(), application_name: 'decidekit' });
  try {
    await client.connect();
    const exists = await client.query(`SELECT to_regclass('${SHARD_QUEUE_SCHEMA}.archive') IS NOT NULL AS ok`);
    if (exists.rows[0]?.ok !== true) return null;
    const counts = countsOfRows(
      (await client.query(COUNT_STATES, [SHARD_QUEUE, runId])).rows,
      (await client.query(FAILED_SHARDS, [SHARD_QUEUE, runId])).rows,
    );
    return counts.queued + counts.sending + counts.done + counts.failed === 0 ? null : counts;
  } catch (err) {
    throw queueError(shownStoreUrl(url), err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function queueError(shown: string, err: unknown): DecidekitError {
  const why = err instanceof Error ? err.message.replace(/postgres(ql)?:\/\/\S+/gi, shown) : String(err);
  return new DecidekitError('shard_queue', `cannot use the shard queue in ${shown}: ${why}`, { cause: err });
}

export class ShardQueue {
  constructor(
    private readonly boss: PgBoss,
    /** The store's URL without its password. */
    readonly shown: string,
    private readonly upkeepError: () => unknown,
  ) {}

  /** Queues the shards (in one statement: all or none). */
  async enqueue(shards: readonly ShardData[]): Promise<void> {
    await this.call(() =>
      this.boss.insert(
        shards.map((data) => ({
          name: SHARD_QUEUE,
          data,
          retryLimit: RETRY_LIMIT,
          retryDelay: 0,
          expireInSeconds: FIRST_LEASE_SEC,
        })),
      ),
    );
  }

  /** The next queued shard, taken with a lease of `leaseSec`; null when none is queued. */
  async take(leaseSec: number): Promise<TakenShard | null> {
    const [job] = await this.call(() =>
      this.boss.fetch<ShardData>(SHARD_QUEUE, { includeMetadata: true, batchSize: 1 }),
    );
    if (job === undefined) return null;
    const taken = { jobId: job.id, data: job.data, retryCount: job.retryCount };
    await this.renew(taken, leaseSec);
    return taken;
  }

  /** Starts the lease again (`leaseSec` from now); false when the shard is no longer this worker's. */
  async renew(shard: TakenShard, leaseSec: number): Promise<boolean> {
    const { rows } = await this.call(() =>
      this.sql(
        `UPDATE ${SHARD_QUEUE_SCHEMA}.job SET started_on = now(), expire_in = make_interval(secs => $3)
         WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $4 RETURNING id`,
        [SHARD_QUEUE, shard.jobId, leaseSec, shard.retryCount],
      ),
    );
    return rows.length === 1;
  }

  /** The shard is sent: done. */
  async complete(shard: TakenShard): Promise<void> {
    await this.call(() => this.boss.complete(SHARD_QUEUE, shard.jobId));
  }

  /** Gives the shard back, for another worker to take at once. */
  async giveBack(shard: TakenShard, reason: string): Promise<void> {
    // A wait left by an earlier stop (`setAside`) does not hold a shard given back.
    if (await this.updateTaken(shard, 'retry_delay = 0'))
      await this.call(() => this.boss.fail(SHARD_QUEUE, shard.jobId, { reason }));
  }

  /**
   * Puts back a shard its server stopped (`reason`, in words): queued again after a wait that
   * grows with its stops, so workers go on to other shards meanwhile, or, at its
   * `SHARD_STOP_LIMIT`-th stop, failed for good with the reason kept for `runs show`.
   */
  async setAside(shard: TakenShard, reason: string): Promise<SetAsideShard> {
    const stops = (shard.data.stops ?? 0) + 1;
    const last = stops >= SHARD_STOP_LIMIT;
    const inSec = STOP_DELAY_SEC * stops;
    // pg-boss 10 fails a job for good when its retry count has reached its retry limit.
    const kept = await this.updateTaken(
      shard,
      `data = data || jsonb_build_object('stops', ${stops}::int), retry_delay = ${inSec}::int${last ? ', retry_limit = retry_count' : ''}`,
    );
    if (!kept) return { kind: 'lease-lost' };
    await this.call(() => this.boss.fail(SHARD_QUEUE, shard.jobId, { reason, stops }));
    return last ? { kind: 'failed', stops } : { kind: 'queued-again', stops, limit: SHARD_STOP_LIMIT, inSec };
  }

  /** Forgets `runId`'s failed shards (their cases are queued again in new shards). */
  async forgetFailed(runId: string): Promise<void> {
    for (const table of ['job', 'archive'])
      await this.call(() =>
        this.sql(
          `DELETE FROM ${SHARD_QUEUE_SCHEMA}.${table} WHERE name = $1 AND data->>'runId' = $2 AND state = 'failed'`,
          [SHARD_QUEUE, runId],
        ),
      );
  }

  /** Sets `assignments` (trusted SQL) on the shard's job while it is still this worker's; false when it is not. */
  private async updateTaken(shard: TakenShard, assignments: string): Promise<boolean> {
    const { rows } = await this.call(() =>
      this.sql(
        `UPDATE ${SHARD_QUEUE_SCHEMA}.job SET ${assignments}
         WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $3 RETURNING id`,
        [SHARD_QUEUE, shard.jobId, shard.retryCount],
      ),
    );
    return rows.length === 1;
  }

  /** Shards of every run not done yet: queued, or taken (a dead worker's too, until its lease is found over). */
  async unfinished(): Promise<number> {
    const { rows } = await this.call(() =>
      this.sql(`SELECT count(*)::int AS n FROM ${SHARD_QUEUE_SCHEMA}.job WHERE name = $1 AND state < 'completed'`, [
        SHARD_QUEUE,
      ]),
    );
    return Number(rows[0]?.['n'] ?? 0);
  }

  /** The shards of `runId` by where they are (all zero for a run never sent in shards). */
  async countsOf(runId: string): Promise<ShardCounts> {
    return countsOfRows(
      (await this.call(() => this.sql(COUNT_STATES, [SHARD_QUEUE, runId]))).rows,
      (await this.call(() => this.sql(FAILED_SHARDS, [SHARD_QUEUE, runId]))).rows,
    );
  }

  /** The case ids of `runId`'s shards that are queued or being sent. */
  async pendingCaseIds(runId: string): Promise<Set<string>> {
    const { rows } = await this.call(() =>
      this.sql(
        `SELECT data->'caseIds' AS ids FROM ${SHARD_QUEUE_SCHEMA}.job
         WHERE name = $1 AND data->>'runId' = $2 AND state < 'completed'`,
        [SHARD_QUEUE, runId],
      ),
    );
    return new Set(rows.flatMap((r) => r['ids'] as string[]));
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: false, close: true, wait: true }).catch(() => undefined);
  }

  private sql(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }> {
    return this.boss.getDb().executeSql(text, values);
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw queueError(this.shown, err ?? this.upkeepError());
    }
  }
}
