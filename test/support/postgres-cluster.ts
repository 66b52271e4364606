/**
 * A throwaway PostgreSQL cluster for tests: `initdb` into a temp folder, `pg_ctl start` on a
 * free loopback port, stopped and deleted by `stop()` (call it in `afterAll`, so a failing
 * test still stops it). initdb and postgres refuse to run as root: as root (CI) they run as
 * the `postgres` user, which Debian's `postgresql` package creates, in a folder it owns.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { tempFolderOwnedByCaller } from '../../src/datasets/test-support/temp-folders.js';

export interface PostgresCluster {
  readonly client: pg.Client;
  /** The server's `SHOW server_version`. */
  readonly version: string;
  /** The loopback port it listens on (user `postgres`, database `postgres`, no password). */
  readonly port: number;
  stop(): Promise<void>;
}

/** The newest Debian PostgreSQL binaries folder, e.g. /usr/lib/postgresql/15/bin. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(`no PostgreSQL under ${root}: install Debian's postgresql package (.ci/run does)`);
  return join(root, versions[0]!, 'bin');
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const dir = tempFolderOwnedByCaller('decidekit-pg-');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]): void => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
      : [join(bin, tool), args];
    execFileSync(file, argv, { stdio: 'pipe', timeout: 60_000 });
  };
  const data = join(dir, 'data');
  let started = false;
  const stop = async (): Promise<void> => {
    try {
      if (started) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const port = await freePort();
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    started = true;
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await client.connect();
    const version = String((await client.query('SHOW server_version')).rows[0].server_version);
    return {
      client,
      version,
      port,
      stop: async () => {
        await client.end().catch(() => undefined);
        await stop();
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
