/**
 * `score --engine duckdb` gives the strict loader's verdict on every mutation of a small
 * valid pair of files, both engines through the real CLI: each key of each line taken out
 * or set to null, a line or a decision wrapped in `__proto__`, trailing commas, NaN and
 * Infinity, white-space lines and empty probability lists. Same verdict = both refuse with
 * the same exit code, the DuckDB engine naming the file and the same fields (it names cases,
 * not lines), or both score with the same numbers. A key misspelt where one is missing
 * (`prob`, `probs`, `caseid`) is named by both engines in the same words.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inFolder, runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { expectSameNumbers } from '../../support/same-numbers.js';

const dir = tempFolderRemovedAfterAll('decidekit-duckdb-mutations-');

type Json = Record<string, unknown>;

const DATASET: readonly Json[] = [
  { id: 'yn-1', kind: 'yes_no', prompt: 'Is it spam?', correct: true },
  { id: 'ch-1', kind: 'choice', options: ['allow', 'flag', 'remove'], correct: 'remove', group: 'g', field: 'f' },
  { id: 'sc-1', kind: 'score', score_min: 0, score_max: 10, correct: 8 },
];
const RESULTS: readonly Json[] = [
  { case_id: 'yn-1', model: 'm', decision: { probability: 0.9 }, cost_usd: 0.5 },
  {
    case_id: 'ch-1',
    model: 'm',
    decision: { picked: 'remove', probabilities: { allow: 0.1, flag: 0.2, remove: 0.7 } },
    latency_ms: 20,
  },
  { case_id: 'sc-1', model: 'm', decision: { value: 7, confidence: 0.5 } },
];

/** The line with `key` (a path: `decision.probability`) taken out, or set to `value`. */
function edited(line: Json, path: string, value?: unknown): Json {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const copy = { ...line };
  if (rest.length > 0) copy[head] = edited(line[head] as Json, rest.join('.'), value);
  else if (value === undefined) delete copy[head];
  else copy[head] = value;
  return copy;
}

/** Every key path of a line, nested objects' keys too (not those of `probabilities`). */
function keyPaths(line: Json, prefix = ''): string[] {
  return Object.entries(line).flatMap(([k, v]) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && k !== 'probabilities'
      ? [`${prefix}${k}`, ...keyPaths(v as Json, `${prefix}${k}.`)]
      : [`${prefix}${k}`],
  );
}

interface Mutation {
  readonly name: string;
  readonly file: 'dataset' | 'results';
  /** The lines of the mutated file (the others stay valid). */
  readonly text: string;
}

