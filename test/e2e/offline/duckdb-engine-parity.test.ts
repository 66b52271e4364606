/**
 * `score --engine duckdb` against the in-process scorer, both through the real CLI: the same
 * numbers (to 1e-9) and the same report on the bundled samples and on seeded edge cases
 * (JSONL, gzipped JSONL and Parquet results); the same verdict on invalid files, with the
 * DuckDB engine naming file, case and field; and a clear usage error without the package.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { scoreWithDuckDb } from '../../../src/app/offline/score-with-duckdb.js';
import { inFolder, runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { createEdgeFiles } from '../../support/offline-edge-files.js';
import { expectSameNumbers } from '../../support/same-numbers.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const dir = tempFolderRemovedAfterAll('decidekit-duckdb-parity-');

/** Intervals need every decision in memory: the DuckDB engine gives none, so the in-process side runs --no-ci. */
async function score(args: string[], engine: 'node' | 'duckdb') {
  return runCliInProcess(
    ['score', ...args, '--engine', engine, ...(engine === 'node' ? ['--no-ci'] : [])],
    inFolder(dir),
  );
}

async function expectParity(args: string[]): Promise<Record<string, unknown>> {
  const node = await score([...args, '--json'], 'node');
  const duck = await score([...args, '--json'], 'duckdb');
  expect(node.code, node.stderr).toBe(0);
  expect(duck.code, duck.stderr).toBe(0);
  const expected = JSON.parse(node.stdout) as Record<string, unknown>;
  expectSameNumbers(JSON.parse(duck.stdout), expected);
  return expected;
}

describe('score --engine duckdb on the bundled samples', () => {
  const samples = [
    ['moderation', 'results-careful-1.jsonl'],
    ['moderation', 'results-budget-1.jsonl'],
    ['moderation', 'results-loud-1.jsonl'],
    ['inbox', 'results-actionwise-1.jsonl'],
    ['inbox', 'results-fieldsharp-1.jsonl'],
  ];
  it.each(samples)('gives the in-process numbers and report on %s/%s', async (folder, results) => {
    const args = [
      '--dataset',
      join(ROOT, 'data', folder, 'dataset.jsonl'),
      '--results',
      join(ROOT, 'data', folder, results),
    ];
    await expectParity(args);
    const node = await score(args, 'node');
    const duck = await score(args, 'duckdb');
    expect(duck.stdout).toBe(node.stdout);
  });

  it('gives the in-process numbers with 15 ECE bins', async () => {
    const data = join(ROOT, 'data', 'moderation');
    const doc = await expectParity([
      '--dataset',
      join(data, 'dataset.jsonl'),
      '--results',
      join(data, 'results-careful-1.jsonl'),
      '--ece-bins',
      '15',
    ]);
    expect(JSON.stringify(doc)).toContain('"upper":');
  });

  it('says it gives no intervals, and refuses ECE conventions that need every decision (exit 2)', async () => {
    const data = join(ROOT, 'data', 'moderation');
    const args = ['--dataset', join(data, 'dataset.jsonl'), '--results', join(data, 'results-careful-1.jsonl')];
    const plain = await runCliInProcess(['score', ...args, '--engine', 'duckdb'], inFolder(dir));
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('no intervals');
    for (const extra of [
      ['--ece-binning', 'equal-mass'],
      ['--ece-average', 'per-question'],
    ]) {
      const r = await runCliInProcess(['score', ...args, '--engine', 'duckdb', ...extra], inFolder(dir));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('use --engine node');
    }
  });

  it('gives the in-process numbers at another threshold', async () => {
    const data = join(ROOT, 'data', 'moderation');
    await expectParity([
      '--dataset',
      join(data, 'dataset.jsonl'),
      '--results',
      join(data, 'results-budget-1.jsonl'),
      '--threshold',
      '0.3',
    ]);
  });
});

