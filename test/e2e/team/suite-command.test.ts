/**
 * End to end: `decidekit suite FILE` through the real CLI (in process) against two real
 * reference servers on loopback (one behind a gate that wants a key), a real SQLite store and
 * the bundled sample. The suite's runs are ordinary runs; it prints the leaderboard and the
 * paired comparison and exits by its gate. A key named by an environment variable reaches its
 * server and nothing else; a bad suite file is refused with one message a problem, before any
 * request is sent.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { startLoopbackGate } from '../../support/loopback-gate.js';

const dir = tempFolderRemovedAfterAll('decidekit-e2e-suite-');
const store = join(dir, 'runs.sqlite');
const KEY = 'sk-suite-Qw8Rt3Zy';
const env = { XDG_DATA_HOME: join(dir, 'xdg'), XDG_CACHE_HOME: join(dir, 'cache'), TEAM_KEY: KEY };

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

/** What reached the gated server: each request's path and whether it carried the key. */
const seen: { path: string; keyed: boolean }[] = [];
let heuristicUrl = '';
let priorUrl = '';
let priorRequests = 0;

beforeAll(async () => {
  const heuristic = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'heuristic' });
  closers.push(() => heuristic.close());
  heuristicUrl = await startLoopbackGate(
    heuristic.url,
    (req) => {
      const keyed = req.headers.authorization === `Bearer ${KEY}`;
      seen.push({ path: req.url ?? '', keyed });
      return keyed ? null : { status: 401, message: 'unauthorized' };
    },
    closers,
  );
  const prior = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'prior' });
  closers.push(() => prior.close());
  priorUrl = await startLoopbackGate(
    prior.url,
    () => {
      priorRequests++;
      return null;
    },
    closers,
  );
});

function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  return runCliInProcess(args, { cwd: dir, env: { ...env, ...extraEnv } });
}

/** Writes a suite file into the test's folder; returns its name. */
function suiteFile(name: string, suite: unknown): string {
  writeFileSync(join(dir, name), typeof suite === 'string' ? suite : `${JSON.stringify(suite, null, 2)}\n`);
  return name;
}

const models = () => [
  { name: 'heuristic', base_url: heuristicUrl, model: 'heuristic', api_key_env: 'TEAM_KEY' },
  { name: 'prior', base_url: priorUrl, model: 'prior' },
];
const datasets = [{ dataset: 'sample', limit: 60 }];

/** Every file of the store (the database, its WAL and claim files) as text. */
function storeBytes(): string {
  return readdirSync(dir)
    .filter((f) => f.startsWith('runs.sqlite'))
    .map((f) => readFileSync(join(dir, f)).toString('latin1'))
    .join('');
}

function expectClean(r: CliResult): void {
  for (const text of [r.stdout, r.stderr]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(text).not.toContain('internal error');
    expect(text).not.toMatch(/\(E[A-Z]+\)/);
  }
}

