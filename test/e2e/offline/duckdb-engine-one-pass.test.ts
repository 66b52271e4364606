/**
 * `score --engine duckdb` reads a valid results file in one pass: its rows stream from the
 * file through the checks and the join into the sums, and no table of them is written. A file
 * with a problem anywhere (a case given twice far apart, a second model on the last line, a
 * first line without a model) still gets the same problems the default engine finds.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreWithDuckDb } from '../../../src/app/offline/score-with-duckdb.js';
import { inFolder, runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-duckdb-one-pass-');

/** More rows than one DuckDB chunk (2,048), so a repeat at the far end is in another chunk. */
const CASES = 5000;
const dataset = join(dir, 'dataset.jsonl');
writeFileSync(
  dataset,
  Array.from({ length: CASES }, (_, i) =>
    JSON.stringify(
      i % 2 === 0
        ? { id: `c-${i}`, kind: 'yes_no', correct: i % 4 === 0 }
        : { id: `c-${i}`, kind: 'choice', options: ['a', 'b', 'c'], correct: 'b' },
    ),
  ).join('\n'),
);

function result(i: number, model = 'm'): string {
  return JSON.stringify({
    case_id: `c-${i}`,
    model,
    decision: i % 2 === 0 ? { probability: (i % 10) / 10 } : { probabilities: [0.2, 0.5, 0.3] },
    latency_ms: i,
  });
}

