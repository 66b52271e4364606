/**
 * One run sent by several worker processes: `bench --shards N` on a PostgreSQL store queues
 * the run's cases as shards, `decidekit worker` processes (the built CLI, real processes)
 * take and send them against reference servers on loopback. A worker killed outright
 * mid-shard loses nothing: its shard is taken again once its lease is over, only its
 * unsaved cases are sent again, every case is stored once, and the run equals a run sent
 * by one process. Ctrl+C on a worker gives its shard back at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const tmp = tempFolderRemovedAfterAll('decidekit-workers-');
const SAMPLE_CASES = 100;

let cluster: PostgresCluster;
let databases = 0;

beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

async function freshDatabase(): Promise<string> {
  const name = `workers_${++databases}`;
  await cluster.client.query(`CREATE DATABASE ${name}`);
  return `postgresql://postgres@127.0.0.1:${cluster.port}/${name}`;
}

async function query<R>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as R[];
  } finally {
    await client.end();
  }
}

/** A worker process of the built CLI, its stderr gathered, `until` resolving when it has printed `text`. */
function startWorker(args: readonly string[]): {
  child: ChildProcess;
  stderr: () => string;
  until: (text: string) => Promise<void>;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, [CLI, 'worker', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const waiting: { text: string; resolve: () => void }[] = [];
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const w of waiting) if (stderr.includes(w.text)) w.resolve();
  });
  child.stdout!.resume();
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    stderr: () => stderr,
    until: (text) =>
      new Promise<void>((resolve) => {
        if (stderr.includes(text)) resolve();
        else waiting.push({ text, resolve });
      }),
    exit,
  };
}

/** `llamacpp:n_decode_total` of a server's /metrics: the requests it answered. */
async function decodesOf(server: ReferenceServer): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('llamacpp:n_decode_total'));
  return Number(line!.split(/\s+/)[1]);
}

