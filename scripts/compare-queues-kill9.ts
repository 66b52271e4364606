/**
 * The kill -9 comparison behind the shard queue's choice (docs/workers.md): pg-boss 10 and
 * BullMQ 6's PostgreSQL backend, each on a throwaway PostgreSQL cluster, ten jobs of one
 * second each; a worker process is killed with SIGKILL while it holds a job, a second worker
 * is started, and the script reports whether every job was done, which jobs were started
 * twice, and how long the killed worker's job waited before it was started again.
 *
 *   npx tsx scripts/compare-queues-kill9.ts
 *
 * Both run with a lease of 2 s (pg-boss: the job's expiry; BullMQ: `lockDuration`) and a
 * check every second (pg-boss: its maintenance; BullMQ: `stalledInterval`).
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { Queue, Worker, createPostgresBackend } from 'bullmq';
import { startThrowawayPostgres } from '../bench/throwaway-postgres.js';

const JOBS = 10;
const JOB_MS = 1000;
const LEASE_SEC = 2;
const SCRIPT = fileURLToPath(import.meta.url);
type Library = 'pg-boss' | 'bullmq';

async function log(url: string, job: number, event: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('INSERT INTO log (job, event, pid) VALUES ($1, $2, $3)', [job, event, process.pid]);
  await c.end();
}

/** A worker process: takes jobs and logs each start and end. */
async function work(library: Library, url: string): Promise<void> {
  const handle = async (job: number) => {
    await log(url, job, 'start');
    await sleep(JOB_MS);
    await log(url, job, 'done');
  };
  if (library === 'pg-boss') {
    const boss = new PgBoss({ connectionString: url, maintenanceIntervalSeconds: 1, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    for (;;) {
      const [job] = await boss.fetch<{ n: number }>('jobs');
      if (job === undefined) {
        await sleep(100);
        continue;
      }
      await handle(job.data.n);
      await boss.complete('jobs', job.id);
    }
  }
  new Worker<{ n: number }>(
    'jobs',
    async (job) => handle(job.data.n),
    {
      connection: { connectionString: url, migrate: true },
      lockDuration: LEASE_SEC * 1000,
      stalledInterval: 1000,
      maxStalledCount: 5,
    } as never,
    createPostgresBackend as never,
  );
  await new Promise(() => undefined);
}

async function enqueue(library: Library, url: string): Promise<void> {
  if (library === 'pg-boss') {
    const boss = new PgBoss({ connectionString: url, schedule: false, supervise: false });
    await boss.start();
    await boss.createQueue('jobs');
    for (let n = 1; n <= JOBS; n++) await boss.send('jobs', { n }, { expireInSeconds: LEASE_SEC, retryLimit: 5 });
    await boss.stop({ graceful: false, close: true });
    return;
  }
  const queue = new Queue<{ n: number }>(
    'jobs',
    { connection: { connectionString: url, migrate: true } } as never,
    createPostgresBackend as never,
  );
  for (let n = 1; n <= JOBS; n++) await queue.add('job', { n });
  await queue.close();
}

async function compare(library: Library, url: string): Promise<string> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE TABLE log (job int, event text, pid int, at timestamptz DEFAULT clock_timestamp())');
  await enqueue(library, url);
  const start = (): ReturnType<typeof spawn> =>
    spawn(process.execPath, ['--import', 'tsx', SCRIPT, 'work', library, url], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  const first = start();
  let killedJob: number | undefined;
  while (killedJob === undefined) {
    await sleep(50);
    const r = await admin.query("SELECT job FROM log WHERE pid = $1 AND event = 'start'", [first.pid]);
    killedJob = r.rows[0]?.job as number | undefined;
  }
  first.kill('SIGKILL');
  const killedAt = Date.now();
  const second = start();
  const deadline = Date.now() + 60_000;
  let done = 0;
  while (done < JOBS && Date.now() < deadline) {
    await sleep(100);
    done = Number((await admin.query("SELECT count(DISTINCT job)::int AS n FROM log WHERE event = 'done'")).rows[0].n);
  }
  second.kill('SIGKILL');
  const twice = (
    await admin.query("SELECT job FROM log WHERE event = 'start' GROUP BY job HAVING count(*) > 1 ORDER BY job")
  ).rows.map((r) => r.job as number);
  const again = await admin.query("SELECT at FROM log WHERE job = $1 AND event = 'start' ORDER BY at OFFSET 1", [
    killedJob,
  ]);
  await admin.end();
  const waitedMs = again.rows[0] ? new Date(again.rows[0].at as string).getTime() - killedAt : null;
  return `${library}: ${done}/${JOBS} jobs done; started twice: ${twice.join(', ') || 'none'} (the killed worker's job was ${killedJob}); taken again ${waitedMs === null ? 'never' : `${(waitedMs / 1000).toFixed(1)} s after the kill`}`;
}

async function main(): Promise<void> {
  const [role, library, url] = process.argv.slice(2);
  if (role === 'work') return work(library as Library, url!);
  const cluster = await startThrowawayPostgres();
  try {
    for (const lib of ['pg-boss', 'bullmq'] as const) {
      const db = `kill9_${lib.replace('-', '_')}`;
      await cluster.admin.query(`CREATE DATABASE ${db}`);
      try {
        console.log(await compare(lib, `postgresql://postgres@127.0.0.1:${cluster.port}/${db}`));
      } catch (err) {
        console.log(`${lib}: failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  } finally {
    await cluster.stop();
  }
}

await main();
