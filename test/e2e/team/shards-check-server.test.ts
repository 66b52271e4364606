/**
 * `bench --shards N` checks the server it names before it stores or queues anything, as a
 * plain `bench` does: nothing listening there is the same message and exit code, and the
 * PostgreSQL store is left with no run and no queued shard.
 */
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { SHARD_QUEUE_SCHEMA } from '../../../src/store/queue/shard-queue.js';

let cluster: PostgresCluster;

beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/** A port nothing listens on: bound once, then closed. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs stored and shards queued in the store's database (none when the tables were never made). */
async function storedAndQueued(url: string): Promise<{ runs: number; shards: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const count = async (table: string): Promise<number> => {
      const [exists] = (await client.query('SELECT to_regclass($1) AS t', [table])).rows as { t: string | null }[];
      if (exists!.t === null) return 0;
      return ((await client.query(`SELECT count(*)::int AS n FROM ${table}`)).rows as { n: number }[])[0]!.n;
    };
    return { runs: await count('runs'), shards: await count(`${SHARD_QUEUE_SCHEMA}.job`) };
  } finally {
    await client.end();
  }
}

describe('bench --shards against a server nothing listens at', () => {
  it('stops before storing or queueing anything, as plain bench does', async () => {
    await cluster.client.query('CREATE DATABASE shards_unreachable');
    const url = `postgresql://postgres@127.0.0.1:${cluster.port}/shards_unreachable`;
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;

    const sharded = await runCliInProcess(['bench', '--store', url, '--shards', '3', '--base-url', baseUrl]);
    const plain = await runCliInProcess(['bench', '--store', url, '--base-url', baseUrl]);

    const message = `nothing is listening at 127.0.0.1:${port}; is the server running?`;
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain(`decidekit bench: stopped: ${message}\n`);
    // The same message and exit code; "stopped" is left out as no run was started.
    expect(sharded.code).toBe(plain.code);
    expect(sharded.stderr).toBe(`decidekit bench: ${message}\n`);
    expect(sharded.stdout).toBe('');
    expect(await storedAndQueued(url)).toEqual({ runs: 0, shards: 0 });
  }, 60_000);
});