/** Waits until `check` holds, asking again every 20 ms. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

function queuedRunId(stdout: string): string {
  const id = /^run (\S+): queued/m.exec(stdout)?.[1];
  expect(id, stdout).toBeDefined();
  return id!;
}

/** A run's decisions as exported, without what differs between two sends of the same answers. */
async function exportedDecisions(runId: string, store: string): Promise<unknown[]> {
  const out = await runCliInProcess(['runs', 'export', runId, '--format', 'jsonl', '--store', store]);
  expect(out.code, out.stderr).toBe(0);
  return out.stdout
    .trim()
    .split('\n')
    .map((line) => {
      const row = JSON.parse(line) as Record<string, unknown>;
      for (const key of Object.keys(row)) if (/run|latency|endpoint|created|duration/i.test(key)) delete row[key];
      return row;
    })
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** A stored run's summary without what timing decides. */
async function summaryOf(runId: string, store: string): Promise<Record<string, unknown>> {
  const out = await runCliInProcess(['runs', 'show', runId, '--store', store, '--json', '--no-ci']);
  expect(out.code, out.stderr).toBe(0);
  const summary = (JSON.parse(out.stdout) as { summary: Record<string, unknown> }).summary;
  return JSON.parse(
    JSON.stringify(summary, (key, value: unknown) =>
      /latency|duration|throughput|perSecond/i.test(key) ? undefined : value,
    ),
  ) as Record<string, unknown>;
}

describe('decidekit worker: one run, many worker processes', () => {
  it('completes a run with a worker killed mid-shard: every case stored once, as one process would', async () => {
    const url = await freshDatabase();
    // The killed worker's server answers slowly, so it is surely mid-shard when killed.
    const slow = await startReferenceServer({ host: '127.0.0.1', port: 0, metrics: true, faults: { latencyMs: 80 } });
    const fast = await startReferenceServer({ host: '127.0.0.1', port: 0, metrics: true, faults: { latencyMs: 2 } });
    const workers: ReturnType<typeof startWorker>[] = [];
    try {
      const queued = await runCliInProcess(['bench', '--base-url', slow.url, '--store', url, '--shards', '5']);
      expect(queued.code, queued.stderr).toBe(0);
      const runId = queuedRunId(queued.stdout);
      expect(queued.stdout).toContain(`queued ${SAMPLE_CASES} of ${SAMPLE_CASES} cases as 5 shards`);
      expect(queued.stdout).toContain(`decidekit worker --store ${url}\n`);

      const lease = ['--until-empty', '--lease', '2', '--parallel', '2', '--store', url];
      const doomed = startWorker(lease);
      workers.push(doomed);
      await doomed.until('decidekit worker: took shard');
      workers.push(startWorker([...lease, '--base-url', fast.url]), startWorker([...lease, '--base-url', fast.url]));
      await eventually(async () => (await decodesOf(slow)) >= 4);
      doomed.child.kill('SIGKILL');
      expect(await doomed.exit).toBeNull();
      const [second, third] = [workers[1]!, workers[2]!];
      expect(await second.exit, second.stderr()).toBe(0);
      expect(await third.exit, third.stderr()).toBe(0);
      expect(second.stderr() + third.stderr()).toContain(`run ${runId} complete`);

      const [stored] = await query<{ n: number; distinct: number }>(
        url,
        'SELECT count(*)::int AS n, count(DISTINCT case_id)::int AS distinct FROM cases WHERE run_id = $1',
        [runId],
      );
      expect(stored).toEqual({ n: SAMPLE_CASES, distinct: SAMPLE_CASES });
      const [status] = await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]);
      expect(status!.status).toBe('complete');
      // Sent twice at most: the killed worker's requests in flight (--parallel 2).
      const sent = (await decodesOf(slow)) + (await decodesOf(fast));
      expect(sent).toBeGreaterThanOrEqual(SAMPLE_CASES);
      expect(sent - SAMPLE_CASES).toBeLessThanOrEqual(2);

      const shown = await runCliInProcess(['runs', 'show', runId, '--store', url, '--no-ci']);
      expect(shown.stdout).toMatch(/shards +5 done, 0 sending, 0 queued/);

      // The same configuration (server included: the same fingerprint) sent by one process.
      const single = join(mkdtempSync(join(tmp, 'single-')), 'runs.sqlite');
      const one = await runCliInProcess([
        'bench',
        '--base-url',
        slow.url,
        '--store',
        single,
        '--parallel',
        '8',
        '--json',
      ]);
      expect(one.code, one.stderr).toBe(0);
      const oneId = (JSON.parse(one.stdout) as { id: string }).id;
      expect(await summaryOf(runId, url)).toEqual(await summaryOf(oneId, single));
      expect(await exportedDecisions(runId, url)).toEqual(await exportedDecisions(oneId, single));
    } finally {
      for (const w of workers) w.child.kill('SIGKILL');
      await slow.close();
      await fast.close();
    }
  }, 120_000);

  it('gives its shard back on Ctrl+C, and another worker takes it at once', async () => {
    const url = await freshDatabase();
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { latencyMs: 40 } });
    try {
      const queued = await runCliInProcess(['bench', '--base-url', server.url, '--store', url, '--shards', '1']);
      const runId = queuedRunId(queued.stdout);
      const stop = new AbortController();
      // A long lease: only giving the shard back lets the next worker take it soon.
      const first = await runCliInProcess(['worker', '--store', url, '--lease', '3600', '--parallel', '1'], {
        signal: stop.signal,
        onStderr: (text) => text.includes('took shard') && setTimeout(() => stop.abort(), 200),
      });
      expect(first.code).toBe(130);
      expect(first.stderr).toContain('given back to the queue');
      const [job] = await query<{ state: string }>(
        url,
        "SELECT state::text FROM decidekit_queue.job WHERE data->>'runId' = $1",
        [runId],
      );
      expect(job!.state).toBe('retry');
      const second = await runCliInProcess(['worker', '--store', url, '--until-empty', '--lease', '3600']);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toContain(`run ${runId} complete`);
      const [stored] = await query<{ n: number }>(url, 'SELECT count(*)::int AS n FROM cases WHERE run_id = $1', [
        runId,
      ]);
      expect(stored!.n).toBe(SAMPLE_CASES);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('queues again, on --resume, the cases of a sharded run that are missing, and workers finish it', async () => {
    const url = await freshDatabase();
    const flaky = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { failRate: 0.2 } });
    const healthy = await startReferenceServer({ host: '127.0.0.1', port: 0 });
    try {
      const queued = await runCliInProcess(['bench', '--base-url', flaky.url, '--store', url, '--shards', '2']);
      const runId = queuedRunId(queued.stdout);
      const first = await runCliInProcess(['worker', '--store', url, '--until-empty']);
      expect(first.stderr).toContain(`run ${runId} incomplete`);
      const [failed] = await query<{ n: number }>(
        url,
        "SELECT count(*)::int AS n FROM cases WHERE run_id = $1 AND request_status <> 'answered'",
        [runId],
      );
      expect(failed!.n).toBeGreaterThan(0);

      // Nothing is missing while failed cases are kept: nothing is queued.
      const kept = await runCliInProcess(['bench', '--resume', runId, '--store', url]);
      expect(kept.code, kept.stderr).toBe(0);
      expect(kept.stdout).toContain('nothing to queue');
      const resumed = await runCliInProcess(['bench', '--resume', runId, '--retry-failed', '--store', url]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain(`run ${runId}: queued again ${failed!.n} of ${SAMPLE_CASES} cases as 2 shards`);
      expect(resumed.stdout).toContain(`decidekit worker --store ${url}`);
      const second = await runCliInProcess(['worker', '--store', url, '--until-empty', '--base-url', healthy.url]);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toContain(`run ${runId} complete`);
      expect(healthy.metrics().decodeTotal).toBe(failed!.n);
      const [stored] = await query<{ n: number; answered: number }>(
        url,
        "SELECT count(*)::int AS n, count(*) FILTER (WHERE request_status = 'answered')::int AS answered FROM cases WHERE run_id = $1",
        [runId],
      );
      expect(stored).toEqual({ n: SAMPLE_CASES, answered: SAMPLE_CASES });
    } finally {
      await flaky.close();
      await healthy.close();
    }
  }, 120_000);

  it('never prints the store password, and refuses shards and workers without a PostgreSQL store', async () => {
    const url = (await freshDatabase()).replace('postgres@', 'postgres:s3cret-pw@');
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0 });
    try {
      const queued = await runCliInProcess(['bench', '--base-url', server.url, '--store', url, '--shards', '1']);
      expect(queued.code, queued.stderr).toBe(0);
      expect(queued.stdout).toContain('with the store password in PGPASSWORD');
      const runId = queuedRunId(queued.stdout);
      const worked = await runCliInProcess(['worker', '--store', url, '--until-empty']);
      expect(worked.code, worked.stderr).toBe(0);
      const shown = await runCliInProcess(['runs', 'show', runId, '--store', url]);
      for (const out of [queued, worked, shown]) expect(out.stdout + out.stderr).not.toContain('s3cret-pw');

      const folder = mkdtempSync(join(tmp, 'sqlite-'));
      for (const [argv, message] of [
        [['bench', '--store', join(folder, 'runs.sqlite'), '--shards', '2'], '--shards needs a PostgreSQL store'],
        [
          ['worker', '--store', join(folder, 'runs.sqlite')],
          'a worker takes shards from the queue of a PostgreSQL store',
        ],
      ] as const) {
        const refused = await runCliInProcess(argv);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain(message);
        expect(refused.stderr.split(message)).toHaveLength(2);
        expect(refused.stderr).not.toMatch(/internal error|\n\s+at /);
      }
    } finally {
      await server.close();
    }
  }, 120_000);

  it('drops the shards of a run deleted from the store instead of failing on them', async () => {
    const url = await freshDatabase();
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0 });
    try {
      const queued = await runCliInProcess(['bench', '--base-url', server.url, '--store', url, '--shards', '2']);
      const runId = queuedRunId(queued.stdout);
      const deleted = await runCliInProcess(['runs', 'delete', runId, '--yes', '--store', url]);
      expect(deleted.code, deleted.stderr).toBe(0);
      const worked = await runCliInProcess(['worker', '--store', url, '--until-empty']);
      expect(worked.code, worked.stderr).toBe(0);
      expect(worked.stderr).toContain(`run ${runId} is no longer in the store: its shard 1 of 2 is dropped`);
      expect(server.metrics().decodeTotal).toBe(0);
    } finally {
      await server.close();
    }
  }, 120_000);
});
