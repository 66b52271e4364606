/**
 * A throwaway PostgreSQL cluster for benchmarks and scripts (the tests' own helper,
 * test/support/postgres-cluster.ts, reads Vitest's state): initdb into a temp folder (as the
 * `postgres` user when root, as initdb requires), started on a loopback port, stopped and
 * removed by `stop`. Not a benchmark itself (run-all only runs `*.bench.ts`).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface ThrowawayPostgres {
  readonly port: number;
  /** Connected as `postgres` to the `postgres` database. */
  readonly admin: pg.Client;
  /** A new database's URL. */
  database(name: string): Promise<string>;
  /** The CPU seconds the cluster's processes used so far (the server's side of a run). */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** The newest Debian PostgreSQL binaries (the `postgresql` package). */
function postgresBinDir(): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  return join('/usr/lib/postgresql', versions[0]!, 'bin');
}

/** A throwaway cluster (as the `postgres` user when root, as initdb requires), stopped by `stop`. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'decidekit-pg-'));
  chmodSync(dir, 0o755);
  const root = process.getuid?.() === 0;
  if (root) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const run = (tool: string, args: string[]) => {
    const bin = join(postgresBinDir(), tool);
    if (root) execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'pipe' });
    else execFileSync(bin, args, { stdio: 'pipe' });
  };
  const data = join(dir, 'data');
  const port = 20000 + Math.floor(Math.random() * 20000);
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', 'start']);
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  return {
    port,
    admin,
    database: async (name) => {
      await admin.query(`CREATE DATABASE ${name}`);
      return `postgresql://postgres@127.0.0.1:${port}/${name}`;
    },
    cpuSeconds: () => clusterCpuSeconds(Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])),
    stop: async () => {
      await admin.end();
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The postmaster's CPU with its reaped children's (the backends that ended), plus its live
 * children's: every CPU second the cluster spent, in seconds (from /proc, in clock ticks of 1/100 s).
 */
function clusterCpuSeconds(postmaster: number): number {
  const stat = (pid: string) => {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  };
  // Fields after the name: state is [0], ppid [1], utime [11], stime [12], cutime [13], cstime [14].
  const own = stat(String(postmaster));
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const f = stat(pid);
      if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / 100;
}
