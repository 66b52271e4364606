import { afterAll, beforeAll } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../test/support/postgres-cluster.js';
import { describeStoreContract } from '../contract/store-contract.js';
import { openPostgresStore } from './open-postgres-store.js';
import { SyncPgClient } from './sync-client.js';

let cluster: PostgresCluster;
let admin: SyncPgClient;
let databases = 0;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  admin = new SyncPgClient({
    connectionString: `postgresql://postgres@127.0.0.1:${cluster.port}/postgres`,
    connectionTimeoutMillis: 10_000,
    application_name: 'decidekit-contract',
  });
}, 120_000);

afterAll(async () => {
  admin?.close();
  await cluster?.stop();
});

// A database of its own for every test: the store is a whole database.
describeStoreContract('postgresql', () => {
  const name = `contract_${++databases}`;
  admin.query(`CREATE DATABASE ${name}`);
  const url = `postgresql://postgres@127.0.0.1:${cluster.port}/${name}`;
  return {
    open: (options) => openPostgresStore(url, options),
    dispose: () => {
      admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    },
  };
});
