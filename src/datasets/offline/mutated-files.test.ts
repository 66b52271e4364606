/**
 * A property over mutated offline files (fixed seed): truncation, byte flips, a BOM, CRLF
 * line ends, repeated lines (duplicate ids), repeated keys, huge and deeply nested values.
 * Whatever the damage, loading and scoring either succeed with a summary holding no NaN, or
 * throw InvalidInputError whose problems name the file (and a line inside it): never
 * another exception.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../core/errors.js';
import { loadOfflineDataset } from './dataset.js';
import { scoreResults } from './results.js';
import { tempFolderRemovedAfterAll } from '../test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-mutated-');

const DATASET_LINES = [
  '{"id":"yn-1","kind":"yes_no","prompt":"Threat?","correct":true}',
  '{"id":"yn-2","kind":"yes_no","correct":false}',
  '{"id":"ch-1","kind":"choice","options":["allow","flag","remove"],"correct":"remove"}',
  '{"id":"ch-2","kind":"choice","options":["a","b"],"correct":"a"}',
  '{"id":"sc-1","kind":"score","score_min":0,"score_max":10,"correct":8}',
];
const RESULT_LINES = [
  '{"case_id":"yn-1","model":"m","decision":{"probability":0.93},"cost_usd":0.004,"latency_ms":820}',
  '{"case_id":"yn-2","model":"m","decision":{"probability":0.2},"cost_usd":0.002}',
  '{"case_id":"ch-1","model":"m","decision":{"picked":"remove","probabilities":{"allow":0.05,"flag":0.1,"remove":0.85}}}',
  '{"case_id":"ch-2","model":"m","decision":{"probabilities":[0.6,0.4]},"latency_ms":15}',
  '{"case_id":"sc-1","model":"m","decision":{"value":7,"confidence":0.8}}',
];

type Mutation = (text: string) => string;

const at = (text: string, fraction: number): number => Math.floor(fraction * text.length);
const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const lineIndex = fc.nat({ max: 4 });
const mapLine = (text: string, i: number, f: (line: string) => string): string => {
  const lines = text.split('\n');
  const k = i % lines.length;
  lines[k] = f(lines[k]!);
  return lines.join('\n');
};

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fraction.map(
    (x): Mutation =>
      (t) =>
        t.slice(0, at(t, x)),
  ),
  fc.tuple(fraction, fc.integer({ min: 0, max: 255 })).map(([x, byte]): Mutation => (t) => {
    const b = Buffer.from(t, 'latin1');
    if (b.length > 0) b[Math.floor(x * b.length)] = byte;
    return b.toString('latin1');
  }),
  fc.constant<Mutation>((t) => `\uFEFF${t}`),
  fc.constant<Mutation>((t) => t.replace(/\n/g, '\r\n')),
  lineIndex.map(
    (i): Mutation =>
      (t) =>
        mapLine(t, i, (l) => `${l}\n${l}`),
  ),
  lineIndex.map(
    (i): Mutation =>
      (t) =>
        mapLine(t, i, (l) => l.replace(/^\{("[^"]+":[^,{]+,)/, '{$1$1')),
  ),
  fc.tuple(lineIndex, fc.constantFrom('1e308', '-1e308', '1e999', '123456789012345678901234567890', '0.5e-400')).map(
    ([i, n]): Mutation =>
      (t) =>
        mapLine(t, i, (l) => l.replace(/(\d+(\.\d+)?)(?=[,}\]])/, n)),
  ),
  fc.tuple(lineIndex, fc.constantFrom(100_000, 1_000_000)).map(
    ([i, n]): Mutation =>
      (t) =>
        mapLine(t, i, (l) => l.replace(/"([a-z]+-\d)"/, `"$1${'x'.repeat(n)}"`)),
  ),
  fc.constantFrom('cost_usd', 'latency_ms').map(
    (key): Mutation =>
      (t) =>
        t.replace(new RegExp(`"${key}":[0-9.]+`, 'g'), `"${key}":1e308`),
  ),
  fc
    .tuple(
      fc.constantFrom(
        '{"case_id":"yn-1","model":"m","decision":%}',
        '{"case_id":"ch-1","model":"m","decision":{"probabilities":%}}',
        '{"case_id":%,"model":"m","decision":{"probability":0.5}}',
        '{"id":"yn-9","kind":"yes_no","correct":%}',
        '{"id":"ch-9","kind":"choice","options":%,"correct":"a"}',
        '{"id":%,"kind":"yes_no","correct":true}',
      ),
      fc.constantFrom(600, 5000),
    )
    .map(
      ([template, depth]): Mutation =>
        (t) =>
          `${t}${template.replace('%', `${'['.repeat(depth)}${']'.repeat(depth)}`)}\n`,
    ),
  fc.tuple(lineIndex, fc.constantFrom(600, 5000)).map(
    ([i, depth]): Mutation =>
      (t) =>
        mapLine(t, i, (l) => l.replace(/^\{/, `{"deep":${'['.repeat(depth)}${']'.repeat(depth)},`)),
  ),
);

/** Every number anywhere in a value: none may be NaN. */
function numbersOf(v: unknown, out: number[] = []): number[] {
  if (typeof v === 'number') out.push(v);
  else if (Array.isArray(v)) for (const x of v) numbersOf(x, out);
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) numbersOf(x, out);
  return out;
}

function expectLocated(err: unknown, path: string, text: string): void {
  if (!(err instanceof InvalidInputError)) throw err;
  expect(err.problems.length).toBeGreaterThan(0);
  const lines = text.split('\n').length;
  for (const p of err.problems) {
    expect(p.file).toBe(path);
    expect(p.message.length).toBeGreaterThan(0);
    if (p.line !== null) expect(p.line).toBeGreaterThanOrEqual(1);
    if (p.line !== null) expect(p.line).toBeLessThanOrEqual(lines);
  }
}

let n = 0;
describe('mutated offline files', () => {
  it('score or give located problems: never another exception, never NaN', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { maxLength: 3 }),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('inline', 'off') as fc.Arbitrary<'inline' | 'off'>,
        async (datasetMutations, resultMutations, mode) => {
          const datasetText = datasetMutations.reduce((t, m) => m(t), `${DATASET_LINES.join('\n')}\n`);
          const resultsText = resultMutations.reduce((t, m) => m(t), `${RESULT_LINES.join('\n')}\n`);
          const k = n++;
          const datasetPath = join(dir, `d${k}.jsonl`);
          const resultsPath = join(dir, `r${k}.jsonl`);
          writeFileSync(datasetPath, datasetText, 'latin1');
          writeFileSync(resultsPath, resultsText, 'latin1');
          let dataset;
          try {
            dataset = await loadOfflineDataset(datasetPath);
          } catch (err) {
            expectLocated(err, datasetPath, datasetText);
            return;
          }
          try {
            const scored = await scoreResults(resultsPath, dataset, {}, { mode });
            for (const v of numbersOf(scored.summary)) expect(Number.isNaN(v)).toBe(false);
          } catch (err) {
            expectLocated(err, resultsPath, resultsText);
          }
        },
      ),
      { seed: 1010, numRuns: 400 },
    );
  }, 120_000);
});
