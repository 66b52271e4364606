import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError, formatProblem } from '../../core/errors.js';
import type { OfflineResult } from '../../core/offline/case.js';
import { loadOfflineDataset, type OfflineDataset } from './dataset.js';
import { loadResults, readResults, scoreResults } from './results.js';
import { tempFolderRemovedAfterAll } from '../test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-offline-results-');
let n = 0;
function file(lines: readonly (string | object)[]): string {
  const path = join(dir, `r${n++}.jsonl`);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

let dataset: OfflineDataset;
beforeAll(async () => {
  dataset = await loadOfflineDataset(
    file([
      { id: 'yn-1', kind: 'yes_no', correct: true },
      { id: 'yn-2', kind: 'yes_no', correct: false },
      { id: 'ch-1', kind: 'choice', options: ['allow', 'flag', 'remove'], correct: 'remove' },
      { id: 'sc-1', kind: 'score', score_min: 0, score_max: 10, correct: 8 },
    ]),
  );
});

const YN = { case_id: 'yn-1', model: 'm', decision: { probability: 0.93 }, cost_usd: 0.004, latency_ms: 820 };
const CH = {
  case_id: 'ch-1',
  model: 'm',
  decision: { picked: 'remove', probabilities: { allow: 0.05, flag: 0.1, remove: 0.85 } },
};
const SC = { case_id: 'sc-1', model: 'm', decision: { value: 7, confidence: 0.8 } };

async function problemsOf(path: string): Promise<string[]> {
  const err = await readResults(path, dataset, () => {}).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidInputError);
  return (err as InvalidInputError).problems.map(formatProblem);
}

