/**
 * A PostgreSQL store whose server asks a password (scram-sha-256 and md5 over loopback TCP,
 * as a team's server would): without one, every command says in words, once and before any
 * work, that the server wants a password and where to give it; a wrong one is refused in
 * words too; with the right one (in the URL or in PGPASSWORD) the commands work. No output,
 * stored record or queued shard ever holds the password.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { startPostgresCluster, type PasswordRole, type PostgresCluster } from '../../support/postgres-cluster.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-store-password-');
const ROLES: readonly PasswordRole[] = [
  { user: 'ann', password: 'Scram-pw-never-shown-1', method: 'scram-sha-256' },
  { user: 'bob', password: 'Md5-pw-never-shown-2', method: 'md5' },
];
const WRONG = 'Wrong-pw-never-shown-3';
const SECRETS = [...ROLES.map((r) => r.password), WRONG];
const env = { XDG_DATA_HOME: join(tmp, 'xdg') };
let cluster: PostgresCluster;

beforeAll(async () => {
  // The driver reads PGPASSWORD and PGPASSFILE of this process: none may give a password here.
  expect(process.env['PGPASSWORD'] ?? process.env['PGPASSFILE']).toBeUndefined();
  cluster = await startPostgresCluster({ passwordRoles: ROLES });
  for (const { user } of ROLES) await cluster.client.query(`CREATE DATABASE ${user}_team OWNER ${user}`);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const storeOf = (role: PasswordRole, password?: string) =>
  `postgresql://${role.user}${password === undefined ? '' : `:${password}`}@127.0.0.1:${cluster.port}/${role.user}_team`;

const cli = (argv: readonly string[]) => runCliInProcess(argv, { env, cwd: ROOT });

function expectNoSecret(text: string): void {
  expect(SECRETS.filter((s) => text.includes(s))).toEqual([]);
}

function expectInWords(r: { stdout: string; stderr: string }): void {
  expectNoSecret(r.stdout + r.stderr);
  expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(r.stderr).not.toMatch(/internal error|\bE[A-Z]{4,}\b|SASL|SCRAM/);
}

/** The built CLI as a child process, with `extraEnv` (PGPASSWORD reaches the driver as a user's shell would give it). */
function builtCli(
  argv: readonly string[],
  extraEnv: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [CLI, ...argv], {
    env: { PATH: process.env['PATH'], HOME: tmp, NO_COLOR: '1', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

describe('a PostgreSQL store whose server wants a password', () => {
  it.each(ROLES)(
    'says, once and before any work, that $method wants a password none was given',
    async (role) => {
      const store = storeOf(role);
      const message = `the PostgreSQL server at 127.0.0.1:${cluster.port} refused the credentials of user ${role.user} for the run store ${store} (it wants a password and none was given: give it in PGPASSWORD or in ~/.pgpass)`;
      for (const argv of [
        ['runs', 'list', '--store', store],
        ['bench', '--limit', '2', '--store', store],
        ['worker', '--store', store, '--until-empty'],
      ]) {
        const r = await cli(argv);
        expectInWords(r);
        expect(r.code, `${argv.join(' ')}\n${r.stderr}`).toBe(1);
        expect(r.stderr.split(message), r.stderr).toHaveLength(2);
        expect(r.stdout).not.toContain('cases/s');
      }
    },
    120_000,
  );

  it.each(ROLES)('refuses a wrong $method password in words, without repeating it', async (role) => {
    const r = await cli(['runs', 'list', '--store', storeOf(role, WRONG)]);
    expectInWords(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `refused the credentials of user ${role.user} for the run store ${storeOf(role)} (give the password in PGPASSWORD or in ~/.pgpass, or check the user: `,
    );
  });

  it('works with the password in the URL or in PGPASSWORD, and never prints or stores it', async () => {
    const role = ROLES[0]!;
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0 });
    try {
      const bench = await cli(['bench', '--limit', '5', '--store', storeOf(role, role.password)]);
      expectInWords(bench);
      expect(bench.code, bench.stderr).toBe(0);
      const queued = await cli([
        'bench',
        '--base-url',
        server.url,
        '--shards',
        '2',
        '--store',
        storeOf(role, role.password),
      ]);
      expectInWords(queued);
      expect(queued.code, queued.stderr).toBe(0);
      expect(queued.stdout).toContain('(with the store password in PGPASSWORD: it is never printed)');

      // The worker command printed, as pasted on a worker machine with PGPASSWORD set.
      const worker = /^ {2}(decidekit worker .+)$/m.exec(queued.stdout)![1]!.split(' ').slice(1);
      const worked = await builtCli([...worker, '--until-empty'], { PGPASSWORD: role.password });
      expectNoSecret(worked.out);
      expect(worked.code, worked.out).toBe(0);
      expect(worked.out).toMatch(/run \S+ complete/);
      const listed = await builtCli(['runs', 'list', '--store', storeOf(role)], { PGPASSWORD: role.password });
      expectNoSecret(listed.out);
      expect(listed.code, listed.out).toBe(0);
      expect(listed.out.match(/\d{8}-\d{6}-[0-9a-f]{4}/g)).toHaveLength(2);

      // Nothing stored holds it: the runs, their cases, the queued shards.
      const admin = new pg.Client({ host: '127.0.0.1', port: cluster.port, user: 'postgres', database: 'ann_team' });
      await admin.connect();
      try {
        for (const table of ['runs', 'cases', 'decidekit_queue.job', 'decidekit_queue.archive']) {
          const { rows } = await admin.query(`SELECT row_to_json(t)::text AS row FROM ${table} t`);
          expectNoSecret(rows.map((r: { row: string }) => r.row).join('\n'));
        }
      } finally {
        await admin.end();
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});
