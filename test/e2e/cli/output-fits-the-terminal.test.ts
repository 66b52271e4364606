/**
 * What the commands print fits the terminal it is printed on: at 60, 80 and 120 columns no
 * line of `runs list`, `runs show`, `runs compare` (two runs, and the leaderboard of three),
 * `bench` (its summary and its standard error), `score`, `compare`, `tune`, `actions`,
 * `audit`, `probe`, `dataset info` or `runs check` is wider than the terminal, so
 * nothing wraps mid-word, and `runs list` keeps the run's label (the one name its user
 * chose). The real CLI in process against the embedded reference server and one with
 * failures, a real SQLite store.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-widths-');
const store = join(tmp, 'runs.sqlite');
const env = { XDG_DATA_HOME: tmp };
const MODERATION = join(import.meta.dirname, '..', '..', '..', 'data', 'moderation');
const INBOX = join(import.meta.dirname, '..', '..', '..', 'data', 'inbox');
const SAMPLE = join(import.meta.dirname, '..', '..', '..', 'data', 'typed-decisions-sample');
const WIDTHS = [60, 80, 120] as const;
const runIds: string[] = [];
let server: ReferenceServer;

/** Runs the CLI on a terminal `columns` wide; every line it printed, colour codes removed. */
async function printed(argv: string[], columns: number) {
  const r = await runCliInProcess(argv, { env, cwd: tmp, columns, isTTY: true });
  // Every escape sequence (colours, erase to end of line) takes no column.
  const lines = `${r.stdout}\n${r.stderr}`.split(/\r|\n/).map((l) => l.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''));
  return { ...r, lines };
}

function expectFits(lines: readonly string[], columns: number, what: string): void {
  const over = lines.filter((l) => [...l].length > columns);
  expect(over, `${what} at ${columns} columns`).toEqual([]);
}

beforeAll(async () => {
  server = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { seed: 2, failRate: 0.3 } });
  const runs = [
    ['--limit', '20', '--label', 'baseline prompt v2'],
    ['--limit', '20', '--model', 'prior', '--label', 'candidate: shorter system prompt'],
    ['--limit', '20', '--base-url', server.url, '--retries', '0', '--label', 'flaky server'],
  ];
  for (const args of runs) {
    const r = await runCliInProcess(['bench', '--store', store, '--json', ...args], { env, cwd: tmp });
    expect([0, 1], r.stderr).toContain(r.code);
    runIds.push((JSON.parse(r.stdout) as { id: string }).id);
  }
}, 120_000);

/** A run of other work than the first (fewer cases), made once when first asked for. */
let otherWork: Promise<string> | undefined;
function runOfOtherWork(): Promise<string> {
  otherWork ??= runCliInProcess(['bench', '--store', store, '--json', '--limit', '10', '--model', 'prior'], {
    env,
    cwd: tmp,
  }).then((r) => (JSON.parse(r.stdout) as { id: string }).id);
  return otherWork;
}

/** A dataset and a results file with two misspelt keys: problems whose lines are long. */
function problemFiles(): [string, string] {
  const dataset = join(tmp, 'problems-dataset.jsonl');
  const results = join(tmp, 'problems-results.jsonl');
  writeFileSync(
    dataset,
    '{"id":"yn-1","kind":"yes_no","correct":true}\n{"id":"ch-1","kind":"choice","options":["a","b"],"correct":"a"}\n',
  );
  writeFileSync(
    results,
    '{"case_id":"yn-1","model":"m","decision":{"prob":0.9}}\n{"caseid":"ch-1","model":"m","decision":{"probabilities":{"a":0.5,"b":0.5}}}\n',
  );
  return [dataset, results];
}

afterAll(async () => {
  await server?.close();
});

