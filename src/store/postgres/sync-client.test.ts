import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../test/support/postgres-cluster.js';
import { PgQueryError, SyncPgClient } from './sync-client.js';

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

const clientOf = (db: string) =>
  new SyncPgClient({
    connectionString: `postgresql://postgres@127.0.0.1:${cluster.port}/${db}`,
    connectionTimeoutMillis: 5000,
    application_name: 'decidekit-test',
  });

describe('the synchronous PostgreSQL client', () => {
  it('returns rows at once, 64-bit integers and doubles as exact numbers', () => {
    const client = clientOf('postgres');
    try {
      expect(
        client.query('SELECT 1::bigint AS a, 0.30000000000000004::float8 AS b, $1::text AS c', ['hi']).rows,
      ).toEqual([{ a: 1, b: 0.1 + 0.2, c: 'hi' }]);
    } finally {
      client.close();
    }
  });

  it('throws what the server refused, with its SQLSTATE', () => {
    const client = clientOf('postgres');
    try {
      expect(() => client.query('SELECT nope')).toThrow(PgQueryError);
      expect(() => client.query('SELECT nope')).toThrow(/nope/);
      expect(client.query('SELECT 2 AS n').rows).toEqual([{ n: 2 }]);
    } finally {
      client.close();
    }
    const missing = clientOf('no_such_db');
    try {
      let code: string | null = null;
      try {
        missing.query('SELECT 1');
      } catch (err) {
        code = (err as PgQueryError).code;
      }
      expect(code).toBe('3D000');
    } finally {
      missing.close();
    }
  });
});

describe('the synchronous PostgreSQL client, when the driver cannot start', () => {
  it('throws what the driver refused instead of waiting for a reply that never comes', () => {
    const client = new SyncPgClient({
      connectionString: 'postgresql://127.0.0.1:abc/dk',
      connectionTimeoutMillis: 2000,
      application_name: 'decidekit-test',
    });
    try {
      expect(() => client.query('SELECT 1')).toThrow(PgQueryError);
    } finally {
      client.close();
    }
  }, 30_000);
});
