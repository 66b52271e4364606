/**
 * End to end: `runs push` and `runs pull` copy runs between any two stores (SQLite files and a
 * PostgreSQL database on a throwaway cluster), through the real CLI in process. A round trip
 * SQLite -> PostgreSQL -> SQLite gives the same `runs show --json` and `runs export`, and keeps
 * the listings kept with each run; copying
 * twice changes nothing; a different run under the same id is refused, naming it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { openStore } from '../../../src/store/open-store-with-postgres.js';
import { runConfig } from '../../../src/store/test-support/run-fixtures.js';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-push-pull-');
const SECRET = 'pull-push-secret';
const env = { XDG_DATA_HOME: join(tmp, 'xdg') };
const laptop = join(tmp, 'laptop.sqlite');
const other = join(tmp, 'other.sqlite');
let cluster: PostgresCluster;
let team: string;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  await cluster.client.query('CREATE DATABASE team');
  await cluster.client.query('CREATE DATABASE spare');
  team = `postgresql://postgres:${SECRET}@127.0.0.1:${cluster.port}/team`;
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const cli = (argv: readonly string[]) => runCliInProcess(argv, { env, cwd: ROOT });

async function benchInto(store: string, limit: number): Promise<string> {
  const r = await cli(['bench', '--limit', String(limit), '--store', store]);
  expect(r.code, r.stderr).toBe(0);
  return /run (\d{8}-\d{6}-[0-9a-f]{4}) saved/.exec(r.stderr + r.stdout)![1]!;
}

async function shownIn(store: string, id: string): Promise<{ show: string; export: string }> {
  const show = await cli(['runs', 'show', id, '--json', '--store', store]);
  const exported = await cli(['runs', 'export', id, '--format', 'jsonl', '--store', store]);
  expect(show.code, show.stderr).toBe(0);
  expect(exported.code, exported.stderr).toBe(0);
  return { show: show.stdout, export: exported.stdout };
}

function keptListings(path: string, id: string) {
  const store = openStore(path, { mustExist: true, readOnly: true });
  try {
    return store.runs.listings(id);
  } finally {
    store.close();
  }
}

describe('runs push and runs pull', () => {
  it('copy runs SQLite -> PostgreSQL -> SQLite, each equal to the original in show --json and export', async () => {
    const ids = [await benchInto(laptop, 6), await benchInto(laptop, 3)];
    const pushed = await cli(['runs', 'push', ...ids, '--to', team, '--store', laptop]);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout + pushed.stderr).not.toContain(SECRET);
    for (const id of ids) expect(pushed.stdout).toContain(`pushed run ${id}`);

    const again = await cli(['runs', 'push', ids[0]!.slice(0, 20), '--to', team, '--store', laptop]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`run ${ids[0]} already there`);

    const pulled = await cli(['runs', 'pull', ...ids, '--from', team, '--store', other]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).not.toContain(SECRET);
    for (const id of ids) {
      const original = await shownIn(laptop, id);
      expect(await shownIn(team, id)).toEqual(original);
      expect(await shownIn(other, id)).toEqual(original);
      // What its report lists goes with it, so the copy reads no case for it either.
      const listings = keptListings(laptop, id);
      expect(listings).not.toBeNull();
      expect(keptListings(team, id)).toEqual(listings);
      expect(keptListings(other, id)).toEqual(listings);
    }
    const pulledAgain = await cli(['runs', 'pull', ...ids, '--from', team, '--store', other]);
    expect(pulledAgain.code).toBe(0);
    expect(pulledAgain.stdout.match(/already there/g)).toHaveLength(2);
  }, 120_000);

  it('refuses a different run under the same id, naming it, and copies nothing when a run is unknown', async () => {
    const [id] = (await cli(['runs', 'list', '--json', '--store', team])).stdout.match(/\d{8}-\d{6}-[0-9a-f]{4}/)!;
    const head = openStore(team, { readOnly: true, mustExist: true });
    const createdAt = head.runs.head(id)!.createdAt;
    head.close();
    const suffix = id.slice(-4);
    const clash = join(tmp, 'clash.sqlite');
    const s = openStore(clash, {
      randomBytes: () => Uint8Array.of(parseInt(suffix.slice(0, 2), 16), parseInt(suffix.slice(2), 16)),
    });
    expect(s.runs.create({ config: runConfig(), label: 'another', createdAt }).id).toBe(id);
    s.close();
    const refused = await cli(['runs', 'push', id, '--to', team, '--store', clash]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`cannot copy run ${id}`);
    expect(refused.stderr).toContain('holds another run under the same id');
    expect(refused.stderr).not.toContain(SECRET);

    const spare = team.replace('/team', '/spare');
    const unknown = await cli(['runs', 'push', id, '20990101', '--to', spare, '--store', laptop]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('20990101');
    const list = await cli(['runs', 'list', '--store', spare]);
    expect(list.stdout).not.toContain(id);
  }, 120_000);
});
