/**
 * A shard whose server keeps stopping it (nothing listening at the run's base URL) does not
 * starve the queue: the worker puts it back for later, goes on to other runs' shards, and
 * after a bounded number of stops fails the shard for good with its reason stored. `runs
 * show` of that run says which shard failed, why, and the command that queues it again,
 * which works when pasted.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';

const SAMPLE_CASES = 100;
let cluster: PostgresCluster;

beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

function queuedRunId(stdout: string): string {
  const id = /^run (\S+): queued/m.exec(stdout)?.[1];
  expect(id, stdout).toBeDefined();
  return id!;
}

async function runStatus(url: string, runId: string): Promise<{ status: string; saved: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT status, (SELECT count(*)::int FROM cases WHERE run_id = $1) AS saved FROM runs WHERE id = $1',
      [runId],
    );
    return rows[0] as { status: string; saved: number };
  } finally {
    await client.end();
  }
}

describe('decidekit worker and a shard its server keeps stopping', () => {
  it('fails that shard after a few stops, sends the other run, and runs show says how to retry', async () => {
    await cluster.client.query('CREATE DATABASE failing_shard');
    const url = `postgresql://postgres@127.0.0.1:${cluster.port}/failing_shard`;
    const gone = await startReferenceServer({ host: '127.0.0.1', port: 0 });
    const good = await startReferenceServer({ host: '127.0.0.1', port: 0 });
    let back: Awaited<ReturnType<typeof startReferenceServer>> | null = null;
    try {
      // Queued first, so a worker takes it first; then its server goes away.
      const bad = await runCliInProcess(['bench', '--base-url', gone.url, '--store', url, '--shards', '1']);
      expect(bad.code, bad.stderr).toBe(0);
      const badId = queuedRunId(bad.stdout);
      const goneHost = new URL(gone.url).host;
      await gone.close();
      const fine = await runCliInProcess(['bench', '--base-url', good.url, '--store', url, '--shards', '2']);
      const goodId = queuedRunId(fine.stdout);

      const worked = await runCliInProcess(['worker', '--store', url, '--until-empty', '--lease', '5']);
      // The good run is sent by this one worker; the bad run's shard is failed, not looped on.
      expect(worked.stderr).toContain(`run ${goodId} complete`);
      expect(await runStatus(url, goodId)).toEqual({ status: 'complete', saved: SAMPLE_CASES });
      const why = `nothing is listening at ${goneHost}; is the server running?`;
      expect(worked.stderr).toContain(`shard 1 of 1 of run ${badId}: stopped after 0 cases: ${why}`);
      expect(worked.stderr).toMatch(/queued again in \d+ s \(stop 1 of 3\)/);
      expect(worked.stderr).toContain(`shard 1 of 1 of run ${badId} failed after 3 stops`);
      expect(worked.stderr).not.toMatch(/internal error|\n\s+at |ECONNREFUSED/);
      expect(worked.code).toBe(1);
      // Nothing is left to send it: the run is no longer said to be running, anywhere.
      expect(await runStatus(url, badId)).toEqual({ status: 'incomplete', saved: 0 });

      const shown = await runCliInProcess(['runs', 'show', badId, '--store', url, '--no-ci']);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/status +incomplete \(0 of 100 cases saved; every shard failed\)\n/);
      expect(shown.stdout).not.toMatch(/status +running|sent in shards by workers/);
      const json = await runCliInProcess(['runs', 'show', badId, '--store', url, '--json']);
      expect(JSON.parse(json.stdout).status, json.stderr).toBe('incomplete');
      const listed = await runCliInProcess(['runs', 'list', '--store', url, '--json']);
      const row = JSON.parse(listed.stdout).runs.find((r: { id: string }) => r.id === badId);
      expect(row?.status, listed.stdout).toBe('incomplete');
      expect(shown.stdout).toMatch(/shards +0 done, 0 sending, 0 queued, 1 failed/);
      expect(shown.stdout).toContain(`shard 1 of 1 failed after 3 stops: ${why}`);
      const again = `decidekit bench --resume ${badId} --store ${url}`;
      expect(shown.stdout).toContain(again);

      // Pasted while the server is still down, it stops as a fresh sharded bench does, queueing nothing.
      const early = await runCliInProcess(again.split(' ').slice(1));
      expect(early.code).toBe(1);
      expect(early.stderr).toBe(`decidekit bench: ${why}\n`);
      expect(early.stdout).toBe('');
      const still = await runCliInProcess(['runs', 'show', badId, '--store', url, '--no-ci']);
      expect(still.stdout).toMatch(/shards +0 done, 0 sending, 0 queued, 1 failed/);

      // With the server back, the hint works when pasted: it queues the shard again, and runs
      // show no longer counts it failed.
      back = await startReferenceServer({ host: '127.0.0.1', port: Number(new URL(gone.url).port) });
      const resumed = await runCliInProcess(again.split(' ').slice(1));
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain(`run ${badId}: queued again ${SAMPLE_CASES} of ${SAMPLE_CASES} cases`);
      expect(await runStatus(url, badId)).toEqual({ status: 'running', saved: 0 });
      const after = await runCliInProcess(['runs', 'show', badId, '--store', url, '--no-ci']);
      expect(after.stdout).toMatch(/shards +0 done, 0 sending, 1 queued\n/);
      expect(after.stdout).not.toContain('failed after');
    } finally {
      await good.close();
      await back?.close();
    }
  }, 120_000);
});