describe('a suite of two models on one dataset', () => {
  let failing: CliResult;
  beforeAll(async () => {
    const file = suiteFile('nightly.json', {
      name: 'nightly',
      models: models(),
      datasets,
      options: { parallel: 4, seed: 7 },
      gate: { baseline: 'heuristic', metric: 'accuracy', max_drop: 0 },
    });
    failing = await cli(['suite', file, '--store', store]);
  }, 60_000);

  it('runs every model as an ordinary stored run, prints the leaderboard and the comparison, and fails its gate', async () => {
    expectClean(failing);
    expect(failing.code, failing.stderr).toBe(1);
    expect(failing.stdout).toContain('Leaderboard: 2 runs of the same work, ranked by accuracy');
    expect(failing.stdout).toContain('same dataset revision, cases and questions; the model or server differs');
    expect(failing.stdout).toMatch(
      /^gate: prior against heuristic on sample: FAIL accuracy .*: the candidate is worse beyond noise$/m,
    );
    const list = await cli(['runs', 'list', '--store', store, '--json']);
    const runs = (JSON.parse(list.stdout) as { runs: { label: string; status: string }[] }).runs;
    expect(runs.map((r) => r.status)).toEqual(['complete', 'complete']);
    expect(runs.map((r) => r.label).sort()).toEqual([
      expect.stringMatching(/^suite nightly: heuristic × sample /),
      expect.stringMatching(/^suite nightly: prior × sample /),
    ]);
  });

  it('sends the key named by the file to its server and keeps it out of every output and the store', () => {
    expect(seen.length).toBeGreaterThan(60);
    expect(seen.every((s) => s.keyed)).toBe(true);
    expect(priorRequests).toBeGreaterThan(60);
    expect(storeBytes()).not.toContain(KEY);
    expect(storeBytes()).toContain('suite nightly');
  });

  it('passes the same gate the other way round, reusing the finished runs with --resume', async () => {
    const file = suiteFile('nightly-reversed.json', {
      name: 'nightly',
      models: models(),
      datasets,
      options: { parallel: 4, seed: 7 },
      gate: { baseline: 'prior', metric: 'accuracy' },
    });
    const before = seen.length;
    const r = await cli(['suite', file, '--store', store, '--resume', '--json']);
    expectClean(r);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      runs: { model: string; dataset: string; reused: boolean; status: string }[];
      gate: { pass: boolean; checks: { candidate: string; pass: boolean }[] };
      leaderboards: { runs: { model: string; rank: number }[] }[];
    };
    expect(doc.runs.map((x) => [x.model, x.dataset, x.reused, x.status])).toEqual([
      ['heuristic', 'sample', true, 'complete'],
      ['prior', 'sample', true, 'complete'],
    ]);
    expect(doc.gate.pass).toBe(true);
    expect(doc.gate.checks).toEqual([expect.objectContaining({ candidate: 'heuristic', pass: true })]);
    expect(doc.leaderboards[0]!.runs[0]!.model).toBe('heuristic');
    // Nothing was sent again but the check that the server answers.
    expect(seen.slice(before).every((s) => s.path === '/health')).toBe(true);
  });
});

