/**
 * End to end: every command that reads or writes a store takes a PostgreSQL URL as its
 * `--store` (or `DECIDEKIT_STORE`): the real CLI in process, a throwaway PostgreSQL cluster
 * on loopback, the embedded reference server. The password given in the URL never shows in
 * any output, file or stored record, and a store that cannot be used is said in words before
 * any work.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.js';
import { RAW_ERROR_CODE } from '../../support/raw-error-code.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-team-store-');
const SECRET = 'S3cret-never-shown';
const env = { XDG_DATA_HOME: join(tmp, 'xdg') };
let cluster: PostgresCluster;
let url: string;
let shown: string;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  await cluster.client.query('CREATE DATABASE team');
  // The test cluster trusts loopback: the password is given, never needed, and must never show.
  url = `postgresql://postgres:${SECRET}@127.0.0.1:${cluster.port}/team`;
  shown = `postgresql://postgres@127.0.0.1:${cluster.port}/team`;
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const cli = (argv: readonly string[], extraEnv: Record<string, string> = {}) =>
  runCliInProcess(argv, { env: { ...env, ...extraEnv }, cwd: ROOT });

function expectClean(r: { stdout: string; stderr: string }): void {
  expect((r.stdout + r.stderr).split('\n').filter((l) => l.includes(SECRET))).toEqual([]);
  expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(r.stderr).not.toContain('internal error');
}

function runIdOf(text: string): string {
  return /run (\d{8}-\d{6}-[0-9a-f]{4}) saved/.exec(text)![1]!;
}

describe('--store postgresql://…', () => {
  it('takes a bench run and reads it back with runs list, show, report, export and check', async () => {
    const bench = await cli(['bench', '--limit', '5', '--store', url]);
    expectClean(bench);
    expect(bench.code, bench.stderr).toBe(0);
    const id = runIdOf(bench.stderr + bench.stdout);
    expect(bench.stderr + bench.stdout).toContain(shown);

    const list = await cli(['runs', 'list', '--store', url]);
    expectClean(list);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(id);

    const show = await cli(['runs', 'show', id, '--store', url, '--json']);
    expectClean(show);
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout).id).toBe(id);

    const out = join(tmp, 'out');
    for (const argv of [
      ['runs', 'report', id, '--store', url, '--format', 'html', '--out', `${out}/`],
      ['runs', 'export', id, '--store', url, '--format', 'csv', '--out', `${out}/`],
      ['runs', 'check', '--store', url],
    ]) {
      const r = await cli(argv);
      expectClean(r);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
    }
    for (const file of readdirSync(out)) expect(readFileSync(join(out, file), 'utf8')).not.toContain(SECRET);

    const second = await cli(['bench', '--limit', '5', '--store', url]);
    expect(second.code, second.stderr).toBe(0);
    const other = runIdOf(second.stderr + second.stdout);
    for (const argv of [
      ['report', id, '--store', url],
      ['runs', 'compare', id, other, '--store', url],
      ['runs', 'delete', other, '--yes', '--store', url],
    ]) {
      const r = await cli(argv);
      expectClean(r);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
    }
    expect((await cli(['runs', 'list', '--store', url])).stdout).not.toContain(other);
    // A URL is never taken for a path: nothing is made in the working folder.
    expect(existsSync(join(ROOT, 'postgresql:'))).toBe(false);
    const stored = await cluster.client
      .query("SELECT config_json FROM team.public.runs WHERE config_json LIKE '%' || $1 || '%'", [SECRET])
      .catch(() => null);
    expect(stored === null || stored.rows.length === 0).toBe(true);
  }, 120_000);

  it('takes audits and probes', async () => {
    for (const command of ['audit', 'probe']) {
      const r = await cli([command, '--store', url]);
      expectClean(r);
      expect(r.code, `${command}: ${r.stderr}`).toBe(0);
    }
    const list = await cli(['runs', 'list', '--store', url]);
    expect(list.stdout).toMatch(/audit-\d{8}/);
    expect(list.stdout).toMatch(/probe-\d{8}/);
  }, 120_000);

  it('prints a resume hint without the password that finishes an interrupted run when pasted', async () => {
    const controller = new AbortController();
    const stopped = await runCliInProcess(['bench', '--limit', '30', '--parallel', '1', '--store', url], {
      env,
      cwd: ROOT,
      signal: controller.signal,
      onStderr: (text) => {
        if (/progress: [1-9]/.test(text)) controller.abort();
      },
    });
    expectClean(stopped);
    expect(stopped.code, stopped.stderr).toBe(130);
    const id = /(?:run|--resume) (\d{8}-\d{6}-[0-9a-f]{4})/.exec(stopped.stderr + stopped.stdout)![1]!;
    const hint = new RegExp(`decidekit bench --resume ${id}[^\\n;)]*`).exec(stopped.stderr + stopped.stdout)?.[0];
    expect(hint, stopped.stderr).toBe(`decidekit bench --resume ${id} --store ${shown}`);
    // The test cluster takes the password from nowhere: as PGPASSWORD or ~/.pgpass would give it.
    const [, ...argv] = hint!.split(' ');
    const resumed = await cli(argv);
    expectClean(resumed);
    expect(resumed.code, resumed.stderr).toBe(0);
    const show = JSON.parse((await cli(['runs', 'show', id, '--json', '--store', url])).stdout);
    expect(show.status).toBe('complete');
  }, 120_000);

  it('is browsed by view and listed as JSON without the password', async () => {
    const json = await cli(['runs', 'list', '--json', '--store', url]);
    expectClean(json);
    expect(JSON.parse(json.stdout).store).toBe(shown);
    const controller = new AbortController();
    let listening: (address: string) => void = () => undefined;
    const address = new Promise<string>((resolve) => (listening = resolve));
    const view = runCliInProcess(['view', '--store', url, '--port', '0'], {
      env,
      cwd: ROOT,
      signal: controller.signal,
      onStdout: (text) => {
        if (text.includes('http')) listening(text.trim().split('\n')[0]!);
      },
    });
    const page = await (await fetch(await address)).text();
    controller.abort();
    const r = await view;
    expectClean(r);
    expect(page).toMatch(/\d{8}-\d{6}-[0-9a-f]{4}/);
    expect(page).toContain(shown);
    expect(page).not.toContain(SECRET);
  });

  it('is read from DECIDEKIT_STORE when --store is not given, and a postgres:// URL works as well', async () => {
    const list = await cli(['runs', 'list'], { DECIDEKIT_STORE: url.replace('postgresql://', 'postgres://') });
    expectClean(list);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/\d{8}-\d{6}-[0-9a-f]{4}/);
  });

  it('says before any work, in words and without the password, when the store cannot be used', async () => {
    const cases: [string, RegExp][] = [
      [`postgresql://postgres:${SECRET}@127.0.0.1:1/team`, /nothing accepts connections at 127\.0\.0\.1:1/],
      [`postgresql://postgres:${SECRET}@127.0.0.1:${cluster.port}/nodb`, /has no database nodb/],
      [`postgresql://nobody:${SECRET}@127.0.0.1:${cluster.port}/team`, /refused the credentials of user nobody/],
    ];
    for (const [bad, why] of cases) {
      for (const argv of [
        ['bench', '--limit', '2', '--store', bad],
        ['runs', 'list', '--store', bad],
      ]) {
        const r = await cli(argv);
        expectClean(r);
        expect(r.code, argv.join(' ')).not.toBe(0);
        expect(r.stderr).toMatch(why);
        expect(r.stderr).not.toMatch(RAW_ERROR_CODE);
        expect(r.stderr).not.toContain('cases/s');
      }
    }
  }, 120_000);
});