describe('output fits the terminal', () => {
  for (const columns of WIDTHS) {
    it(`runs list fits ${columns} columns and keeps the labels`, async () => {
      const r = await printed(['runs', 'list', '--store', store], columns);
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'runs list');
      const text = r.lines.join('\n');
      for (const id of runIds) expect(text).toContain(id);
      for (const label of ['baseline', 'candidate', 'flaky']) expect(text).toContain(label);
      expect(text).toContain('heuristic*');
    });

    it(`runs compare fits ${columns} columns`, async () => {
      const r = await printed(['runs', 'compare', runIds[0]!, runIds[1]!, '--store', store], columns);
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'runs compare');
    });

    it(`runs compare of three runs (the leaderboard) fits ${columns} columns`, async () => {
      const r = await printed(['runs', 'compare', ...runIds, '--store', store, '--force'], columns);
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'the leaderboard');
      expect(r.stdout).toContain('Leaderboard');
    });

    it(`runs show fits ${columns} columns`, async () => {
      const r = await printed(['runs', 'show', runIds[2]!, '--store', store], columns);
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'runs show');
      expect(r.stdout).toContain('flaky server');
    });

    it(`bench fits ${columns} columns, on standard output and standard error`, async () => {
      const r = await printed(
        ['bench', '--limit', '20', '--no-store', '--base-url', server.url, '--retries', '0'],
        columns,
      );
      expect(r.code, r.stderr).toBe(1);
      expectFits(r.lines, columns, 'bench');
      expect(r.stdout).toContain('Accuracy');
    });

    it(`score fits ${columns} columns`, async () => {
      const r = await printed(
        [
          'score',
          '--dataset',
          join(MODERATION, 'dataset.jsonl'),
          '--results',
          join(MODERATION, 'results-budget-1.jsonl'),
        ],
        columns,
      );
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'score');
      expect(r.stdout).toContain('Conventions:');
    });

    it(`compare fits ${columns} columns`, async () => {
      const r = await printed(
        [
          'compare',
          '--dataset',
          join(MODERATION, 'dataset.jsonl'),
          '--results',
          ...['careful-1', 'loud-1', 'budget-1'].map((m) => join(MODERATION, `results-${m}.jsonl`)),
        ],
        columns,
      );
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'compare');
      expect(r.stdout).toContain('Conventions:');
      expect(r.stdout).toContain('budget-1');
    });

    it(`tune fits ${columns} columns`, async () => {
      const r = await printed(
        [
          'tune',
          '--dataset',
          join(MODERATION, 'dataset.jsonl'),
          '--results',
          join(MODERATION, 'results-budget-1.jsonl'),
          '--min-precision',
          '0.95',
          '--min-recall',
          '0.8',
        ],
        columns,
      );
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'tune');
      expect(r.stdout).toContain('cross-validated');
    });

    it(`actions fits ${columns} columns`, async () => {
      const r = await printed(
        [
          'actions',
          '--dataset',
          join(INBOX, 'dataset.jsonl'),
          '--spec',
          join(INBOX, 'spec.json'),
          '--results',
          join(INBOX, 'results-fieldsharp-1.jsonl'),
          join(INBOX, 'results-actionwise-1.jsonl'),
        ],
        columns,
      );
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'actions');
      expect(r.stdout).toContain('actionwise-1');
    });

    it(`audit fits ${columns} columns, its progress and its table`, async () => {
      const r = await printed(['audit', '--no-store'], columns);
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'audit');
      expect(r.stdout).toContain('T-012');
      expect(r.stderr).toContain('asking judge');
    });

    it(`probe fits ${columns} columns, its progress and its report`, async () => {
      const r = await printed(['probe', '--cases', '10', '--no-store'], columns);
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'probe');
      expect(r.stdout).toContain('Verdict: conformant');
    });

    it(`dataset info fits ${columns} columns`, async () => {
      const r = await printed(['dataset', 'info', SAMPLE], columns);
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'dataset info');
      expect(r.stdout).toContain('attribution');
    });

    it(`runs check fits ${columns} columns`, async () => {
      const r = await printed(['runs', 'check', '--store', store], columns);
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'runs check');
      expect(r.stdout.replace(/\s+/g, ' ')).toContain('reads back as it was saved');
    });
  }

  for (const columns of WIDTHS) {
    it(`calibrate fits ${columns} columns, its tables and its noise floor`, async () => {
      const r = await printed(
        [
          'calibrate',
          '--dataset',
          join(MODERATION, 'dataset.jsonl'),
          '--results',
          join(MODERATION, 'results-loud-1.jsonl'),
        ],
        columns,
      );
      expect(r.code, r.stderr).toBe(0);
      expectFits(r.lines, columns, 'calibrate');
      expect(r.stdout.replace(/\s+/g, ' ')).toContain('ECE noise floor: before');
    });

    it(`runs compare --force and runs gate --force fit ${columns} columns, warning and result`, async () => {
      const other = await runOfOtherWork();
      const compare = await printed(['runs', 'compare', runIds[0]!, other, '--store', store, '--force'], columns);
      expect(compare.stderr.replace(/\s+/g, ' ')).toContain('warning: the runs measured different work');
      expectFits(compare.lines, columns, 'runs compare --force');
      const gate = await printed(
        ['runs', 'gate', '--baseline', runIds[0]!, '--candidate', other, '--store', store, '--force'],
        columns,
      );
      expect(gate.stderr.replace(/\s+/g, ' ')).toContain('warning: the runs measured different work');
      expect(gate.stdout).toMatch(/^(PASS|FAIL) accuracy/);
      expectFits(gate.lines, columns, 'runs gate --force');
    });

    it(`score and validate problems fit ${columns} columns, wrapped under their indent`, async () => {
      const [dataset, results] = problemFiles();
      for (const command of ['score', 'validate']) {
        const r = await printed([command, '--dataset', dataset, '--results', results], columns);
        expect(r.code, r.stderr).toBe(1);
        expectFits(r.lines, columns, command);
        expect((r.stdout + r.stderr).replace(/\s+/g, ' ')).toContain(
          "the line has the unknown key 'prob': did you mean 'probability'?",
        );
      }
    });
  }

  it('runs gate and the problems of score keep one line each on a pipe', async () => {
    const gate = await runCliInProcess(
      ['runs', 'gate', '--baseline', runIds[0]!, '--candidate', await runOfOtherWork(), '--store', store, '--force'],
      { env, cwd: tmp },
    );
    expect(gate.stdout.trimEnd().split('\n')).toHaveLength(1);
    const problems = await runCliInProcess(
      ['score', '--dataset', join(tmp, 'problems-dataset.jsonl'), '--results', join(tmp, 'problems-results.jsonl')],
      { env, cwd: tmp },
    );
    expect(problems.stderr).toMatch(
      /^\S+problems-results\.jsonl:1 case yn-1: probability is missing .*did you mean 'probability'\?$/m,
    );
  });

  it('compare to a pipe keeps its Markdown tables and lines whole', async () => {
    const r = await runCliInProcess(
      [
        'compare',
        '--dataset',
        join(MODERATION, 'dataset.jsonl'),
        '--results',
        join(MODERATION, 'results-careful-1.jsonl'),
        join(MODERATION, 'results-loud-1.jsonl'),
      ],
      { env, cwd: tmp },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\| Model +\| +Accuracy \|/m);
    expect(r.stdout).toMatch(/^Conventions: .{150,}$/m);
  });
});