const lines = (rows: readonly (Json | string)[]): string =>
  `${rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;

function keyMutations(file: 'dataset' | 'results', rows: readonly Json[]): Mutation[] {
  return rows.flatMap((row, i) =>
    keyPaths(row).flatMap((path) => [
      { name: `${row['id'] ?? row['case_id']} without ${path}`, file, text: lines(rows.with(i, edited(row, path))) },
      {
        name: `${row['id'] ?? row['case_id']} with ${path} null`,
        file,
        text: lines(rows.with(i, edited(row, path, null))),
      },
    ]),
  );
}

const result = (i: number): string => JSON.stringify(RESULTS[i]);
const withResult = (i: number, line: string): string => lines(RESULTS.map((r, k) => (k === i ? line : r)));

const TEXT_MUTATIONS: readonly Mutation[] = [
  { name: 'a result wrapped in __proto__', file: 'results', text: withResult(0, `{"__proto__": ${result(0)}}`) },
  {
    name: 'a decision wrapped in __proto__',
    file: 'results',
    text: withResult(0, '{"case_id": "yn-1", "model": "m", "decision": {"__proto__": {"probability": 0.9}}}'),
  },
  {
    name: 'a value wrapped in __proto__',
    file: 'results',
    text: withResult(2, '{"case_id": "sc-1", "model": "m", "decision": {"__proto__": {"value": 7}}}'),
  },
  {
    name: 'probabilities wrapped in __proto__',
    file: 'results',
    text: withResult(
      1,
      '{"case_id": "ch-1", "model": "m", "decision": {"probabilities": {"__proto__": {"allow": 0.1, "flag": 0.2, "remove": 0.7}}}}',
    ),
  },
  {
    name: 'a __proto__ key beside the others',
    file: 'results',
    text: withResult(0, `${result(0).slice(0, -1)}, "__proto__": {"x": 1}}`),
  },
  {
    name: 'a case wrapped in __proto__',
    file: 'dataset',
    text: lines([`{"__proto__": ${JSON.stringify(DATASET[0])}}`, ...DATASET.slice(1)]),
  },
  { name: 'a trailing comma in a result', file: 'results', text: withResult(0, `${result(0).slice(0, -1)},}`) },
  {
    name: 'a trailing comma in a decision',
    file: 'results',
    text: withResult(0, '{"case_id": "yn-1", "model": "m", "decision": {"probability": 0.9,}}'),
  },
  {
    name: 'a trailing comma in a list',
    file: 'results',
    text: withResult(1, '{"case_id": "ch-1", "model": "m", "decision": {"probabilities": [0.1, 0.2, 0.7,]}}'),
  },
  {
    name: 'a trailing comma in a case',
    file: 'dataset',
    text: lines([`${JSON.stringify(DATASET[0]).slice(0, -1)},}`, ...DATASET.slice(1)]),
  },
  ...['NaN', 'Infinity', '-Infinity', 'nan', 'inf'].map((word): Mutation => ({
    name: `${word} as an ignored key's value`,
    file: 'results',
    text: withResult(0, `${result(0).slice(0, -1)}, "note": ${word}}`),
  })),
  {
    name: 'NaN as a probability',
    file: 'results',
    text: withResult(0, '{"case_id": "yn-1", "model": "m", "decision": {"probability": NaN}}'),
  },
  {
    name: 'a comma and a brace inside a string (valid)',
    file: 'results',
    text: withResult(0, `${result(0).slice(0, -1)}, "note": "Infinity, nan,}"}`),
  },
  { name: 'a form-feed line', file: 'results', text: `${withResult(0, result(0))}\f\n` },
  { name: 'a form-feed line in the dataset', file: 'dataset', text: `${lines(DATASET)}\f\n` },
  { name: 'a vertical-tab and space line', file: 'results', text: `${withResult(0, result(0))}\v \t\n` },
  { name: 'a form feed before a result', file: 'results', text: withResult(0, `\f${result(0)}`) },
  { name: 'a form feed after a result', file: 'results', text: withResult(0, `${result(0)}\f`) },
  { name: 'a no-break space line', file: 'results', text: `${withResult(0, result(0))}\u00a0\n` },
  {
    name: 'an empty probability list',
    file: 'results',
    text: withResult(1, '{"case_id": "ch-1", "model": "m", "decision": {"probabilities": []}}'),
  },
  {
    name: 'an empty probability object',
    file: 'results',
    text: withResult(1, '{"case_id": "ch-1", "model": "m", "decision": {"probabilities": {}}}'),
  },
  {
    name: 'a probability of 1e400',
    file: 'results',
    text: withResult(0, '{"case_id": "yn-1", "model": "m", "decision": {"probability": 1e400}}'),
  },
];

/**
 * Lines in the plain shape (keys in the usual order, no spaces, no null) that the engine reads
 * through its typed fast path, each breaking one rule or (an escaped id) none.
 */