describe('score --engine duckdb on seeded edge cases', () => {
  it.each([
    [1, 0.5],
    [2, 0.3],
    [3, 0.7],
  ])('gives the in-process numbers (seed %i, threshold %d): JSONL, gzip and Parquet', async (seed, threshold) => {
    const files = createEdgeFiles(1500, seed, threshold);
    const base = join(dir, `edge-${seed}`);
    writeFileSync(`${base}-dataset.jsonl`, files.dataset);
    writeFileSync(`${base}-results.jsonl`, files.results);
    writeFileSync(`${base}-results.jsonl.gz`, gzipSync(files.results));
    writeFileSync(
      `${base}-results.parquet`,
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: 'case_id', data: files.rows.map((r) => r['case_id']), type: 'STRING' },
            { name: 'model', data: files.rows.map((r) => r['model']), type: 'STRING' },
            { name: 'decision', data: files.rows.map((r) => JSON.stringify(r['decision'])), type: 'STRING' },
            { name: 'cost_usd', data: files.rows.map((r) => r['cost_usd'] ?? null), type: 'DOUBLE' },
            { name: 'latency_ms', data: files.rows.map((r) => r['latency_ms'] ?? null), type: 'DOUBLE' },
          ],
        }),
      ),
    );
    const args = ['--dataset', `${base}-dataset.jsonl`, '--threshold', String(threshold)];
    const expected = await expectParity([...args, '--results', `${base}-results.jsonl`]);
    const counts = expected['counts'] as { n_missing: number; n_scored: { score: number } };
    expect(counts.n_missing).toBeGreaterThan(0);
    expect(counts.n_scored.score).toBeGreaterThan(0);
    // Gzipped JSONL and Parquet (decision as JSON text): both engines agree, and with the JSONL numbers.
    copyFileSync(`${base}-results.parquet`, `${base}-results.data`);
    for (const results of [`${base}-results.jsonl.gz`, `${base}-results.parquet`, `${base}-results.data`]) {
      const { results: _path, ...numbers } = await expectParity([...args, '--results', results]);
      const { results: _expectedPath, ...expectedNumbers } = expected;
      expectSameNumbers(numbers, expectedNumbers);
    }
  });
});

describe('score --engine duckdb to the last digit', () => {
  async function expectExactly(base: string, runs: number): Promise<void> {
    const args = ['--dataset', `${base}-dataset.jsonl`, '--results', `${base}-results.jsonl`, '--json'];
    const node = await score(args, 'node');
    expect(node.code, node.stderr).toBe(0);
    for (let run = 0; run < runs; run++) {
      const duck = await score(args, 'duckdb');
      expect(duck.code, duck.stderr).toBe(0);
      expect(JSON.parse(duck.stdout)).toEqual(JSON.parse(node.stdout));
    }
  }

  it('prints the in-process numbers exactly, the same on every run', async () => {
    const files = createEdgeFiles(3000, 11);
    const base = join(dir, 'last-digit');
    writeFileSync(`${base}-dataset.jsonl`, files.dataset);
    writeFileSync(`${base}-results.jsonl`, files.results);
    await expectExactly(base, 3);
  });

  it('scores choice cases of twenty options, listed in order and keyed by name, as the in-process engine does', async () => {
    const options = Array.from({ length: 20 }, (_, i) => `o${i}`);
    const base = join(dir, 'twenty-options');
    writeFileSync(
      `${base}-dataset.jsonl`,
      [0, 1].map((i) => JSON.stringify({ id: `c-${i}`, kind: 'choice', options, correct: `o${i + 3}` })).join('\n'),
    );
    const probabilities = options.map((_, i) => (i === 3 ? 0.43 : 0.03));
    const keyed = Object.fromEntries(options.map((o, i) => [o, probabilities[i]]));
    writeFileSync(
      `${base}-results.jsonl`,
      [
        JSON.stringify({ case_id: 'c-0', model: 'm', decision: { probabilities } }),
        JSON.stringify({ case_id: 'c-1', model: 'm', decision: { probabilities: keyed, picked: 'o5' } }),
      ].join('\n'),
    );
    const numbers = await expectParity(['--dataset', `${base}-dataset.jsonl`, '--results', `${base}-results.jsonl`]);
    expect(numbers['accuracy']).toBe(0.5);
  });

  it('takes the logarithm as the in-process engine does', async () => {
    // Probabilities whose natural logarithm DuckDB's ln and JavaScript's Math.log round apart.
    const probabilities = [0.023, 0.036, 0.079, 0.09];
    const base = join(dir, 'last-digit-log');
    writeFileSync(
      `${base}-dataset.jsonl`,
      probabilities.map((p) => `{"id": "c-${p}", "kind": "yes_no", "correct": true}\n`).join(''),
    );
    writeFileSync(
      `${base}-results.jsonl`,
      probabilities.map((p) => `{"case_id": "c-${p}", "model": "m", "decision": {"probability": ${p}}}\n`).join(''),
    );
    await expectExactly(base, 1);
  });
});

