import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../test/support/postgres-cluster.js';
import { DecidekitError } from '../../core/errors.js';
import { openStore } from '../open-store-with-postgres.js';
import { claimStoredRun, storedRunHolder } from '../run-claim.js';
import { seedFinished } from '../contract/contract-support.js';
import { runConfig } from '../test-support/run-fixtures.js';
import { POSTGRES_SCHEMA_VERSION } from './schema.js';
import { SyncPgClient } from './sync-client.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SUPPORT = join(ROOT, 'src', 'store', 'test-support');

let cluster: PostgresCluster;
let admin: SyncPgClient;
let databases = 0;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  admin = new SyncPgClient({
    connectionString: `postgresql://postgres@127.0.0.1:${cluster.port}/postgres`,
    connectionTimeoutMillis: 10_000,
    application_name: 'decidekit-test',
  });
}, 120_000);

afterAll(async () => {
  admin?.close();
  await cluster?.stop();
});

/** The URL of a new, empty database. */
function freshDatabase(): string {
  const name = `store_${++databases}`;
  admin.query(`CREATE DATABASE ${name}`);
  return `postgresql://postgres@127.0.0.1:${cluster.port}/${name}`;
}

function errorOf(fn: () => unknown): DecidekitError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DecidekitError) return err;
    throw err;
  }
  throw new Error('expected a DecidekitError');
}