const withCase = (i: number, line: string): string => lines(DATASET.map((c, k) => (k === i ? line : c)));
const PLAIN_MUTATIONS: readonly Mutation[] = [
  ['a probability of 1.5', 0, '{"case_id":"yn-1","model":"m","decision":{"probability":1.5}}'],
  ['an unknown case', 0, '{"case_id":"nope","model":"m","decision":{"probability":0.9}}'],
  ['an empty case id', 0, '{"case_id":"","model":"m","decision":{"probability":0.9}}'],
  ['an empty model', 0, '{"case_id":"yn-1","model":"","decision":{"probability":0.9}}'],
  [
    'an option twice in the probabilities',
    1,
    '{"case_id":"ch-1","model":"m","decision":{"probabilities":{"allow":0.1,"allow":0.2,"remove":0.7}}}',
  ],
  ['an escaped case id', 0, String.raw`{"case_id":"yn\u002d1","model":"m","decision":{"probability":0.9}}`],
  ['a negative cost', 0, '{"case_id":"yn-1","model":"m","decision":{"probability":0.9},"cost_usd":-1}'],
  ['a value as a yes/no answer', 0, '{"case_id":"yn-1","model":"m","decision":{"value":1}}'],
  ['probabilities summing to 1.3', 1, '{"case_id":"ch-1","model":"m","decision":{"probabilities":[0.3,0.3,0.7]}}'],
  ['a short probability list', 1, '{"case_id":"ch-1","model":"m","decision":{"probabilities":[0.3,0.7]}}'],
  [
    'a picked option that is not one',
    1,
    '{"case_id":"ch-1","model":"m","decision":{"picked":"ban","probabilities":[0.1,0.2,0.7]}}',
  ],
  ['a value of 1e99', 2, '{"case_id":"sc-1","model":"m","decision":{"value":1e99}}'],
  ['a confidence of 2', 2, '{"case_id":"sc-1","model":"m","decision":{"value":7,"confidence":2}}'],
  [
    'a probability above 1 by option',
    1,
    '{"case_id":"ch-1","model":"m","decision":{"probabilities":{"allow":1.2,"flag":-0.2,"remove":0}}}',
  ],
  [
    'as many options, one not an option',
    1,
    '{"case_id":"ch-1","model":"m","decision":{"probabilities":{"allow":0.1,"flag":0.2,"ban":0.7}}}',
  ],
  [
    'an option missing by name',
    1,
    '{"case_id":"ch-1","model":"m","decision":{"probabilities":{"allow":0.3,"flag":0.7}}}',
  ],
  ['a negative probability in a list', 1, '{"case_id":"ch-1","model":"m","decision":{"probabilities":[-0.1,0.4,0.7]}}'],
  [
    'a cost of 400 digits',
    0,
    `{"case_id":"yn-1","model":"m","decision":{"probability":0.9},"cost_usd":${'9'.repeat(400)}}`,
  ],
  ['a value below the range', 2, '{"case_id":"sc-1","model":"m","decision":{"value":-1}}'],
].map(([name, i, line]) => ({
  name: `plain: ${name}`,
  file: 'results' as const,
  text: withResult(i as number, line as string),
}));
const PLAIN_CASE_MUTATIONS: readonly Mutation[] = [
  ['a yes/no answer "yes"', 0, '{"id":"yn-1","kind":"yes_no","correct":"yes"}'],
  ['an unknown kind', 0, '{"id":"yn-1","kind":"rank","correct":true}'],
  ['an empty group', 0, '{"id":"yn-1","kind":"yes_no","group":"","correct":true}'],
  ['an option twice', 1, '{"id":"ch-1","kind":"choice","options":["allow","allow","remove"],"correct":"remove"}'],
  [
    'a correct answer not an option',
    1,
    '{"id":"ch-1","kind":"choice","options":["allow","flag","remove"],"correct":"x"}',
  ],
  ['a score outside its range', 2, '{"id":"sc-1","kind":"score","score_min":0,"score_max":10,"correct":11}'],
  ['a range upside down', 2, '{"id":"sc-1","kind":"score","correct":5,"score_min":10,"score_max":0}'],
  ['a score answer as text', 2, '{"id":"sc-1","kind":"score","score_min":0,"score_max":10,"correct":"8"}'],
  ['a yes/no answer 1', 0, '{"id":"yn-1","kind":"yes_no","correct":1}'],
  ['a choice answer as a number', 1, '{"id":"ch-1","kind":"choice","options":["1","2"],"correct":1}'],
  ['one option', 1, '{"id":"ch-1","kind":"choice","options":["remove"],"correct":"remove"}'],
  ['an empty option', 1, '{"id":"ch-1","kind":"choice","options":["","remove"],"correct":"remove"}'],
  ['a choice without options', 1, '{"id":"ch-1","kind":"choice","correct":"remove"}'],
  ['a score without its range', 2, '{"id":"sc-1","kind":"score","correct":8}'],
  ['a range of 400 digits', 2, `{"id":"sc-1","kind":"score","score_min":0,"score_max":${'9'.repeat(400)},"correct":8}`],
  ['a range beyond 1e15', 2, '{"id":"sc-1","kind":"score","score_min":-1e16,"score_max":10,"correct":8}'],
  ['an empty id', 0, '{"id":"","kind":"yes_no","correct":true}'],
  ['an empty field', 0, '{"id":"yn-1","kind":"yes_no","field":"","correct":true}'],
].map(([name, i, line]) => ({
  name: `plain case: ${name}`,
  file: 'dataset' as const,
  text: withCase(i as number, line as string),
}));

const MUTATIONS: readonly Mutation[] = [
  ...PLAIN_MUTATIONS,
  ...PLAIN_CASE_MUTATIONS,
  ...keyMutations('dataset', DATASET),
  ...keyMutations('results', RESULTS),
  ...TEXT_MUTATIONS,
];