describe('readResults', () => {
  it('streams every valid result with its case and counts the missing', async () => {
    const seen: [OfflineResult, string][] = [];
    const r = await readResults(file([YN, '', CH, SC]), dataset, (result, c) => seen.push([result, c.id]));
    expect(r).toEqual({ model: 'm', lines: 3, missing: 1 });
    expect(seen).toEqual([
      [
        { caseId: 'yn-1', model: 'm', decision: { kind: 'yes_no', probability: 0.93 }, costUsd: 0.004, latencyMs: 820 },
        'yn-1',
      ],
      [
        { caseId: 'ch-1', model: 'm', decision: { kind: 'choice', probabilities: [0.05, 0.1, 0.85], pickedIndex: 2 } },
        'ch-1',
      ],
      [{ caseId: 'sc-1', model: 'm', decision: { kind: 'score', value: 7, confidence: 0.8 } }, 'sc-1'],
    ]);
  });

  it('reads probabilities as a list aligned with the options, the same as the object', async () => {
    const asList = await loadResults(file([{ ...CH, decision: { probabilities: [0.05, 0.1, 0.85] } }]), dataset);
    const asObject = await loadResults(
      file([{ ...CH, decision: { probabilities: { remove: 0.85, allow: 0.05, flag: 0.1 } } }]),
      dataset,
    );
    expect(asList.results[0]!.decision).toEqual({ kind: 'choice', probabilities: [0.05, 0.1, 0.85] });
    expect(asObject.results[0]!.decision).toEqual(asList.results[0]!.decision);
  });

  it('treats null optional fields as absent', async () => {
    const { results } = await loadResults(
      file([
        { ...YN, cost_usd: null, latency_ms: null },
        { ...SC, decision: { value: 1, confidence: null } },
      ]),
      dataset,
    );
    expect(results).toEqual([
      { caseId: 'yn-1', model: 'm', decision: { kind: 'yes_no', probability: 0.93 } },
      { caseId: 'sc-1', model: 'm', decision: { kind: 'score', value: 1 } },
    ]);
  });

  it('rejects a file without results (empty, or blank lines only): it would score nothing', async () => {
    for (const lines of [[''], ['', '  ', '']]) {
      const path = file(lines);
      expect(await problemsOf(path)).toEqual([`${path}: no results in the file`]);
    }
  });

  const rules: readonly [string, readonly (string | object)[], string][] = [
    ['invalid JSON', [YN, '{"case_id": "yn-2",'], ':2: not valid JSON ('],
    ['a line that is not an object', ['"yn-1"'], ':1: expected a JSON object, got "yn-1"'],
    ['a missing case_id', [{ model: 'm', decision: { probability: 0.5 } }], ':1: case_id is missing'],
    ['an unknown case_id', [{ ...YN, case_id: 'zz-9' }], ':1 case zz-9: case_id "zz-9" is not in the dataset '],
    [
      'a duplicate case_id',
      [YN, { ...YN, decision: { probability: 0.1 } }],
      ':2 case yn-1: duplicate result for this case (first on line 1)',
    ],
    ['a missing model', [{ case_id: 'yn-1', decision: { probability: 0.5 } }], ':1 case yn-1: model is missing'],
    [
      'a second model in one file',
      [YN, { ...SC, model: 'other' }],
      ':2 case sc-1: model "other" differs from "m" on line 1 (one results file is one model)',
    ],
    ['a missing decision', [{ case_id: 'yn-1', model: 'm' }], ':1 case yn-1: decision is missing ({"probability": p})'],
    [
      'a yes/no probability above 1',
      [{ ...YN, decision: { probability: 1.2 } }],
      ':1 case yn-1: probability must be a number in [0, 1], got 1.2',
    ],
    [
      'a yes/no probability that is a string',
      [{ ...YN, decision: { probability: '0.9' } }],
      ':1 case yn-1: probability must be a number in [0, 1], got "0.9"',
    ],
    [
      'probabilities that do not sum to 1',
      [{ ...CH, decision: { probabilities: { allow: 0.3, flag: 0.15, remove: 0.85 } } }],
      ':1 case ch-1: probabilities sum to 1.30, expected 1',
    ],
    [
      'probabilities just outside the tolerance',
      [{ ...CH, decision: { probabilities: [0.2, 0.2, 0.6111] } }],
      ':1 case ch-1: probabilities sum to 1.0111, expected 1',
    ],
    [
      'a probability below 0',
      [{ ...CH, decision: { probabilities: [-0.1, 0.2, 0.9] } }],
      ':1 case ch-1: probabilities[0] (allow) must be a number in [0, 1], got -0.1',
    ],
    [
      'a list of the wrong length',
      [{ ...CH, decision: { probabilities: [0.5, 0.5] } }],
      ':1 case ch-1: probabilities lists 2 values, expected 3 (one per option: allow, flag, remove)',
    ],
    [
      'an object missing an option',
      [{ ...CH, decision: { probabilities: { allow: 0.5, remove: 0.5 } } }],
      ':1 case ch-1: probabilities has no "flag" (every option needs one: allow, flag, remove)',
    ],
    [
      'an object with an unknown option',
      [{ ...CH, decision: { probabilities: { allow: 0.1, flag: 0.1, remove: 0.7, ban: 0.1 } } }],
      ':1 case ch-1: probabilities has "ban", which is not an option (allow, flag, remove)',
    ],
    [
      'probabilities that are neither list nor object',
      [{ ...CH, decision: { probabilities: 0.85 } }],
      ':1 case ch-1: probabilities must be an object or a list, got 0.85',
    ],
    [
      'a picked answer that is not an option',
      [{ ...CH, decision: { ...CH.decision, picked: 'ban' } }],
      ':1 case ch-1: picked "ban" is not one of the options (allow, flag, remove)',
    ],
    ['a score value out of range', [{ ...SC, decision: { value: 11 } }], ':1 case sc-1: value 11 is outside [0, 10]'],
    [
      'a score confidence above 1',
      [{ ...SC, decision: { value: 5, confidence: 2 } }],
      ':1 case sc-1: confidence must be a number in [0, 1], got 2',
    ],
    ['a negative cost', [{ ...YN, cost_usd: -0.01 }], ':1 case yn-1: cost_usd must be a finite number >= 0, got -0.01'],
    [
      'a latency that is not a number',
      [{ ...YN, latency_ms: '820' }],
      ':1 case yn-1: latency_ms must be a finite number >= 0, got "820"',
    ],
  ];
  for (const [what, lines, message] of rules) {
    it(`rejects ${what}`, async () => {
      const path = file(lines);
      const problems = await problemsOf(path);
      expect(
        problems.some((p) => p.startsWith(path + message)),
        `${JSON.stringify(problems)} has ${message}`,
      ).toBe(true);
    });
  }

  it('reports every problem of a line and of the file, and never passes an invalid line on', async () => {
    const passed: string[] = [];
    const path = file([
      YN,
      { ...SC, decision: { value: 12, confidence: 3 }, cost_usd: -1 },
      { ...YN, case_id: 'yn-2' },
      { ...CH, model: 'x' },
    ]);
    const err = (await readResults(path, dataset, (r) => passed.push(r.caseId)).catch(
      (e: unknown) => e,
    )) as InvalidInputError;
    expect(err.problems.map((p) => [p.line, p.field])).toEqual([
      [2, 'value'],
      [2, 'confidence'],
      [2, 'cost_usd'],
      [4, 'model'],
    ]);
    expect(passed).toEqual(['yn-1', 'yn-2']);
  });
});

describe('scoreResults', () => {
  it('summarises the file against the dataset', async () => {
    const r = await scoreResults(
      file([YN, { ...YN, case_id: 'yn-2', decision: { probability: 0.2 } }, CH, SC]),
      dataset,
    );
    expect(r.model).toBe('m');
    expect(r.summary.accuracy).toBe(1);
    expect(r.summary.counts.nMissing).toBe(0);
    expect(r.summary.scoreMae).toBe(1);
  });
});

