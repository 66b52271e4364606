/**
 * A run that asked for no model is named by the model its server answered with, the same way
 * in `runs list` and in the leaderboard of `runs compare A B C`: `heuristic (server
 * default)`, not a bare "server default". The real CLI in process against the reference
 * server on loopback, a real SQLite store.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-leaderboard-models-');
const store = join(tmp, 'runs.sqlite');
const env = { XDG_DATA_HOME: tmp };
let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({ host: '127.0.0.1', port: 0 });
});
afterAll(() => server.close());

describe('the model of a run that asked for none', () => {
  it('reads the same in runs list and in the leaderboard', async () => {
    const ids: string[] = [];
    for (const model of [null, 'uniform', 'prior']) {
      const args = ['bench', '--base-url', server.url, '--limit', '10', '--store', store, '--json'];
      const r = await runCliInProcess(model === null ? args : [...args, '--model', model], { env });
      expect(r.code, r.stderr).toBe(0);
      ids.push((JSON.parse(r.stdout) as { id: string }).id);
    }
    const list = await runCliInProcess(['runs', 'list', '--store', store], { env });
    expect(list.stdout).toContain('heuristic (server default)');
    const board = await runCliInProcess(['runs', 'compare', ...ids, '--store', store], { env });
    expect(board.code, board.stderr).toBe(0);
    const row = board.stdout.split('\n').find((line) => line.includes(ids[0]!));
    expect(row).toContain('heuristic (server default)');
  });
});