/** The first word of each problem's message (its field, or "not", "expected" …), one per cause. */
function problemWords(stderr: string, file: string): string[] {
  const words = stderr
    .split('\n')
    .filter((l) => l.startsWith(file))
    .map((l) => /^\S+?(?::\d+)?(?: case \S+)?: (\S+?)(?:[\s.[]|$)/.exec(l)?.[1] ?? l);
  return [...new Set(words)].sort();
}

describe('score --engine duckdb gives the strict loader verdict on every mutation', () => {
  it.each(MUTATIONS.map((m, i) => [m.name, i] as const))('%s', async (_name, i) => {
    const m = MUTATIONS[i]!;
    const base = join(dir, `m${i}`);
    const dataset = `${base}-dataset.jsonl`;
    const results = `${base}-results.jsonl`;
    writeFileSync(dataset, m.file === 'dataset' ? m.text : lines(DATASET));
    writeFileSync(results, m.file === 'results' ? m.text : lines(RESULTS));
    const args = ['score', '--dataset', dataset, '--results', results, '--json'];
    const node = await runCliInProcess([...args, '--no-ci'], inFolder(dir));
    const duck = await runCliInProcess([...args, '--engine', 'duckdb'], inFolder(dir));
    expect(duck.code, `node: ${node.stderr}\nduckdb: ${duck.stderr}`).toBe(node.code);
    expect(duck.stderr).not.toMatch(/internal error|\n\s+at /);
    if (node.code === 0) {
      expectSameNumbers(JSON.parse(duck.stdout), JSON.parse(node.stdout));
    } else {
      const bad = m.file === 'dataset' ? dataset : results;
      expect(problemWords(node.stderr, bad).length, node.stderr).toBeGreaterThan(0);
      expect(problemWords(duck.stderr, bad), `node: ${node.stderr}\nduckdb: ${duck.stderr}`).toEqual(
        problemWords(node.stderr, bad),
      );
    }
  });
});

/** A results file with one line's key renamed (a path: `decision.probability`) to `misspelt`. */
function renamedKey(i: number, path: string, misspelt: string): string {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const rename = (line: Json, key: string): Json =>
    Object.fromEntries(Object.entries(line).map(([k, v]) => [k === key ? misspelt : k, v]));
  const row = RESULTS[i]!;
  return lines(
    RESULTS.with(i, rest.length === 0 ? rename(row, head) : { ...row, [head]: rename(row[head] as Json, rest[0]!) }),
  );
}

/** Each problem's message, without where it is (`file:3 case x:` or `file case x:`), one per cause. */
function problemMessages(stderr: string, file: string): string[] {
  const messages = stderr
    .split('\n')
    .filter((l) => l.startsWith(file))
    .map((l) => l.replace(/^\S+?(?::\d+)?(?: case \S+)?: /, ''));
  return [...new Set(messages)].sort();
}

describe('a misspelt key is named alike by both engines', () => {
  it.each([
    [0, 'decision.probability', 'prob'],
    [0, 'decision.probability', 'probs'],
    [1, 'decision.probabilities', 'probs'],
    [1, 'decision.probabilities', 'probabilites'],
    [2, 'decision.value', 'val'],
    [0, 'case_id', 'caseid'],
    [1, 'case_id', 'caseId'],
    [2, 'model', 'modle'],
    [0, 'decision', 'decison'],
    [1, 'decision', 'decision_'],
  ] as const)('line %i with %s spelt %s', async (i, path, misspelt) => {
    const base = join(dir, `misspelt-${i}-${misspelt}`);
    const dataset = `${base}-dataset.jsonl`;
    const results = `${base}-results.jsonl`;
    writeFileSync(dataset, lines(DATASET));
    writeFileSync(results, renamedKey(i, path, misspelt));
    const args = ['score', '--dataset', dataset, '--results', results];
    const node = await runCliInProcess(args, inFolder(dir));
    const duck = await runCliInProcess([...args, '--engine', 'duckdb'], inFolder(dir));
    expect([node.code, duck.code], `node: ${node.stderr}\nduckdb: ${duck.stderr}`).toEqual([1, 1]);
    const said = problemMessages(node.stderr, results);
    expect(said.join('\n')).toContain(
      `the line has the unknown key '${misspelt}': did you mean '${path.split('.').pop()}'?`,
    );
    expect(problemMessages(duck.stderr, results)).toEqual(said);
  });
});
