import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecidekitError, InvalidInputError, formatProblem } from '../../core/errors.js';
import { loadOfflineDataset } from './dataset.js';
import { tempFolderRemovedAfterAll } from '../test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-offline-dataset-');
let n = 0;
function file(lines: readonly (string | object)[], name = `d${n++}.jsonl`): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

async function problemsOf(path: string): Promise<string[]> {
  const err = await loadOfflineDataset(path).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidInputError);
  return (err as InvalidInputError).problems.map(formatProblem);
}

const YN = { id: 'yn-1', kind: 'yes_no', prompt: 'Threat?', correct: true };
const CH = { id: 'ch-1', kind: 'choice', prompt: 'Action?', options: ['allow', 'flag', 'remove'], correct: 'remove' };
const SC = { id: 'sc-1', kind: 'score', score_min: 0, score_max: 10, correct: 8 };

describe('loadOfflineDataset', () => {
  it('loads every kind into checked cases, skipping blank lines', async () => {
    const path = file([
      YN,
      '',
      '   ',
      CH,
      SC,
      { id: 'mail-3:urgent', kind: 'yes_no', group: 'mail-3', correct: false },
    ]);
    const d = await loadOfflineDataset(path);
    expect(d.path).toBe(path);
    expect(d.cases).toEqual([
      { id: 'yn-1', kind: 'yes_no', prompt: 'Threat?', correct: true },
      {
        id: 'ch-1',
        kind: 'choice',
        prompt: 'Action?',
        options: ['allow', 'flag', 'remove'],
        correct: 'remove',
        correctIndex: 2,
      },
      { id: 'sc-1', kind: 'score', scoreMin: 0, scoreMax: 10, correct: 8 },
      { id: 'mail-3:urgent', kind: 'yes_no', group: 'mail-3', field: 'urgent', correct: false },
    ]);
    expect(d.byId.get('ch-1')).toBe(d.cases[1]);
  });

  it('keeps an explicit field over the one derived from the id', async () => {
    const d = await loadOfflineDataset(
      file([{ id: 'm:x', kind: 'yes_no', group: 'm', field: 'noise', correct: true }]),
    );
    expect(d.cases[0]).toMatchObject({ group: 'm', field: 'noise' });
  });

  it('reads a gzipped dataset', async () => {
    const path = join(dir, 'gz.jsonl.gz');
    writeFileSync(path, gzipSync(`${JSON.stringify(YN)}\n`));
    expect((await loadOfflineDataset(path)).cases).toHaveLength(1);
  });

  it('shares identical option lists between cases', async () => {
    const d = await loadOfflineDataset(
      file([
        CH,
        { ...CH, id: 'ch-2' },
        `{"id": "ch-3", "kind": "choice", "options": ["allow", "flag", "remove"], "correct": "flag", "extra": 1}`,
      ]),
    );
    const [a, b, c] = d.cases;
    expect(
      a!.kind === 'choice' &&
        b!.kind === 'choice' &&
        c!.kind === 'choice' &&
        a!.options === b!.options &&
        b!.options === c!.options,
    ).toBe(true);
  });

  const rules: readonly [string, readonly (string | object)[], string][] = [
    ['invalid JSON', ['{"id": "x", '], ':1: not valid JSON ('],
    ['a line that is not an object', ['[1, 2]'], ':1: expected a JSON object, got [1,2]'],
    ['a missing id', [{ kind: 'yes_no', correct: true }], ':1: id is missing'],
    ['an empty id', [{ id: '', kind: 'yes_no', correct: true }], ':1: id must be a non-empty string, got ""'],
    ['a duplicate id', [YN, { ...YN, correct: false }], ':2 case yn-1: duplicate id "yn-1" (first on line 1)'],
    [
      'an unknown kind',
      [{ id: 'a', kind: 'maybe', correct: true }],
      ':1 case a: kind must be yes_no, choice or score, got "maybe"',
    ],
    [
      'a yes/no answer that is not a boolean',
      [{ ...YN, correct: 'yes' }],
      ':1 case yn-1: correct must be true or false, got "yes"',
    ],
    [
      'a choice with one option',
      [{ ...CH, options: ['remove'] }],
      ':1 case ch-1: options must list 2 or more names, got 1',
    ],
    [
      'a choice with options that are not a list',
      [{ ...CH, options: 'allow,remove' }],
      ':1 case ch-1: options must be a list of 2 or more names, got "allow,remove"',
    ],
    [
      'a choice with an empty option',
      [{ ...CH, options: ['allow', '', 'remove'] }],
      ':1 case ch-1: options[1] must be a non-empty string, got ""',
    ],
    [
      'a choice with a repeated option',
      [{ ...CH, options: ['allow', 'remove', 'remove'] }],
      ':1 case ch-1: options lists "remove" twice',
    ],
    [
      'a choice whose answer is not an option',
      [{ ...CH, correct: 'ban' }],
      ':1 case ch-1: correct "ban" is not one of the options ["allow","flag","remove"]',
    ],
    [
      'a score range that is empty',
      [{ ...SC, score_min: 10, score_max: 10 }],
      ':1 case sc-1: score_min 10 must be below score_max 10',
    ],
    [
      'a score bound that is not a number',
      [{ ...SC, score_max: '10' }],
      ':1 case sc-1: score_max must be a finite number, got "10"',
    ],
    ['a score answer out of range', [{ ...SC, correct: 11 }], ':1 case sc-1: correct 11 is outside [0, 10]'],
    ['a prompt that is not a string', [{ ...YN, prompt: 3 }], ':1 case yn-1: prompt must be a string, got 3'],
    ['a group that is not a string', [{ ...YN, group: 1 }], ':1 case yn-1: group must be a non-empty string, got 1'],
    [
      'a group without field and an id without one',
      [{ id: 'mail-3:', kind: 'yes_no', group: 'mail-3', correct: true }],
      `:1 case mail-3:: field is missing and id "mail-3:" has nothing after its last ':'`,
    ],
  ];
  for (const [what, lines, message] of rules) {
    it(`rejects ${what}`, async () => {
      const path = file(lines);
      expect(await problemsOf(path)).toContainEqual(expect.stringMatching(new RegExp(`^${escape(path + message)}`)));
    });
  }

  it('rejects an empty dataset', async () => {
    const path = file(['', '']);
    expect(await problemsOf(path)).toEqual([`${path}: no cases (the dataset is empty)`]);
  });

  it('lists every problem of a file with its line, not just the first', async () => {
    const path = file([YN, { ...YN, id: 'b', correct: 1 }, CH, { ...CH, id: 'c', correct: 'x' }, 'nope']);
    const problems = await problemsOf(path);
    expect(problems.map((p) => p.split(' ')[0])).toEqual([`${path}:2`, `${path}:4`, `${path}:5:`]);
  });

  it('keeps 50 problems and counts the rest', async () => {
    const path = file(Array.from({ length: 70 }, (_, i) => ({ id: `x${i}`, kind: 'yes_no', correct: 'no' })));
    const err = (await loadOfflineDataset(path).catch((e: unknown) => e)) as InvalidInputError;
    expect(err.problems).toHaveLength(50);
    expect(err.omitted).toBe(20);
    expect(err.message).toContain('(and 69 more problems)');
  });

  it('names the path of a missing file', async () => {
    const err = await loadOfflineDataset(join(dir, 'missing.jsonl')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecidekitError);
    expect((err as Error).message).toContain('missing.jsonl (no such file or folder)');
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** JSON text of a value with random whitespace around the punctuation. */
function spaced(text: string, seed: number): string {
  let i = seed;
  return text.replace(/([,:{}[\]])/g, (m) => (++i % 3 === 0 ? ` ${m} ` : i % 3 === 1 ? `${m} ` : m));
}

describe('fast path', () => {
  // A line of the usual shape, sometimes broken: the fast path must load exactly what the
  // slow path loads, and leave every problem to it. `"zz": 0` is a key the fast path does
  // not know (so it bails out) and the slow path ignores: the same line, read slowly.
  const value = fc.oneof(
    fc.boolean(),
    fc.integer({ min: -3, max: 12 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 4 }),
    fc.constant(null),
    fc.constantFrom('allow', 'flag', 'remove', 'åländ', 'a"b', ''),
  );
  const line = fc
    .record({
      id: fc.oneof(fc.constantFrom('c1', 'g:f', 'g:', 'ü-1'), value),
      kind: fc.oneof(fc.constantFrom('yes_no', 'choice', 'score'), value),
      prompt: fc.option(fc.oneof(fc.string({ maxLength: 6 }), value), { nil: undefined }),
      correct: value,
      options: fc.option(
        fc.oneof(fc.array(fc.constantFrom('allow', 'flag', 'remove', 'åländ', '', 'a"b'), { maxLength: 4 }), value),
        { nil: undefined },
      ),
      score_min: fc.option(value, { nil: undefined }),
      score_max: fc.option(value, { nil: undefined }),
      group: fc.option(fc.oneof(fc.constantFrom('g'), value), { nil: undefined }),
      field: fc.option(fc.oneof(fc.constantFrom('f'), value), { nil: undefined }),
    })
    .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));

  const options = fc.uniqueArray(fc.constantFrom('allow', 'flag', 'remove', 'åländ', 'x'), {
    minLength: 2,
    maxLength: 4,
  });
  const validish = fc
    .oneof(
      fc.record({
        id: fc.constantFrom('c1', 'c2', 'g:f', 'ü'),
        kind: fc.constant('yes_no'),
        correct: fc.boolean(),
        prompt: fc.string({ maxLength: 5 }),
      }),
      options.chain((o) =>
        fc.record({
          id: fc.constantFrom('c1', 'c3'),
          kind: fc.constant('choice'),
          options: fc.constant(o),
          correct: fc.constantFrom(...o, 'nope'),
        }),
      ),
      fc.record({
        id: fc.constantFrom('s1', 'c1'),
        kind: fc.constant('score'),
        score_min: fc.constantFrom(0, -1.5, 10),
        score_max: fc.constantFrom(10, 1e3, 0.5),
        correct: fc.double({ min: -2, max: 12, noNaN: true }),
        group: fc.constantFrom('g'),
      }),
    )
    .chain((o) =>
      fc.shuffledSubarray(Object.entries(o), {
        minLength: Object.keys(o).length - 1,
        maxLength: Object.keys(o).length,
      }),
    )
    .map((entries) => Object.fromEntries(entries));

  it('loads exactly what JSON.parse and the full validation load', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(line, validish, validish), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        async (objects, seed) => {
          const texts = objects.map((o, i) => spaced(JSON.stringify(o), seed + i));
          const slow = texts.map((t) => (t === '{}' ? '{"zz":0}' : `{"zz": 0, ${t.trimStart().slice(1)}`));
          const outcome = async (lines: string[]) =>
            loadOfflineDataset(file(lines)).then(
              (d) => ({ cases: d.cases }),
              (e: unknown) => ({
                problems: (e as InvalidInputError).problems.map((p) => [p.line, p.caseId, p.field, p.message]),
              }),
            );
          expect(await outcome(texts)).toEqual(await outcome(slow));
        },
      ),
      { seed: 42, numRuns: 150 },
    );
  });
});

describe('hostile dataset lines', () => {
  it('names a line nested 5,000 deep instead of overflowing the stack', async () => {
    const deep = `{"id":"d-1","kind":"yes_no","correct":true,"metadata":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(await problemsOf(file([YN, deep]))).toEqual([
      expect.stringMatching(/:2: too deeply nested: more than 512 levels of arrays and objects$/),
    ]);
  });

  it('rejects a repeated key, naming it, even on a line the fast path reads', async () => {
    const path = file([YN, '{"id":"yn-2","kind":"yes_no","correct":true,"correct":false}', CH]);
    expect(await problemsOf(path)).toEqual([expect.stringMatching(/:2: key "correct" appears twice in one object/)]);
    const nested = file([`{"id":"ch-2","kind":"choice","options":["a","b"],"correct":"a","meta":{"x":1,"x":2}}`]);
    expect(await problemsOf(nested)).toEqual([expect.stringMatching(/:1: key "x" appears twice/)]);
  });
});