describe('the PostgreSQL store', () => {
  it('is chosen by a postgresql:// or postgres:// location and shown without the password', () => {
    const url = freshDatabase();
    const store = openStore(url.replace('postgres@', 'postgres:not-needed@'));
    try {
      expect(store.path).toBe(url);
      expect(store.runs.list()).toEqual([]);
    } finally {
      store.close();
    }
    const again = openStore(url.replace('postgresql://', 'postgres://'));
    again.close();
  });

  it('creates its schema at this version, and refuses a schema newer than this decidekit, unchanged', () => {
    const url = freshDatabase();
    openStore(url).close();
    const db = new SyncPgClient({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 't' });
    try {
      expect(db.query('SELECT version FROM schema_version').rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
      db.query('UPDATE schema_version SET version = $1', [POSTGRES_SCHEMA_VERSION + 1]);
      for (const how of [{}, { readOnly: true, mustExist: true }]) {
        const err = errorOf(() => openStore(url, how));
        expect(err.code).toBe('store_too_new');
        expect(err.message).toContain(`schema version ${POSTGRES_SCHEMA_VERSION + 1}`);
        expect(err.message).toContain(url);
      }
      expect(db.query('SELECT version FROM schema_version').rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION + 1 }]);
    } finally {
      db.close();
    }
  });

  it('migrates a store of an older schema version when written to, keeping its runs, and says so when only read', () => {
    const url = freshDatabase();
    const store = openStore(url);
    const { id } = store.runs.create({ config: runConfig(), label: 'kept', createdAt: '2026-12-01T00:00:00Z' });
    store.close();
    const db = new SyncPgClient({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 't' });
    try {
      // As version 1 left it: no claims table yet, no replica column, no notes of replicas set aside.
      db.query('DROP TABLE run_claims');
      db.query('ALTER TABLE cases DROP COLUMN replica');
      db.query('DROP TABLE run_listings');
      db.query('ALTER TABLE runs DROP COLUMN set_aside_json');
      db.query('ALTER TABLE decisions DROP CONSTRAINT decisions_run_id_fkey');
      db.query(
        'ALTER TABLE decisions ADD FOREIGN KEY (run_id, case_id) REFERENCES cases (run_id, case_id) ON DELETE CASCADE',
      );
      db.query('UPDATE schema_version SET version = 1');
      const read = errorOf(() => openStore(url, { readOnly: true, mustExist: true }));
      expect(read.code).toBe('store_needs_upgrade');
      expect(read.message).toContain(`decidekit bench --store ${url}`);
      expect(db.query('SELECT version FROM schema_version').rows).toEqual([{ version: 1 }]);
      const upgraded = openStore(url);
      try {
        expect(upgraded.runs.head(id)?.label).toBe('kept');
      } finally {
        upgraded.close();
      }
      expect(db.query('SELECT version FROM schema_version').rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
      expect(db.query("SELECT to_regclass('run_claims')::text AS t").rows).toEqual([{ t: 'run_claims' }]);
    } finally {
      db.close();
    }
  });

  it('reads a version 3 store without upgrading it (no listings kept), and upgrades it when written to', () => {
    const url = freshDatabase();
    const store = openStore(url);
    const { head } = seedFinished(store);
    store.close();
    const db = new SyncPgClient({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 't' });
    try {
      db.query('DROP TABLE run_listings');
      db.query('ALTER TABLE runs DROP COLUMN set_aside_json');
      db.query('ALTER TABLE decisions DROP CONSTRAINT decisions_run_id_fkey');
      db.query(
        'ALTER TABLE decisions ADD FOREIGN KEY (run_id, case_id) REFERENCES cases (run_id, case_id) ON DELETE CASCADE',
      );
      db.query('UPDATE schema_version SET version = 3');
      const reader = openStore(url, { readOnly: true, mustExist: true });
      try {
        expect(reader.runs.head(head.id)?.label).toBe('baseline');
        expect(reader.runs.listings(head.id)).toBeNull();
      } finally {
        reader.close();
      }
      expect(db.query('SELECT version FROM schema_version').rows).toEqual([{ version: 3 }]);
      openStore(url).close();
      expect(db.query('SELECT version FROM schema_version').rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
      expect(db.query("SELECT to_regclass('run_listings')::text AS t").rows).toEqual([{ t: 'run_listings' }]);
    } finally {
      db.close();
    }
  });

  it('checks a saved decision against its run, never against the cases saved so far, and deletes both together', () => {
    const url = freshDatabase();
    const store = openStore(url);
    const db = new SyncPgClient({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 't' });
    try {
      // A key checked against the cases table runs once a decision with a plan made when the
      // run had few cases (a scan of them): saves grow quadratic in the run.
      const keys = db.query<{ refers: string }>(
        "SELECT confrelid::regclass::text AS refers FROM pg_constraint WHERE conrelid = 'decisions'::regclass AND contype = 'f'",
      ).rows;
      expect(keys).toEqual([{ refers: 'runs' }]);
      const { head, cases } = seedFinished(store);
      const decisions = (runId: string) =>
        db.query<{ n: number }>('SELECT count(*)::int AS n FROM decisions WHERE run_id = $1', [runId]).rows[0]!.n;
      const all = cases.reduce((n, c) => n + c.decisions.length, 0);
      expect(decisions(head.id)).toBe(all);
      // A case saved again replaces its decisions; a run deleted takes them all.
      store.cases.save(head.id, [cases[0]!]);
      expect(decisions(head.id)).toBe(all);
      expect(store.runs.get(head.id)!.cases).toEqual(cases);
      store.runs.delete(head.id);
      expect(decisions(head.id)).toBe(0);
    } finally {
      db.close();
      store.close();
    }
  });

  it('refuses a database holding tables of the same names that is no decidekit store', () => {
    const url = freshDatabase();
    const db = new SyncPgClient({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 't' });
    try {
      db.query('CREATE TABLE runs (x int)');
      const err = errorOf(() => openStore(url));
      expect(err.code).toBe('store_foreign');
      expect(db.query("SELECT to_regclass('schema_version')::text AS t").rows).toEqual([{ t: null }]);
    } finally {
      db.close();
    }
  });

  it('refuses to read a database holding tables of the same names that is no decidekit store, not calling it empty', () => {
    const url = freshDatabase();
    const db = new SyncPgClient({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 't' });
    try {
      db.query('CREATE TABLE runs (x int)');
      const err = errorOf(() => openStore(url, { readOnly: true, mustExist: true }));
      expect(err.code).toBe('store_foreign');
      expect(err.message).toContain('is not a decidekit run store');
      expect(db.query("SELECT to_regclass('schema_version')::text AS t").rows).toEqual([{ t: null }]);
    } finally {
      db.close();
    }
  });

  it('says in words, without the password, when the server is unreachable, the database missing or no store there yet', () => {
    const secret = 'pa55-w0rd';
    const down = errorOf(() => openStore(`postgresql://ann:${secret}@127.0.0.1:1/team`));
    expect(down.code).toBe('store_unreachable');
    expect(down.message).toContain('postgresql://ann@127.0.0.1:1/team');
    expect(down.message).toContain('nothing accepts connections at 127.0.0.1:1');
    const missing = errorOf(() => openStore(`postgresql://postgres:${secret}@127.0.0.1:${cluster.port}/nodb`));
    expect(missing.code).toBe('store_no_database');
    expect(missing.message).toContain(`createdb -h 127.0.0.1 -p ${cluster.port} -U postgres nodb`);
    const empty = errorOf(() => openStore(freshDatabase(), { readOnly: true, mustExist: true }));
    expect(empty.code).toBe('store_missing');
    for (const err of [down, missing]) {
      expect(err.message).not.toContain(secret);
      expect(JSON.stringify(err.context)).not.toContain(secret);
      expect(err.message).not.toMatch(/ECONNREFUSED|3D000/);
    }
  });

  it('lets one process at a time claim a run, on any machine, until it releases it or its connection ends', () => {
    const url = freshDatabase();
    const a = openStore(url);
    const b = openStore(url);
    try {
      const { id } = a.runs.create({ config: runConfig(), label: null, createdAt: '2026-12-01T00:00:00Z' });
      const owner = { pid: 4242, host: 'laptop', isAlive: () => true };
      const held = claimStoredRun(a, id, owner, '2026-12-01T00:00:01Z');
      expect(storedRunHolder(b, id, owner)).toEqual({ pid: 4242, host: 'laptop', since: '2026-12-01T00:00:01Z' });
      const refused = errorOf(() => claimStoredRun(b, id, { ...owner, host: 'ci' }, '2026-12-01T00:00:02Z'));
      expect(refused.code).toBe('run_busy');
      expect(refused.message).toContain('pid 4242 on laptop');
      held.release();
      expect(storedRunHolder(b, id, owner)).toBeNull();
      claimStoredRun(a, id, owner, '2026-12-01T00:00:03Z');
      a.close();
      // The holder's connection ended (as when its process is killed): the claim went with it.
      claimStoredRun(b, id, { ...owner, host: 'ci' }, '2026-12-01T00:00:04Z').release();
    } finally {
      a.close();
      b.close();
    }
  });

  it('takes runs and saves from several processes at once: ids drawn again on a clash, no save lost', async () => {
    const url = freshDatabase();
    const count = 24;
    const caseIds = Array.from({ length: count }, (_, i) => `customer_service_${String(i + 1).padStart(6, '0')}`);
    const setup = openStore(url);
    const shared = setup.runs.create({
      config: runConfig({ caseIds }),
      label: 'shared',
      createdAt: '2026-12-01T01:00:00Z',
    });
    setup.close();
    const start = Date.now() + 3000;
    const slices = 3;
    const children = Array.from(
      { length: slices },
      (_, i) =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            [
              '--import',
              'tsx',
              join(SUPPORT, 'save-concurrently-pg.ts'),
              url,
              String(count),
              String(start),
              `p${i}`,
              shared.id,
              String(i),
              String(slices),
            ],
            { cwd: ROOT },
          );
          let out = '';
          child.stdout.on('data', (b: Buffer) => (out += b.toString()));
          child.stderr.on('data', (b: Buffer) => (out += b.toString()));
          child.on('close', (code) => resolve({ code, out }));
        }),
    );
    const results = await Promise.all(children);
    expect(results.map((r) => r.out.trim()).filter((o) => !/^\d{8}-\d{6}-[0-9a-f]{4}$/.test(o))).toEqual([]);
    const ids = results.map((r) => r.out.trim());
    expect(new Set(ids).size).toBe(slices);
    const store = openStore(url, { readOnly: true, mustExist: true });
    try {
      expect(
        store.runs
          .list()
          .filter((h) => h.id !== shared.id)
          .map((h) => [h.label, h.status, h.savedCases])
          .sort(),
      ).toEqual([
        ['p0', 'incomplete', count],
        ['p1', 'incomplete', count],
        ['p2', 'incomplete', count],
      ]);
      expect(store.cases.savedIds(shared.id, { includeFailed: true }).size).toBe(count);
      const check = store.check();
      expect(check.integrity).toEqual([]);
      expect(check.runs.flatMap((r) => r.problems)).toEqual([]);
    } finally {
      store.close();
    }
  }, 90_000);
});