function resultsFile(name: string, lines: readonly string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const valid = Array.from({ length: CASES }, (_, i) => result(i));

type DuckDbModule = typeof import('@duckdb/node-api');

/** The package with every statement the engine runs recorded in `statements`. */
function recordingDuckDb(statements: string[]): () => Promise<DuckDbModule> {
  return async () => {
    const duckdb = await import('@duckdb/node-api');
    const record = <T extends object>(target: T): T =>
      new Proxy(target, {
        get(t, key, receiver) {
          const value = Reflect.get(t, key, receiver) as unknown;
          if (typeof value !== 'function') return value;
          if (key === 'run' || key === 'stream' || key === 'runAndReadAll')
            return (sql: string, ...rest: unknown[]) => {
              statements.push(sql);
              return (value as (...a: unknown[]) => unknown).call(t, sql, ...rest);
            };
          if (key === 'connect')
            return async (...a: unknown[]) => record(await (value as (...b: unknown[]) => Promise<object>).apply(t, a));
          return value.bind(t);
        },
      });
    const create: DuckDbModule['DuckDBInstance']['create'] = async (...a) =>
      record(await duckdb.DuckDBInstance.create(...a));
    return { ...duckdb, DuckDBInstance: { ...duckdb.DuckDBInstance, create } } as unknown as DuckDbModule;
  };
}

async function bothEngines(results: string): Promise<{ node: string; duckdb: string; code: number }> {
  const args = ['score', '--dataset', dataset, '--results', results, '--no-ci'];
  const node = await runCliInProcess(args, inFolder(dir));
  const duckdb = await runCliInProcess([...args, '--engine', 'duckdb'], inFolder(dir));
  expect(duckdb.code).toBe(node.code);
  return { node: node.stderr, duckdb: duckdb.stderr, code: duckdb.code };
}

describe('score --engine duckdb on a valid results file', () => {
  it('reads the rows in one pass and writes no table of them', async () => {
    const statements: string[] = [];
    const scored = await scoreWithDuckDb(dataset, resultsFile('valid.jsonl', valid), {
      importDuckDb: recordingDuckDb(statements),
    });
    expect(scored.summary.counts.nScored.total).toBe(CASES);
    expect(scored.model).toBe('m');
    const tables = statements.filter((sql) => /CREATE (OR REPLACE )?(TEMP )?TABLE/i.test(sql));
    expect(tables.map((sql) => /TABLE (\w+)/.exec(sql)?.[1])).toEqual(['dk_cases']);
  });
});

interface PlanNode {
  readonly name: string;
  readonly extra_info?: { readonly Projections?: readonly string[] | string };
  readonly children?: readonly PlanNode[];
}

/** The plan DuckDB makes for each query the engine streams, asked for just before it runs. */
function planningDuckDb(plans: PlanNode[][]): () => Promise<DuckDbModule> {
  return async () => {
    const duckdb = await import('@duckdb/node-api');
    const create: DuckDbModule['DuckDBInstance']['create'] = async (...a) => {
      const instance = await duckdb.DuckDBInstance.create(...a);
      const connect = instance.connect.bind(instance);
      return Object.assign(instance, {
        connect: async () => {
          const connection = await connect();
          const stream = connection.stream.bind(connection);
          return Object.assign(connection, {
            stream: async (sql: string) => {
              const explained = await connection.runAndReadAll(`EXPLAIN (FORMAT json) ${sql}`);
              plans.push(JSON.parse(String(explained.getRowObjectsJS()[0]!['explain_value'])) as PlanNode[]);
              return stream(sql);
            },
          });
        },
      });
    };
    return { ...duckdb, DuckDBInstance: { ...duckdb.DuckDBInstance, create } } as unknown as DuckDbModule;
  };
}

function joinsOf(node: PlanNode): PlanNode[] {
  const below = (node.children ?? []).flatMap(joinsOf);
  return node.name.includes('JOIN') ? [node, ...below] : below;
}

describe('score --engine duckdb joins narrow rows to their cases', () => {
  it('checks what needs no case before the join, so only a dozen columns of each result enter it', async () => {
    const plans: PlanNode[][] = [];
    const scored = await scoreWithDuckDb(dataset, resultsFile('valid-planned.jsonl', valid), {
      importDuckDb: planningDuckDb(plans),
    });
    expect(scored.summary.counts.nScored.total).toBe(CASES);
    const joins = plans.flat().flatMap(joinsOf);
    expect(joins).toHaveLength(1);
    const widths = joins[0]!.children!.map((side) => side.extra_info?.Projections?.length ?? 0);
    // The results' side (the case id, what the checks after the join and the scoring read),
    // not the two dozen fields the checks before it read.
    expect(Math.max(...widths)).toBeLessThanOrEqual(12);
  });
});

describe('score --engine duckdb on a results file with one problem far from its start', () => {
  it('refuses a case given on the first line and again on the last', async () => {
    const { duckdb, code } = await bothEngines(resultsFile('twice.jsonl', [...valid, result(0)]));
    expect(code).toBe(1);
    expect(duckdb).toContain('case c-0: duplicate result for this case (2 results)');
  });

  it('refuses a second model on the last line only', async () => {
    const lines = valid.with(CASES - 1, result(CASES - 1, 'other'));
    const { duckdb, code } = await bothEngines(resultsFile('two-models.jsonl', lines));
    expect(code).toBe(1);
    expect(duckdb).toContain('more than one model ("m", "other")');
  });

  it('refuses probabilities that sum away from 1 on the last line only', async () => {
    const last = JSON.stringify({
      case_id: `c-${CASES - 1}`,
      model: 'm',
      decision: { probabilities: [0.2, 0.5, 0.4] },
    });
    const { node, duckdb, code } = await bothEngines(resultsFile('sum.jsonl', valid.with(CASES - 1, last)));
    expect(code).toBe(1);
    expect(node).toContain(`case c-${CASES - 1}: probabilities sum to 1.1`);
    expect(duckdb).toContain(`case c-${CASES - 1}: probabilities sum to 1.1`);
  });

  it.each([
    ['a probability above 1', CASES - 2, { probability: 1.5 }, 'probability must be a number in [0, 1]'],
    [
      'a choice probability below 0 in a list summing to 1',
      CASES - 1,
      { probabilities: [-0.1, 0.6, 0.5] },
      'probabilities',
    ],
    [
      'a choice probability above 1 keyed by option',
      CASES - 1,
      { probabilities: { a: 1.2, b: -0.1, c: -0.1 } },
      'probabilities',
    ],
    // The engines word a probability out of range apart (the default names it, DuckDB the rule).
  ])('refuses %s on the last lines only', async (_name, i, decision, message) => {
    const line = JSON.stringify({ case_id: `c-${i}`, model: 'm', decision });
    const { node, duckdb, code } = await bothEngines(
      resultsFile(`range-${i}-${_name.length}.jsonl`, valid.with(i, line)),
    );
    expect(code).toBe(1);
    expect(node).toContain(`case c-${i}: ${message}`);
    expect(duckdb).toContain(`case c-${i}: ${message}`);
  });

  it('names a first line without a model, as the default engine does', async () => {
    const first = JSON.stringify({ case_id: 'c-0', decision: { probability: 0.1 } });
    const { node, duckdb, code } = await bothEngines(resultsFile('no-model.jsonl', valid.with(0, first)));
    expect(code).toBe(1);
    expect(node).toContain('case c-0: model is missing');
    expect(duckdb).toContain('case c-0: model is missing');
  });
});