describe('a suite file in YAML', () => {
  it('reads as the same suite in JSON does: the same runs, found again with --resume', async () => {
    const file = suiteFile(
      'nightly.yaml',
      [
        '# The nightly suite, as YAML.',
        'name: nightly',
        'models:',
        '  - name: heuristic',
        `    base_url: ${heuristicUrl}`,
        '    model: heuristic',
        '    api_key_env: TEAM_KEY',
        '  - name: prior',
        `    base_url: ${priorUrl}`,
        '    model: prior',
        'datasets:',
        '  - dataset: sample',
        '    limit: 60',
        'options: {parallel: 4, seed: 7}',
        'gate:',
        '  baseline: heuristic',
        '',
      ].join('\n'),
    );
    const before = seen.length;
    const r = await cli(['suite', file, '--store', store, '--resume']);
    expectClean(r);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('heuristic × sample: run');
    expect(r.stdout.match(/finished earlier, reused/g)).toHaveLength(2);
    expect(seen.slice(before).every((s) => s.path === '/health')).toBe(true);
  });

  it('names each problem at its line and field', async () => {
    const file = suiteFile(
      'bad.yml',
      [
        'models:',
        '  - name: heuristic',
        `    base_url: ${heuristicUrl}`,
        `    token: ${KEY}`,
        '  - name: heuristic',
        'datasets:',
        '  - dataset: sample',
        '    limit: many',
        '',
      ].join('\n'),
    );
    const r = await cli(['suite', file, '--store', store]);
    expectClean(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('bad.yml:4: models[0].token: a suite file never holds a key');
    expect(r.stderr).toContain('bad.yml:5: models[1].name: heuristic names models[0] too');
    expect(r.stderr).toContain('bad.yml:8: datasets[0].limit: must be a whole number of at least 1, got "many"');
    const broken = await cli([
      'suite',
      suiteFile('broken.yaml', 'models:\n  - name: a\n    name: b\n'),
      '--store',
      store,
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^broken\.yaml:3: not a YAML document \(.*\)$/m);
  });
});

describe('a bad suite file', () => {
  it('names every problem once, with its line and field, before any request is sent', async () => {
    const before = { gated: seen.length, prior: priorRequests };
    const file = suiteFile(
      'bad.json',
      [
        '{',
        '  "models": [',
        `    {"name": "heuristic", "base_url": "${heuristicUrl}", "model": "heuristic", "api_key": "${KEY}"},`,
        `    {"name": "prior", "base_url": "${priorUrl}", "modle": "prior", "api_key_env": "NO_SUCH_KEY_VAR"}`,
        '  ],',
        '  "datasets": [{"dataset": "sample", "limit": 0}, {"dataset": "cases/missing.jsonl"}],',
        '  "gate": {"baseline": "nobody", "metric": "accuracy"}',
        '}',
      ].join('\n'),
    );
    const r = await cli(['suite', file, '--store', store]);
    expectClean(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'bad.json:3: models[0].api_key: a suite file never holds a key: put it in an environment variable and name that variable in api_key_env',
    );
    expect(r.stderr).toContain('bad.json:4: models[1].modle: unknown field (did you mean model?)');
    expect(r.stderr).toContain(
      'bad.json:4: models[1].api_key_env: the environment variable NO_SUCH_KEY_VAR is not set',
    );
    expect(r.stderr).toContain('bad.json:6: datasets[0].limit: must be a whole number of at least 1, got 0');
    expect(r.stderr).toContain('bad.json:7: gate.baseline: nobody is none of the models (heuristic, prior)');
    expect(r.stderr).toContain(
      `bad.json:6: datasets[1].dataset: cannot read ${join(dir, 'cases', 'missing.jsonl')} (no such file or folder); a path is read from the suite file's folder`,
    );
    expect(r.stderr).toContain('decidekit suite: invalid input (6 problems)');
    expect(r.stderr.match(/api_key:/g)).toHaveLength(1);
    expect({ gated: seen.length, prior: priorRequests }).toEqual(before);
  });

  it('checks every dataset before any request: a file that is no dataset, a workflow it lacks, a dataset not downloaded', async () => {
    const before = { gated: seen.length, prior: priorRequests };
    writeFileSync(join(dir, 'garbage.jsonl'), 'this is not json\n');
    const file = suiteFile(
      'bad-datasets.json',
      [
        '{',
        `  "models": [{"name": "prior", "base_url": "${priorUrl}", "model": "prior"}, {"name": "p2", "base_url": "${priorUrl}", "model": "prior"}],`,
        '  "datasets": [',
        '    {"dataset": "garbage.jsonl"},',
        '    {"dataset": "sample", "workflow": "nope_wf"},',
        '    {"dataset": "typed-decisions"},',
        '    {"dataset": "sample", "name": "fine"}',
        '  ]',
        '}',
      ].join('\n'),
    );
    const r = await cli(['suite', file, '--store', join(dir, 'bad-datasets.sqlite')]);
    expectClean(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `bad-datasets.json:4: datasets[0].dataset: not a dataset: ${join(dir, 'garbage.jsonl')}:1: not valid JSON`,
    );
    expect(r.stderr).toMatch(
      /bad-datasets\.json:5: datasets\[1\]\.workflow: nope_wf is not in the dataset \(workflows: /,
    );
    expect(r.stderr).toMatch(
      /bad-datasets\.json:6: datasets\[2\]\.dataset: Typed Decisions is not in the cache: .*decidekit dataset fetch typed-decisions.* give that file's path in dataset\)/,
    );
    expect(r.stderr).toContain('decidekit suite: invalid input (3 problems)');
    expect(r.stderr.match(/datasets\[1\]/g)).toHaveLength(1);
    expect(r.stderr).not.toContain('--resume');
    expect(r.stderr).not.toContain('--workflow');
    expect({ gated: seen.length, prior: priorRequests }).toEqual(before);
    expect(readdirSync(dir).filter((f) => f.startsWith('bad-datasets.sqlite'))).toEqual([]);
  });

  it('offers no resume when no run was kept to take up', async () => {
    const refusing = await startLoopbackGate(
      priorUrl,
      (req) => (req.method === 'POST' ? { status: 404, message: 'no such endpoint' } : null),
      closers,
    );
    const file = suiteFile('refused.json', {
      models: [
        { name: 'a', base_url: refusing, model: 'prior' },
        { name: 'b', base_url: refusing, model: 'heuristic' },
      ],
      datasets: [{ dataset: 'sample', limit: 5 }],
    });
    const r = await cli(['suite', file, '--store', join(dir, 'refused.sqlite')]);
    expectClean(r);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('--resume');
    expect(r.stderr).toContain('decidekit suite: not every run finished, and none was kept to take up again');
  });

  it('says what is wrong with a file that is missing, not JSON or not a suite', async () => {
    const missing = await cli(['suite', 'nowhere.json', '--store', store]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nowhere.json: cannot read the suite file (no such file or folder)');
    expectClean(missing);
    const broken = await cli(['suite', suiteFile('broken.json', '{"models": [\n'), '--store', store]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('broken.json:1: not a JSON document (the JSON ends too early');
    const cut = await cli(['suite', suiteFile('cut.json', '{\n  "models": [\n    {"name": "a",\n'), '--store', store]);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain('cut.json:3: not a JSON document (');
    const twice = suiteFile(
      'twice.json',
      '{\n  "models": [{"name": "a"}],\n  "datasets": [{"dataset": "sample"}],\n  "models": []\n}\n',
    );
    const repeated = await cli(['suite', twice, '--store', store]);
    expect(repeated.code).toBe(1);
    expect(repeated.stderr).toContain('twice.json:4: not a suite: key "models" appears twice in one object');
    expectClean(repeated);
    const empty = await cli(['suite', suiteFile('list.json', '[1, 2]\n'), '--store', store]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('list.json:1: a suite file holds one JSON object (models, datasets, options, gate)');
  });

  it('refuses a server that does not answer before any run starts, naming the model', async () => {
    const closed = await startReferenceServer({ host: '127.0.0.1', port: 0 });
    const url = closed.url;
    await closed.close();
    const file = suiteFile('unreachable.json', {
      models: [{ name: 'gone', base_url: url, model: 'heuristic' }, models()[1]],
      datasets,
    });
    const before = priorRequests;
    const r = await cli(['suite', file, '--store', join(dir, 'unreachable.sqlite')]);
    expectClean(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`unreachable.json:5: models[0].base_url: no server answers at ${url}`);
    expect(priorRequests - before).toBeLessThanOrEqual(1);
    expect(readdirSync(dir).filter((f) => f.startsWith('unreachable.sqlite'))).toEqual([]);
  });

  it('names a store that cannot be used once, before any run', async () => {
    const before = priorRequests;
    const file = suiteFile('to-folder.json', { models: models(), datasets });
    const r = await cli(['suite', file, '--store', dir]);
    expectClean(r);
    // As bench says it: --store names a folder, a usage error.
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^decidekit suite: the run store must be a regular file: .* is a folder/);
    expect(r.stderr.match(/is a folder/g)).toHaveLength(1);
    expect(priorRequests - before).toBeLessThanOrEqual(1);
  });

  it('tells a server that refuses the key from one that is not given it', async () => {
    const file = suiteFile('keyless.json', {
      models: [{ name: 'heuristic', base_url: heuristicUrl, model: 'heuristic' }],
      datasets,
    });
    const r = await cli(['suite', file, '--store', store]);
    expectClean(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `keyless.json:5: models[0].base_url: the server at ${heuristicUrl}/ refused the request without a key (HTTP 401): name the environment variable that holds its key in api_key_env`,
    );
  });
});

describe('the example suite file', () => {
  it('runs as the docs show it and passes its gate', async () => {
    const example = join(import.meta.dirname, '..', '..', '..', 'examples', 'suite.json');
    const r = await cli(['suite', example, '--store', join(dir, 'example.sqlite')]);
    expectClean(r);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Suite example: 2 models × 1 dataset');
    expect(r.stdout).toMatch(/^gate: heuristic against prior on sample: PASS accuracy /m);
    expect(r.stdout).toContain('Gate: PASS (every model holds against prior).');
  });
});