describe('fast path', () => {
  // As for the dataset: the fast path must pass exactly what the slow path passes and leave
  // every problem to it. `"zz": 0` is unknown to the fast path (bail) and ignored by the slow one.
  const num = fc.oneof(
    fc.double({ min: -0.5, max: 1.5, noNaN: true }),
    fc.constantFrom(0, 1, 0.5, 1e-7, 12, -0),
    fc.constant(null),
    fc.constant('0.5'),
  );
  const probs = (k: number) => fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: k, maxLength: k });
  const decision = fc.oneof(
    fc.record({ probability: num }),
    fc.record(
      {
        probabilities: fc.oneof(
          probs(3),
          probs(2),
          probs(3).map((p) => Object.fromEntries(['allow', 'flag', 'remove'].map((o, i) => [o, p[i]]))),
        ),
      },
      { requiredKeys: [] },
    ),
    fc.constant({ probabilities: [0.2, 0.3, 0.5] }),
    fc.constant({ picked: 'flag', probabilities: { remove: 0.5, flag: 0.25, allow: 0.25 } }),
    fc.record({ picked: fc.constantFrom('allow', 'ban', null), probabilities: fc.constant([0.1, 0.1, 0.8]) }),
    fc.record({ value: fc.oneof(num, fc.integer({ min: -1, max: 11 })), confidence: num }, { requiredKeys: ['value'] }),
    num,
  );
  const line = fc
    .record(
      {
        case_id: fc.constantFrom('yn-1', 'yn-2', 'ch-1', 'sc-1', 'nope', ''),
        model: fc.constantFrom('m', 'm', 'm', 'n', ''),
        decision,
        cost_usd: num,
        latency_ms: num,
      },
      { requiredKeys: ['case_id', 'model', 'decision'] },
    )
    .chain((o) =>
      fc.shuffledSubarray(Object.entries(o), { minLength: Object.keys(o).length, maxLength: Object.keys(o).length }),
    )
    .map((entries) => Object.fromEntries(entries));

  // Mostly valid lines with one field possibly spoiled, so both paths get real work.
  const validDecision = {
    'yn-1': { probability: 0.7 },
    'yn-2': { probability: 0 },
    'ch-1': { probabilities: [0.25, 0.25, 0.5] },
    'sc-1': { value: 10, confidence: 1 },
  } as const;
  const validish = fc
    .record({
      case_id: fc.constantFrom('yn-1', 'yn-2', 'ch-1', 'sc-1'),
      spoil: fc.constantFrom('none', 'cost_usd', 'latency_ms', 'decision', 'model'),
      with: num,
    })
    .map(({ case_id, spoil, with: w }) => {
      const o: Record<string, unknown> = {
        case_id,
        model: 'm',
        decision: validDecision[case_id],
        cost_usd: 0.5,
        latency_ms: 3,
      };
      if (spoil === 'decision')
        o['decision'] =
          case_id === 'ch-1'
            ? { probabilities: [w, 0.5, 0.5] }
            : case_id === 'sc-1'
              ? { value: w }
              : { probability: w };
      else if (spoil !== 'none') o[spoil] = w;
      return o;
    });

  it('passes exactly what JSON.parse and the full validation pass', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(line, validish, validish), { minLength: 1, maxLength: 6 }),
        async (objects) => {
          const texts = [
            JSON.stringify({ ...YN, case_id: 'yn-2', decision: { probability: 0.1 } }),
            ...objects.map((o) => JSON.stringify(o).replace(/,/g, ', ')),
          ];
          const slow = texts.map((t) => `{"zz": 0, ${t.slice(1)}`);
          const outcome = async (lines: string[]) => {
            const passed: OfflineResult[] = [];
            return readResults(file(lines), dataset, (r) => passed.push(r)).then(
              (r) => ({ r, passed }),
              (e: unknown) => ({
                passed,
                problems: (e as InvalidInputError).problems.map((p) => [p.line, p.caseId, p.field, p.message]),
              }),
            );
          };
          expect(await outcome(texts)).toEqual(await outcome(slow));
        },
      ),
      { seed: 42, numRuns: 200 },
    );
  });
});

describe('hostile results lines', () => {
  it('rejects a cost or latency whose sum would overflow, naming line and field', async () => {
    const path = file([
      { ...YN, cost_usd: 1e308 },
      { ...YN, case_id: 'yn-2', latency_ms: 1e308 },
      { ...SC, cost_usd: 1e12 },
    ]);
    expect(await problemsOf(path)).toEqual([
      expect.stringMatching(/:1 case yn-1: cost_usd must be at most 1000000000000 \(larger values would overflow/),
      expect.stringMatching(/:2 case yn-2: latency_ms must be at most 1000000000000/),
    ]);
  });

  it('names a line nested 5,000 deep and a repeated key, on lines the fast path would read', async () => {
    const deep = `{"case_id":"yn-1","model":"m","decision":{"probability":0.5},"x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    const dupTop = '{"case_id":"yn-2","model":"m","decision":{"probability":0.5},"cost_usd":1,"cost_usd":2}';
    const dupProbs =
      '{"case_id":"ch-1","model":"m","decision":{"probabilities":{"allow":0.5,"allow":0.1,"remove":0.5}}}';
    expect(await problemsOf(file([deep, dupTop, dupProbs]))).toEqual([
      expect.stringMatching(/:1: too deeply nested/),
      expect.stringMatching(/:2: key "cost_usd" appears twice in one object/),
      expect.stringMatching(/:3: key "allow" appears twice in one object/),
    ]);
  });
});