describe('score --engine duckdb on Parquet that DuckDB itself writes', () => {
  it('reads struct columns as the default engine does: a null field is absent', async () => {
    // COPY ... TO parquet from the bundled JSONL: `decision` becomes one struct whose
    // `probabilities` has a field for every option of every choice case, null where the
    // case has no such option.
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const data = join(ROOT, 'data', 'moderation');
    const parquet = join(dir, 'duckdb written results.parquet');
    try {
      await connection.run(
        `COPY (SELECT * FROM read_json('${join(data, 'results-careful-1.jsonl')}')) TO '${parquet}' (FORMAT parquet)`,
      );
      const described = await connection.runAndReadAll(`DESCRIBE SELECT decision FROM '${parquet}'`);
      expect(String(described.getRowObjectsJS()[0]!['column_type'])).toMatch(/^STRUCT\(.*probabilities STRUCT\(/);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    const expected = await expectParity(['--dataset', join(data, 'dataset.jsonl'), '--results', parquet]);
    const jsonl = await score(
      ['--dataset', join(data, 'dataset.jsonl'), '--results', join(data, 'results-careful-1.jsonl'), '--json'],
      'node',
    );
    const { results: _p, ...numbers } = expected;
    const { results: _j, ...fromJsonl } = JSON.parse(jsonl.stdout) as Record<string, unknown>;
    expectSameNumbers(numbers, fromJsonl);
  });
});

describe('score --engine duckdb on invalid files', () => {
  const dataset = [
    '{"id": "yn-1", "kind": "yes_no", "correct": true}',
    '{"id": "ch-1", "kind": "choice", "options": ["allow", "flag", "remove"], "correct": "remove"}',
    '{"id": "sc-1", "kind": "score", "score_min": 0, "score_max": 10, "correct": 8}',
  ].join('\n');
  const good = {
    yn: '{"case_id": "yn-1", "model": "m", "decision": {"probability": 0.9}}',
    ch: '{"case_id": "ch-1", "model": "m", "decision": {"probabilities": {"allow": 0.1, "flag": 0.2, "remove": 0.7}}}',
    sc: '{"case_id": "sc-1", "model": "m", "decision": {"value": 7}}',
  };
  const bad: [string, string, string][] = [
    ['unknown case', '{"case_id": "nope", "model": "m", "decision": {"probability": 0.9}}', 'case_id'],
    ['duplicate case', good.yn, 'duplicate result'],
    ['another model', '{"case_id": "ch-1", "model": "other", "decision": {"probabilities": [0.1, 0.2, 0.7]}}', 'model'],
    ['probability above 1', '{"case_id": "yn-1", "model": "m", "decision": {"probability": 1.5}}', 'probability'],
    ['probability as text', '{"case_id": "yn-1", "model": "m", "decision": {"probability": "0.5"}}', 'probability'],
    ['sum 1.3', '{"case_id": "ch-1", "model": "m", "decision": {"probabilities": [0.3, 0.3, 0.7]}}', 'probabilities'],
    [
      'missing option',
      '{"case_id": "ch-1", "model": "m", "decision": {"probabilities": {"allow": 0.3, "flag": 0.7}}}',
      'probabilities',
    ],
    [
      'extra key',
      '{"case_id": "ch-1", "model": "m", "decision": {"probabilities": {"allow": 0.1, "flag": 0.2, "remove": 0.7, "x": 0}}}',
      'probabilities',
    ],
    ['short list', '{"case_id": "ch-1", "model": "m", "decision": {"probabilities": [0.3, 0.7]}}', 'probabilities'],
    [
      'picked not an option',
      '{"case_id": "ch-1", "model": "m", "decision": {"picked": "ban", "probabilities": [0.1, 0.2, 0.7]}}',
      'picked',
    ],
    ['value out of range', '{"case_id": "sc-1", "model": "m", "decision": {"value": 11}}', 'value'],
    ['negative cost', '{"case_id": "sc-1", "model": "m", "decision": {"value": 1}, "cost_usd": -1}', 'cost_usd'],
    ['huge latency', '{"case_id": "sc-1", "model": "m", "decision": {"value": 1}, "latency_ms": 1e13}', 'latency_ms'],
    [
      'repeated key',
      '{"case_id": "yn-1", "model": "m", "decision": {"probability": 0.9, "probability": 0.1}}',
      'repeated',
    ],
    ['not an object', '[1, 2]', 'JSON object'],
    ['decision missing', '{"case_id": "sc-1", "model": "m"}', 'decision'],
    [
      'malformed JSON',
      '{"case_id": "sc-1", "model": ',
      'not valid JSON (unexpected end of data; the default engine names the line)',
    ],
  ];

  it.each(bad)('rejects a results file with %s, as the strict loader does', async (_name, line, needle) => {
    const file = join(dir, `bad-${_name.replaceAll(' ', '-')}`);
    writeFileSync(`${file}-dataset.jsonl`, dataset);
    // The bad line replaces the good result of its case (or is added), so it is the only problem.
    const others = Object.values(good).filter((g) => {
      const id = /"case_id": "([^"]+)"/.exec(line)?.[1];
      return _name === 'duplicate case' || _name === 'another model' || g.includes(`"${id}"`) === false;
    });
    writeFileSync(`${file}-results.jsonl`, `${[...others, line].join('\n')}\n`);
    const args = ['--dataset', `${file}-dataset.jsonl`, '--results', `${file}-results.jsonl`];
    const node = await score(args, 'node');
    const duck = await score(args, 'duckdb');
    expect(node.code, node.stdout).toBe(1);
    expect(duck.code, duck.stdout).toBe(1);
    expect(duck.stderr).toContain(`${file}-results.jsonl`);
    expect(duck.stderr).toContain(needle);
    expect(duck.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it.each([
    ['a repeated id', '{"id": "yn-1", "kind": "yes_no", "correct": false}', 'duplicate id'],
    [
      'a correct answer not among the options',
      '{"id": "ch-2", "kind": "choice", "options": ["a", "b"], "correct": "c"}',
      'correct',
    ],
    [
      'score_min above score_max',
      '{"id": "sc-2", "kind": "score", "score_min": 5, "score_max": 1, "correct": 3}',
      'score_min',
    ],
    ['an unknown kind', '{"id": "x-1", "kind": "rank", "correct": 1}', 'kind'],
    [
      'an option listed twice',
      '{"id": "ch-3", "kind": "choice", "options": ["a", "b", "a"], "correct": "b"}',
      'options must be a list of 2 or more distinct non-empty strings',
    ],
    [
      'an option listed twice, its keys in another order',
      '{"kind": "choice", "id": "ch-4", "correct": "b", "options": ["b", "a", "b"]}',
      'options must be a list of 2 or more distinct non-empty strings',
    ],
    [
      'an option listed twice among twenty',
      `{"id": "ch-5", "kind": "choice", "options": ${JSON.stringify([...Array.from({ length: 19 }, (_, i) => `o${i}`), 'o3'])}, "correct": "o1"}`,
      'options must be a list of 2 or more distinct non-empty strings',
    ],
  ])('rejects a dataset with %s, as the strict loader does', async (name, line, needle) => {
    const file = join(dir, `bad-dataset-${name.replaceAll(' ', '-')}`);
    writeFileSync(`${file}-dataset.jsonl`, `${dataset}\n${line}\n`);
    writeFileSync(`${file}-results.jsonl`, `${good.yn}\n`);
    const args = ['--dataset', `${file}-dataset.jsonl`, '--results', `${file}-results.jsonl`];
    expect((await score(args, 'node')).code).toBe(1);
    const duck = await score(args, 'duckdb');
    expect(duck.code).toBe(1);
    expect(duck.stderr).toContain(`${file}-dataset.jsonl`);
    expect(duck.stderr).toContain(needle);
  });

  it.each([
    ['results', '[1, 2]'],
    ['results', 'null'],
    ['dataset', '"text"'],
  ])('reports a %s line that is not an object once, not also each field it lacks', async (which, line) => {
    const file = join(dir, `not-object-${which}-${line.length}`);
    writeFileSync(`${file}-dataset.jsonl`, which === 'dataset' ? `${dataset}\n${line}\n` : dataset);
    writeFileSync(`${file}-results.jsonl`, which === 'results' ? `${good.yn}\n${line}\n` : `${good.yn}\n`);
    const duck = await score(['--dataset', `${file}-dataset.jsonl`, '--results', `${file}-results.jsonl`], 'duckdb');
    expect(duck.code).toBe(1);
    expect(duck.stderr).toContain(`expected a JSON object, got ${line}`);
    expect(duck.stderr).not.toContain('missing');
    expect(duck.stderr).toContain('invalid input (1 problem)');
  });

  it('names the cases of a problem it finds in several (it has no line numbers to name)', async () => {
    const file = join(dir, 'same-problem-cases');
    writeFileSync(
      `${file}-dataset.jsonl`,
      ['yn-1', 'yn-2', 'yn-3'].map((id) => `{"id": "${id}", "kind": "yes_no", "correct": true}`).join('\n'),
    );
    writeFileSync(
      `${file}-results.jsonl`,
      ['yn-1', 'yn-2', 'yn-3']
        .map((id) => `{"case_id": "${id}", "model": "m", "decision": {"probability": 2}}`)
        .join('\n'),
    );
    const duck = await score(['--dataset', `${file}-dataset.jsonl`, '--results', `${file}-results.jsonl`], 'duckdb');
    expect(duck.code).toBe(1);
    expect(duck.stderr).toContain('(the same problem in 3 cases: yn-1, yn-2, yn-3)');
    expect(duck.stderr).not.toContain('lines');
  });

  it('says which file is missing', async () => {
    const duck = await score(['--dataset', join(dir, 'nope.jsonl'), '--results', join(dir, 'nope2.jsonl')], 'duckdb');
    expect(duck.code).toBe(1);
    expect(duck.stderr).toContain('nope.jsonl (no such file or folder)');
  });
});

describe('score --engine duckdb without the package', () => {
  it('is a usage error saying how to install it', async () => {
    const data = join(ROOT, 'data', 'moderation');
    const missing = Object.assign(new Error("Cannot find package '@duckdb/node-api'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(
      scoreWithDuckDb(join(data, 'dataset.jsonl'), join(data, 'results-careful-1.jsonl'), {
        importDuckDb: () => Promise.reject(missing),
      }),
    ).rejects.toThrowError(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('npm install @duckdb/node-api@'),
      }),
    );
  });
});
