/**
 * A throwaway PostgreSQL cluster for tests: `initdb` into a temp folder, `pg_ctl start` on a
 * free loopback port, stopped and deleted by `stop()` (call it in `afterAll`, so a failing
 * test still stops it). initdb and postgres refuse to run as root: as root (CI) they run as
 * the `postgres` user, which Debian's `postgresql` package creates, in a folder it owns.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { tempFolderOwnedByCaller } from '../../src/datasets/test-support/temp-folders.js';

/** A login role the cluster asks a password of over TCP (the `postgres` user stays trusted). */
export interface PasswordRole {
  readonly user: string;
  readonly password: string;
  /** How the server checks the password. */
  readonly method: 'scram-sha-256' | 'md5';
}

export interface PostgresClusterOptions {
  /** Roles made with a password, which the cluster then requires of them on loopback TCP. */
  readonly passwordRoles?: readonly PasswordRole[];
}

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

export async function startPostgresCluster(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
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
    const roles = options.passwordRoles ?? [];
    if (roles.length > 0) writeHba(data, roles, asRoot);
    const port = await freePort();
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    started = true;
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await client.connect();
    const version = String((await client.query('SHOW server_version')).rows[0].server_version);
    for (const role of roles) {
      await client.query(`SET password_encryption = '${role.method}'`);
      await client.query(`CREATE ROLE ${role.user} LOGIN PASSWORD '${role.password.replaceAll("'", "''")}'`);
    }
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

/**
 * pg_hba.conf: the socket and `postgres` over TCP trusted (the test's own client), each
 * password role asked its password over TCP by its method, anyone else refused.
 */
function writeHba(data: string, roles: readonly PasswordRole[], asRoot: boolean): void {
  const lines = [
    'local all all trust',
    'host all postgres 127.0.0.1/32 trust',
    ...roles.map((r) => `host all ${r.user} 127.0.0.1/32 ${r.method}`),
    'host all all 127.0.0.1/32 reject',
  ];
  const file = join(data, 'pg_hba.conf');
  writeFileSync(file, `${lines.join('\n')}\n`);
  if (asRoot) execFileSync('chown', ['postgres:postgres', file]);
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
