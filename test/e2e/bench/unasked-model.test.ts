/**
 * A `bench --base-url` run that asks for no model: the store keeps model null, and every
 * place that shows the run's model names the one the server's answers named beside it.
 * The real CLI in process, the real reference server on 127.0.0.1, a real SQLite store.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answeredModelsOf } from '../../../src/core/typed-decisions/case-result.js';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { openStore } from '../../../src/store/index.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-unasked-model-');
const store = join(tmp, 'runs.sqlite');
const cli = (argv: string[]) => runCliInProcess([...argv, '--store', store], { columns: 200, isTTY: true });
let server: ReferenceServer;
let benchOut = '';
let unasked = '';
let asked = '';
/** What the store says answered the unasked run, read from its cases. */
let answered: string[] = [];

beforeAll(async () => {
  server = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'prior' });
  const bench = await cli(['bench', '--base-url', server.url, '--limit', '2']);
  expect(bench.code, bench.stderr).toBe(0);
  benchOut = bench.stdout;
  const withModel = await cli(['bench', '--base-url', server.url, '--limit', '2', '--model', 'prior']);
  expect(withModel.code, withModel.stderr).toBe(0);
  const s = openStore(store, { mustExist: true, readOnly: true });
  try {
    const [newest, first] = s.runs.list();
    [asked, unasked] = [newest!.id, first!.id];
    const run = s.runs.get(unasked)!;
    expect(run.config.model).toBeNull();
    answered = answeredModelsOf(run.cases);
  } finally {
    s.close();
  }
  expect(answered).toHaveLength(1);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('a run that asked for no model', () => {
  it("bench's report header names the model that answered", () => {
    expect(benchOut).toContain(`Decision benchmark: ${answered[0]} (server default)\n`);
  });

  it('report --format markdown titles it the same way', async () => {
    const r = await cli(['report', unasked, '--format', 'markdown']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`# Decision benchmark: ${answered[0]} (server default)\n`);
  });

  it('runs list shows the answering model in the model column, and in JSON as answered_models', async () => {
    const r = await cli(['runs', 'list']);
    expect(r.code, r.stderr).toBe(0);
    const row = r.stdout.split('\n').find((line) => line.startsWith(unasked));
    expect(row).toContain(`${answered[0]} (server default)`);
    const json = JSON.parse((await cli(['runs', 'list', '--json'])).stdout) as {
      runs: { id: string; model: string | null; answered_models: string[] | null }[];
    };
    const byId = new Map(json.runs.map((h) => [h.id, h]));
    expect(byId.get(unasked)).toMatchObject({ model: null, answered_models: answered });
    expect(byId.get(asked)).toMatchObject({ model: 'prior', answered_models: null });
  });

  it('runs show says none was asked and which answered; its JSON keeps model null', async () => {
    const r = await cli(['runs', 'show', unasked]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^ +model +none asked; answered by ${answered[0]}$`, 'm'));
    const json = JSON.parse((await cli(['runs', 'show', unasked, '--json'])).stdout);
    expect(json).toMatchObject({ model: null, answered_models: answered });
    const withModel = await cli(['runs', 'show', asked]);
    expect(withModel.stdout).toMatch(/^ +model +prior$/m);
  });
});
